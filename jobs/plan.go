package jobs

// Plans: job graphs built once, a frame's jobs and edges prepared ahead,
// so that running them costs a copy of prepared records into the arena and the
// release of the roots, not a Schedule (validation, lookups, one CAS per
// edge) per job. Taskflow's Taskflow and enkiTS's task sets with
// dependencies work this way. A Plan is built by one goroutine (it is not
// safe for concurrent Add) and read-only once built; Pool.Run places it
// from any goroutine, as Schedule does.

// PlanJob names a job of a Plan: its place in the order of Add and
// ParallelFor, from 0.
type PlanJob int32

// Plan is a job graph built once and run in any number of frames by
// Pool.Run, each run scheduling the same jobs with the same prerequisites
// as calling Schedule and ParallelFor in Add order would, with the same
// handles, waits, outcomes and trace. Make it with Pool.NewPlan, add jobs
// with Add and ParallelFor (a prerequisite is a PlanJob added before), then
// Build; a built plan is frozen. A run's jobs depend only on each other:
// to order a run after other jobs, Wait for them first.
type Plan struct {
	pool  *Pool
	nodes []planNode
	built bool

	// Made by Build, read-only after it (Run reads them from any goroutine).
	first []uint32  // node -> its first record: the job, or a ParallelFor's join
	recs  []planRec // one per arena record of a run, in arena order
	edges []edge    // the successor lists: to is a record, next an edge offset+1
	roots []uint32  // records without prerequisites, in Add order: Run readies them
}

// planNode is one Add or ParallelFor call, as made.
type planNode struct {
	job      Job
	deps     []PlanJob
	n, batch int  // ParallelFor's items and batch
	pfor     bool // a ParallelFor of at least one chunk: a join and a range job
}

// planRec is one record's prepared fields, as schedule and parallelFor
// would leave them once its builder hold is released.
type planRec struct {
	job      Job
	head     uint32 // successor list: edge offset+1, 0 for none
	holds    int32  // prerequisites (a join: its root range job)
	parent   uint32 // a range job's join, record offset+1
	root     uint32 // a join's root range job, record offset+1
	chunkEnd int32
}

// NewPlan makes an empty Plan for p. Any goroutine.
func (p *Pool) NewPlan() *Plan { return &Plan{pool: p} }

// Add adds a job that runs once every node in deps has finished, as
// Schedule would, and returns its PlanJob. deps are nodes of g added before.
// Refused with ErrBadArgument once g is built, for a dep that is not such
// a node, and for a Job that Schedule refuses. Executed only by g's
// builder, before Build.
func (g *Plan) Add(j Job, deps ...PlanJob) (PlanJob, error) {
	if err := g.check(&j, deps); err != nil {
		return 0, err
	}
	g.nodes = append(g.nodes, planNode{job: j, deps: append([]PlanJob(nil), deps...)})
	return PlanJob(len(g.nodes) - 1), nil
}

// ParallelFor adds a ParallelFor of j over [0, n) in chunks of batch
// items after deps, as Pool.ParallelFor would; its PlanJob stands for the
// whole range. Refused as Add and as Pool.ParallelFor refuse. Executed
// only by g's builder, before Build.
func (g *Plan) ParallelFor(j Job, n, batch int, deps ...PlanJob) (PlanJob, error) {
	if n < 0 || batch < 1 || j.Run == nil || j.Pipe != nil || (n+batch-1)/batch > 1<<31-1 {
		return 0, errorf(ErrBadArgument, j.Label, "Plan.ParallelFor(n=%d, batch=%d) needs n >= 0, batch >= 1, a Run func, no Pipe and fewer than 2^31 chunks", n, batch)
	}
	if err := g.check(&j, deps); err != nil {
		return 0, err
	}
	nd := planNode{job: j, deps: append([]PlanJob(nil), deps...), n: n, batch: batch, pfor: n > 0}
	if n == 0 { // as Pool.ParallelFor: a no-op job
		nd.job = Job{Label: j.Label, Priority: j.Priority}
	}
	g.nodes = append(g.nodes, nd)
	return PlanJob(len(g.nodes) - 1), nil
}

// check refuses a job that Add or ParallelFor cannot take. Executed only
// by g's builder.
func (g *Plan) check(j *Job, deps []PlanJob) error {
	if g.built {
		return errorf(ErrBadArgument, j.Label, "the plan is built and cannot change; make a new Plan for another shape")
	}
	if err := g.pool.checkJob(j); err != nil {
		return err
	}
	for _, d := range deps {
		if d < 0 || int(d) >= len(g.nodes) {
			return errorf(ErrBadArgument, j.Label, "prerequisite PlanJob %d is not a job of this plan added before it (it has %d)", d, len(g.nodes))
		}
	}
	return nil
}

// Build freezes g and prepares its records and edges: their arena order
// and successor lists are those that scheduling the nodes one by one in
// Add order would make (each edge joins the front of its prerequisite's
// list), so a run matches that on every worker count, and on the serial
// executor runs in the same order. A second Build does nothing. Executed
// only by g's builder, before any Run.
func (g *Plan) Build() error {
	if g.built {
		return nil
	}
	g.first = make([]uint32, len(g.nodes))
	for i, nd := range g.nodes {
		g.first[i] = uint32(len(g.recs))
		if !nd.pfor {
			g.recs = append(g.recs, planRec{job: nd.job, holds: int32(len(nd.deps))})
			continue
		}
		j := nd.job
		j.Label.Chunk = 0
		ji := uint32(len(g.recs))
		g.recs = append(g.recs,
			planRec{job: Job{Label: Label{Name: j.Label.Name, Chunk: -1}, Lo: nd.n, Hi: nd.batch, Priority: j.Priority}, holds: 1, root: ji + 2},
			planRec{job: j, holds: int32(len(nd.deps)), parent: ji + 1, chunkEnd: int32((nd.n + nd.batch - 1) / nd.batch)})
	}
	for i, nd := range g.nodes {
		to := g.first[i]
		if nd.pfor {
			to++ // a ParallelFor's prerequisites hold its root range job
		}
		if len(nd.deps) == 0 {
			g.roots = append(g.roots, to)
		}
		for _, d := range nd.deps {
			from := &g.recs[g.first[d]]
			g.edges = append(g.edges, edge{to: to, next: from.head})
			from.head = uint32(len(g.edges))
		}
	}
	g.built = true
	return nil
}

// Len is the number of nodes in g. Any goroutine, once g is built.
func (g *Plan) Len() int { return len(g.nodes) }

// PlanRun is one run of a Plan: its jobs' handles in the frame it was
// run in.
type PlanRun struct {
	g *Plan
	h Handle // the run's first record
}

// Handle is job n's handle in the run's frame, for Wait, Outcome, Cancel
// and as a prerequisite; a ParallelFor job's is the one Pool.ParallelFor
// returns. A job not in the plan gives the zero Handle, which those calls
// refuse with ErrForeignHandle. Any goroutine.
func (in PlanRun) Handle(n PlanJob) Handle {
	if in.g == nil || n < 0 || int(n) >= len(in.g.first) {
		return Handle{}
	}
	h := in.h
	h.idx += in.g.first[n]
	return h
}

// Run schedules every job of g into the current frame, as calling
// Schedule and ParallelFor for its nodes in Add order would, and returns
// the run's PlanRun for their handles. A plan may run any number of
// times in a frame and across Resets. Refused with ErrBadArgument for a
// plan of another pool or not built, ErrClosed after Close and
// ErrArenaFull when the frame has no room for it; a refused run schedules
// nothing. Any goroutine, as Schedule; the owner's jobs go on its deque.
func (p *Pool) Run(g *Plan) (PlanRun, error) {
	switch {
	case g == nil || g.pool != p:
		return PlanRun{}, errorf(ErrBadArgument, Label{}, "the plan was not made by this pool's NewPlan; make and build one per pool")
	case !g.built:
		return PlanRun{}, errorf(ErrBadArgument, Label{}, "the plan is not built; call Build after its last Add")
	case p.closed.Load():
		return PlanRun{}, errorf(ErrClosed, Label{}, "the pool is closed; run plans before Close")
	}
	w := p.acquire()
	defer p.release(w)
	return p.place(w, g)
}

// place reserves g's records and edges in one piece each, writes them
// from the prepared ones, then readies the roots in Add order. Any
// goroutine, on behalf of w (nil for a guest). Nothing of the run is
// reachable before its roots are readied: no handle of it is out, and
// only its own records hold edges to its records; so every record is
// written plainly but gen, stored last as alloc does (for lookup and
// Snapshot), and a root's executor finds all its successors written.
func (p *Pool) place(w *participant, g *Plan) (PlanRun, error) {
	n, k := len(g.recs), len(g.edges)
	var e0 uint32
	if k > 0 {
		var ok bool
		if e0, ok = p.reserveEdges(w, k); !ok {
			return PlanRun{}, errorf(ErrArenaFull, Label{}, "a plan's run of %d edges makes more than %d dependency edges since the last Reset; call Reset between frames or raise Options.MaxJobs", k, p.edges.limit)
		}
	}
	base, ok := p.reserveJobs(w, n)
	if !ok {
		return PlanRun{}, errorf(ErrArenaFull, Label{}, "a plan's run of %d jobs makes more than %d jobs since the last Reset; call Reset between frames or raise Options.MaxJobs", n, p.jobs.limit)
	}
	for i := range g.edges {
		ge := &g.edges[i]
		e := p.edges.at(e0 + uint32(i))
		e.to, e.next = base+ge.to, 0
		if ge.next != 0 {
			e.next = e0 + ge.next
		}
	}
	gen := p.epoch.Load()
	for i := range g.recs {
		gr := &g.recs[i]
		r := p.jobs.at(base + uint32(i))
		link := uint64(Pending)
		if gr.head != 0 {
			link |= uint64(e0+gr.head) << 32
		}
		r.cause.v, r.link.v, r.holds.v, r.flags.v = 0, link, gr.holds, 0
		r.parent, r.root, r.chunkEnd = 0, 0, gr.chunkEnd
		if gr.parent != 0 {
			r.parent = base + gr.parent
		}
		if gr.root != 0 {
			r.root = base + gr.root
		}
		r.job, r.err = gr.job, nil
		r.gen.StoreRelease(gen)
	}
	for _, root := range g.roots {
		p.ready(w, base+root, p.jobs.at(base+root))
	}
	return PlanRun{g: g, h: Handle{pool: p.id, gen: gen, idx: base}}, nil
}

// reserveJobs reserves n consecutive job slots on behalf of w (nil for a
// guest), the driver of parts[0] through reserveAhead as reserveJob does,
// so that the owner's jobs keep increasing indices, dense while only it
// schedules. Where reserveAhead drops the rest of the range (another
// goroutine reserved right after it), those slots are no jobs and never
// finish: dropped counts them, for idle and Reset. Any goroutine; only the
// driver of parts[0] touches its slots.
func (p *Pool) reserveJobs(w *participant, n int) (uint32, bool) {
	if n == 0 {
		return 0, true
	}
	if w == nil || w.id != 0 {
		return p.jobs.reserve(n)
	}
	from, left := w.slot, w.slotEnd-w.slot
	first, ok := reserveAhead(p.jobs, &w.slot, &w.slotEnd, n)
	if ok && first != from {
		w.dropped += left
	}
	return first, ok
}
