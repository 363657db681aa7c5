package jobs

// Scheduling: reserving a job, linking it after its prerequisites and
// making it ready. Called by any goroutine on behalf of participant w: the
// owner (parts[0], holding Pool.guard), a job through its Ctx (its own
// participant), or nil for a guest, whose ready jobs go through the
// injection queue. A record is private to its scheduler until its builder
// hold is released (or its handle returned); after that only its atomics
// change, and the rest is read-only until the job runs.

// schedule makes a job on behalf of w (nil for a guest). Any goroutine;
// w's deque is touched only if the caller drives w.
func (p *Pool) schedule(w *participant, j Job, deps []Handle) (Handle, error) {
	if err := p.validate(&j, deps); err != nil {
		return Handle{}, err
	}
	idx, r, e0, err := p.alloc(w, &j, len(deps))
	if err != nil {
		return Handle{}, err
	}
	if ended := p.depend(w, idx, r, e0, deps); ended < int32(len(deps)) {
		p.releaseHolds(w, idx, 1+ended)
	} else {
		// No edge holds r back (it has none, or every prerequisite had
		// ended) and its handle is not out yet, so nobody else reads or
		// writes its holds: a plain write drops them without a locked add
		// (W1's jobs; W3's middle jobs, scheduled after their root ran).
		r.holds.v = 0
		p.ready(w, idx, r)
	}
	return p.handle(idx), nil
}

// validate checks a job and its dependency handles before anything is
// reserved, so that a refused job leaves no trace. Any goroutine.
func (p *Pool) validate(j *Job, deps []Handle) error {
	if err := p.checkJob(j); err != nil {
		return err
	}
	for _, d := range deps {
		if _, err := p.lookup(d); err != nil {
			return err
		}
	}
	return nil
}

// checkJob refuses a Job the pool cannot run. Any goroutine.
func (p *Pool) checkJob(j *Job) error {
	if j.Priority >= numPriorities {
		return errorf(ErrBadArgument, j.Label, "Priority %d is not Normal or High", j.Priority)
	}
	if j.Pipe != nil && j.Pipe.pool != p {
		return errorf(ErrBadArgument, j.Label, "pipe %q belongs to another pool; make it with this pool's NewPipe", j.Pipe.name)
	}
	return nil
}

// alloc reserves and initialises a record holding the builder's hold and
// one hold per dependency (taken before depend publishes any edge, with a
// plain write: one locked add per edge saved), and k edges for its
// dependencies, returned as the first edge index. Any
// goroutine: the arenas hand out disjoint slots; the record stays private
// until gen is stored (for lookup and Snapshot) and its builder hold is
// released (for executors).
func (p *Pool) alloc(w *participant, j *Job, k int) (uint32, *record, uint32, error) {
	var e0 uint32
	if k > 0 {
		var ok bool
		if e0, ok = p.reserveEdges(w, k); !ok {
			return 0, nil, 0, errorf(ErrArenaFull, j.Label, "more than %d dependency edges since the last Reset; call Reset between frames or raise Options.MaxJobs", p.edges.limit)
		}
	}
	idx, ok := p.reserveJob(w)
	if !ok {
		return 0, nil, 0, errorf(ErrArenaFull, j.Label, "more than %d jobs since the last Reset; call Reset between frames or raise Options.MaxJobs", p.jobs.limit)
	}
	r := p.jobs.at(idx)
	r.cause.v, r.link.v, r.holds.v, r.flags.v = 0, uint64(Pending), 1+int32(k), 0
	r.parent, r.chunkEnd, r.root, r.err = 0, 0, 0, nil
	r.job = *j
	r.gen.StoreRelease(p.epoch.Load()) // last: Snapshot and lookup read the record only after seeing it
	return idx, r, e0, nil
}

// ownerSlots is how many job slots, and at least how many edge slots, the
// driver of parts[0] reserves at a time: each arena's counter is a shared
// atomic, and the owner schedules most jobs (W1: one atomic add per 64
// jobs instead of one each; W3: one per 64 edges).
const ownerSlots = 64

// reserveJob reserves a job slot on behalf of w (nil for a guest). The
// driver of parts[0] takes it from the slots it reserved ahead, [w.slot,
// w.slotEnd); those it has not used are not jobs (see idle and Reset), so
// others may be refused up to ownerSlots-1 short of MaxJobs. Any
// goroutine; only the driver of parts[0] touches its slots.
func (p *Pool) reserveJob(w *participant) (uint32, bool) {
	if w == nil || w.id != 0 {
		return p.jobs.reserve(1)
	}
	return reserveAhead(p.jobs, &w.slot, &w.slotEnd, 1)
}

// reserveEdges reserves k consecutive edge slots on behalf of w (nil for a
// guest), the driver of parts[0] from those it reserved ahead, [w.edge,
// w.edgeEnd). Nothing counts edges but the arena, so a range's rest may
// be dropped (see reserveAhead). Any goroutine; only the driver of
// parts[0] touches its range.
func (p *Pool) reserveEdges(w *participant, k int) (uint32, bool) {
	if w == nil || w.id != 0 {
		return p.edges.reserve(k)
	}
	return reserveAhead(p.edges, &w.edge, &w.edgeEnd, k)
}

// reserveAhead takes k consecutive slots from [*next, *end), first
// reserving at least ownerSlots more from a when fewer than k are left,
// and only k when a is within 2·ownerSlots of its limit or refuses more
// (others took the room meanwhile). New slots right after the range extend
// it; otherwise (another goroutine reserved in between) the range's rest
// is dropped. Executed only by the driver of parts[0], the one user of
// next and end.
func reserveAhead[T any](a *arena[T], next, end *uint32, k int) (uint32, bool) {
	if int(*end-*next) < k {
		n := max(k, ownerSlots)
		if a.limit-a.used() < 2*int64(n) { // near the limit: no more than needed
			n = k
		}
		first, ok := a.reserve(n)
		if !ok && n > k {
			n = k
			first, ok = a.reserve(k)
		}
		if !ok {
			return 0, false
		}
		if first != *end {
			*next = first
		}
		*end = first + uint32(n)
	}
	*next += uint32(k)
	return *next - uint32(k), true
}

// depend adds a successor edge (from e0 on) on each dependency, and takes
// over the cause of any that already ended without success. It returns
// how many had ended: their holds, taken by alloc, are the caller's to
// release with the builder's. Any goroutine, while it still holds r's
// builder hold: no edge can release r before depend returns.
func (p *Pool) depend(w *participant, idx uint32, r *record, e0 uint32, deps []Handle) (ended int32) {
	for i, d := range deps {
		dr := p.jobs.at(d.idx)
		if !p.addEdge(dr, e0+uint32(i), idx) {
			ended++
			p.blockBy(r, dr, d.idx)
			if w != nil && p.tracing.Load() { // the edge is in the graph even though it held nothing back
				w.record(Event{Kind: KindEdge, Worker: w.id, Job: p.handle(idx), From: d, Start: p.now()})
			}
		}
	}
	return ended
}

// addEdge links job to as a successor of d through edge ei and reports
// false if d had already ended: then the edge joins d's list all the same
// (Observed walks it) but holds nothing. Any goroutine, holding to's
// builder hold and its hold for this edge (see alloc). The CAS orders the
// edge against finish's Add on d.link: an edge in the list before the
// outcome is released by the finisher.
func (p *Pool) addEdge(d *record, ei, to uint32) bool {
	e := p.edges.at(ei)
	e.to = to
	for {
		link := d.link.Load()
		e.next = uint32(link >> 32)
		if d.link.CompareAndSwap(link, uint64(ei+1)<<32|link&(1<<32-1)) { // publishes e
			return !outcomeOf(link).Done()
		}
	}
}

// parallelFor builds a join and one root range job over all chunks; range
// jobs split as they run (see runChunks). Any goroutine, on behalf of w
// (nil for a guest); the join's hold for the root range job is taken
// before that job can run.
func (p *Pool) parallelFor(w *participant, j Job, n, batch int, deps []Handle) (Handle, error) {
	if n < 0 || batch < 1 || j.Run == nil || j.Pipe != nil {
		return Handle{}, errorf(ErrBadArgument, j.Label, "ParallelFor(n=%d, batch=%d) needs n >= 0, batch >= 1, a Run func and no Pipe", n, batch)
	}
	chunks := (n + batch - 1) / batch
	if chunks == 0 {
		return p.schedule(w, Job{Label: j.Label, Priority: j.Priority}, deps)
	}
	if chunks > 1<<31-1 {
		return Handle{}, errorf(ErrBadArgument, j.Label, "ParallelFor(n=%d, batch=%d) has too many chunks; raise batch", n, batch)
	}
	if err := p.validate(&j, deps); err != nil {
		return Handle{}, err
	}
	ji, jr, _, err := p.alloc(w, &Job{Label: Label{Name: j.Label.Name, Chunk: -1}, Lo: n, Hi: batch, Priority: j.Priority}, 0)
	if err != nil {
		return Handle{}, err
	}
	jr.holds.Add(1) // the root range job's hold
	j.Label.Chunk = 0
	ri, rr, e0, err := p.alloc(w, &j, len(deps))
	if err != nil {
		jr.link.Or(cancelBit)
		jr.holds.Add(-1)
		p.releaseHold(w, ji) // the join finishes Cancelled
		return Handle{}, err
	}
	rr.parent, rr.chunkEnd = ji+1, int32(chunks)
	jr.root = ri + 1 // before the handle is returned: Cancel reads it plainly
	p.releaseHolds(w, ri, 1+p.depend(w, ri, rr, e0, deps))
	p.releaseHold(w, ji)
	return p.handle(ji), nil
}

// ready hands a job whose last hold was released to its pipe or a queue.
// Called by whoever released that hold, on behalf of w (nil for a guest):
// the caller owns the job's readiness, so it is readied exactly once.
func (p *Pool) ready(w *participant, idx uint32, r *record) {
	if r.job.Pipe != nil {
		r.job.Pipe.ready(p, w, idx)
		return
	}
	p.push(w, idx, r.job.Priority)
}

// releaseHold drops one hold of job idx and readies it at zero. Any
// goroutine, on behalf of w (nil for a guest).
func (p *Pool) releaseHold(w *participant, idx uint32) { p.releaseHolds(w, idx, 1) }

// releaseHolds drops n holds of job idx and readies it at zero. Any
// goroutine, on behalf of w (nil for a guest); the atomic decrement makes
// exactly one caller see zero, and orders the releasers' writes (a blocked
// cause, the prerequisite's outcome) before the job runs.
func (p *Pool) releaseHolds(w *participant, idx uint32, n int32) {
	r := p.jobs.at(idx)
	if r.holds.Add(-n) == 0 {
		p.ready(w, idx, r)
	}
}

// push makes a ready job available: on w's deque, or through the injection
// queue for guests and on overflow; then wakes a sleeper if nobody is
// spinning. The owner's jobs that no thief may take go on its private
// stack instead, in the same order, waking nobody. Executed by w's
// goroutine (w may be nil for a guest).
func (p *Pool) push(w *participant, idx uint32, pr Priority) {
	if w != nil && p.private(w) {
		if !w.own[pr].push(idx) {
			p.inj.put(idx, pr)
		}
		return // nobody to wake for it
	}
	if w == nil || !w.dq[pr].push(idx) {
		p.inj.put(idx, pr)
	}
	p.wake(w)
}

// wake wakes a sleeper for jobs just pushed, only if there is one and
// nobody is already looking. Executed by w's goroutine (w may be nil for a
// guest), after the push: the loads are seq-cst, and a waiter prepares,
// and a spinner stops spinning, before rechecking the queues.
func (p *Pool) wake(w *participant) {
	if p.ec.waiters() != 0 && p.spinning.Load() == 0 {
		if p.ec.notify(false) && w != nil {
			w.wakes.Add(1)
		}
	}
}

// handle is the Handle of job idx in the current frame. Any goroutine; the
// epoch changes only in Reset, when no job is in flight.
func (p *Pool) handle(idx uint32) Handle { return Handle{pool: p.id, gen: p.epoch.Load(), idx: idx} }
