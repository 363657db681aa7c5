package jobs

import (
	"cmp"
	"slices"
)

// Graph is a frame's job graph rebuilt from its trace: one node per job
// with its measured time, and the dependency edges between them. A
// ParallelFor range job is one node per chunk: its chunks depend on the
// range job's prerequisites and not on each other, so the analysis can
// spread them over more participants than the recorded run had (a serial
// trace runs a whole ParallelFor as one range job). It answers where the
// frame's time went: work, span, the critical path, parallelism, and the
// frame time a pool of another size would likely take. Waits inside jobs
// (fork-join) are not edges: a waiting job's time includes its wait.
//
// Edges join jobs, not nodes: every node of a job has the job's
// prerequisites, and a prerequisite job counts whole. So the graph keeps
// them per job, and a pass of 50 chunks after a pass of 50 chunks costs 50
// entries, not 2,500 node pairs: the engine analyses every step on the
// owner, where this time is serial.
//
// A Graph reuses its buffers: Build after warm-up allocates nothing.
type Graph struct {
	Nodes []Node

	index jobIndex // a job's index in jobs
	jobs  []jobNodes
	edges [][2]int32 // (to, from) jobs, sorted, without duplicates
	jpred []int32    // job j's prerequisite jobs are jpred[jobs[j].jpLo:jobs[j].jpHi]
	preds []int32    // the nodes of those jobs: Nodes[i]'s prerequisites are preds[Nodes[i].predLo:Nodes[i].predHi]
	succ  []int32    // job j's dependent jobs are succ[jobs[j].sLo:jobs[j].sHi]
	order []int32    // nodes in topological order
	scratch
}

// Node is one job of a Graph, or one chunk of a ParallelFor range job.
type Node struct {
	Job        Handle
	Label      Label // the slice's label (for a chunk, its index)
	Worker     int
	Start, End int64
	Cost       int64 // the slice's duration: the job's (or chunk's) own running time

	predLo, predHi int32
	job            int32 // its index in jobs
	finish         int64 // scratch: longest path ending here
	from           int32 // scratch: the critical predecessor, -1 if none
}

// jobNodes are a job's nodes, Nodes[lo:lo+n], one per traced slice, and
// its edges.
type jobNodes struct {
	lo, n      int32
	jpLo, jpHi int32 // its prerequisite jobs in jpred
	sLo, sHi   int32 // its dependent jobs in succ

	pending int32 // scratch: prerequisite jobs not yet finished
	next    int32 // scratch: its next node to place
	ready   int64 // scratch: when its prerequisites finish
	done    int64 // scratch: the latest finish of its nodes placed so far
}

type scratch struct {
	ready []int32
	free  []int64
}

// Build replaces g's contents with the graph of events (as ReadTrace
// returns them, in start order). Edges to or from jobs without a slice in
// events are dropped.
func (g *Graph) Build(events []Event) {
	g.nodes(events)
	g.gatherEdges(events)
	g.gatherPreds()
	g.gatherSuccs()
	g.topoSort()
}

// gatherEdges collects the edges of events as (to, from) job pairs, sorted
// and without duplicates.
func (g *Graph) gatherEdges(events []Event) {
	g.edges = g.edges[:0]
	for _, e := range events {
		if e.Kind != KindEdge {
			continue
		}
		from, ok1 := g.index.get(e.From)
		to, ok2 := g.index.get(e.Job)
		if ok1 && ok2 && from != to { // every slice of from before every slice of to
			g.edges = append(g.edges, [2]int32{to, from})
		}
	}
	slices.SortFunc(g.edges, func(a, b [2]int32) int { return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1])) })
	g.edges = slices.Compact(g.edges)
}

// gatherPreds fills each job's prerequisite jobs from the sorted edges,
// and its nodes' prerequisite nodes.
func (g *Graph) gatherPreds() {
	g.jpred, g.preds = g.jpred[:0], g.preds[:0]
	k := 0
	for j := range g.jobs {
		jb := &g.jobs[j]
		jb.jpLo = int32(len(g.jpred))
		for ; k < len(g.edges) && g.edges[k][0] == int32(j); k++ {
			g.jpred = append(g.jpred, g.edges[k][1])
		}
		jb.jpHi = int32(len(g.jpred)) // the edges are sorted and compact
		lo := int32(len(g.preds))
		for _, p := range g.jpred[jb.jpLo:jb.jpHi] { // jobs in index order: their nodes come sorted
			for i := g.jobs[p].lo; i < g.jobs[p].lo+g.jobs[p].n; i++ {
				g.preds = append(g.preds, i)
			}
		}
		for i := jb.lo; i < jb.lo+jb.n; i++ {
			g.Nodes[i].predLo, g.Nodes[i].predHi = lo, int32(len(g.preds))
		}
	}
}

// gatherSuccs inverts the prerequisite jobs into each job's dependents.
func (g *Graph) gatherSuccs() {
	for j := range g.jobs {
		g.jobs[j].sHi = 0
	}
	for _, p := range g.jpred {
		g.jobs[p].sHi++
	}
	at := int32(0)
	for j := range g.jobs {
		jb := &g.jobs[j]
		jb.sLo, at, jb.sHi = at, at+jb.sHi, at
	}
	g.succ = slices.Grow(g.succ[:0], int(at))[:at]
	for j := range g.jobs {
		for _, p := range g.jpred[g.jobs[j].jpLo:g.jobs[j].jpHi] {
			g.succ[g.jobs[p].sHi] = int32(j)
			g.jobs[p].sHi++
		}
	}
}

// nodes makes a node per traced slice, each job's nodes together, jobs in
// the order of their first slice (or split). A range job split off
// another is the same job for the analysis: its handle maps to its
// parent's entry, so its chunks get the parent's prerequisites and its
// edge to their join is the parent's. A split's event comes before the
// child's slices: the child is recorded when split, before it can run.
func (g *Graph) nodes(events []Event) {
	g.index.reset()
	g.jobs = g.jobs[:0]
	for _, e := range events {
		switch e.Kind {
		case KindJob:
			g.jobs[g.jobOf(e.Job)].n++
		case KindSplit:
			g.index.put(e.Job, g.jobOf(e.From))
		}
	}
	total := int32(0)
	for j := range g.jobs {
		g.jobs[j].lo, total, g.jobs[j].n = total, total+g.jobs[j].n, 0
	}
	g.Nodes = slices.Grow(g.Nodes[:0], int(total))[:total]
	for _, e := range events {
		if e.Kind != KindJob {
			continue
		}
		j, _ := g.index.get(e.Job)
		jb := &g.jobs[j]
		g.Nodes[jb.lo+jb.n] = Node{Job: e.Job, Label: e.Label, Worker: e.Worker, Start: e.Start, End: e.End, Cost: e.End - e.Start, job: j}
		jb.n++
	}
}

// jobIndex maps a job's handle to its index in jobs. The handles of one
// frame share a pool and a generation, and their indices are arena slots
// from 0 (with gaps where the owner reserved slots it did not use), so
// those of the first frame put go in a slice; the handles of any other
// frame (a trace of several frames) go in a map. The engine's traces hold
// one frame each: Build then does an array access per event where a map
// lookup hashed the handle, most of Build's time.
type jobIndex struct {
	frame Handle  // the pool and generation dense serves; pool 0 before the first put
	dense []int32 // by Handle.idx: index in jobs + 1, 0 for none
	other map[Handle]int32
}

func (x *jobIndex) reset() {
	clear(x.dense)
	clear(x.other)
	x.frame = Handle{}
}

func (x *jobIndex) inFrame(h Handle) bool {
	return h.pool != 0 && h.pool == x.frame.pool && h.gen == x.frame.gen
}

func (x *jobIndex) get(h Handle) (int32, bool) {
	if x.inFrame(h) {
		if int(h.idx) < len(x.dense) && x.dense[h.idx] != 0 {
			return x.dense[h.idx] - 1, true
		}
		return 0, false
	}
	j, ok := x.other[h]
	return j, ok
}

func (x *jobIndex) put(h Handle, j int32) {
	if x.frame.pool == 0 {
		x.frame = h
	}
	if !x.inFrame(h) {
		if x.other == nil {
			x.other = make(map[Handle]int32)
		}
		x.other[h] = j
		return
	}
	if n := int(h.idx) + 1; n > len(x.dense) {
		x.dense = append(x.dense, make([]int32, n-len(x.dense))...)
	}
	x.dense[h.idx] = j + 1
}

// jobOf is the index in jobs of the job with handle h, made if it has
// none yet.
func (g *Graph) jobOf(h Handle) int32 {
	j, ok := g.index.get(h)
	if !ok {
		j = int32(len(g.jobs))
		g.index.put(h, j)
		g.jobs = append(g.jobs, jobNodes{})
	}
	return j
}

// Preds returns node i's prerequisites (indices into Nodes).
func (g *Graph) Preds(i int) []int32 { return g.preds[g.Nodes[i].predLo:g.Nodes[i].predHi] }

// topoSort orders the nodes so that prerequisites come first (Kahn's
// algorithm over the jobs, ties by start time, which is the jobs' order;
// a job's nodes together).
func (g *Graph) topoSort() {
	g.ready = g.ready[:0] // the jobs in order
	for j := range g.jobs {
		jb := &g.jobs[j]
		if jb.pending = jb.jpHi - jb.jpLo; jb.pending == 0 {
			g.ready = append(g.ready, int32(j))
		}
	}
	for h := 0; h < len(g.ready); h++ {
		jb := &g.jobs[g.ready[h]]
		for _, s := range g.succ[jb.sLo:jb.sHi] {
			if g.jobs[s].pending--; g.jobs[s].pending == 0 {
				g.ready = append(g.ready, s)
			}
		}
	}
	g.order = g.order[:0]
	for _, j := range g.ready {
		for i := g.jobs[j].lo; i < g.jobs[j].lo+g.jobs[j].n; i++ {
			g.order = append(g.order, i)
		}
	}
}

// Work is the summed running time of every job.
func (g *Graph) Work() int64 {
	var w int64
	for _, n := range g.Nodes {
		w += n.Cost
	}
	return w
}

// CriticalPath appends to dst the nodes of the longest chain of dependent
// jobs, by running time, first job first, and returns it with its length
// (the span). Parallelism is Work / span.
func (g *Graph) CriticalPath(dst []int32) ([]int32, int64) {
	best := int32(-1)
	for _, u := range g.order {
		n := &g.Nodes[u]
		n.finish, n.from = n.Cost, -1
		if u > 0 && g.Nodes[u-1].job == n.job { // a job's nodes share their prerequisites
			prev := &g.Nodes[u-1]
			n.finish, n.from = prev.finish-prev.Cost+n.Cost, prev.from
		} else {
			for _, p := range g.Preds(int(u)) {
				if f := g.Nodes[p].finish + n.Cost; f > n.finish {
					n.finish, n.from = f, p
				}
			}
		}
		if best < 0 || n.finish > g.Nodes[best].finish {
			best = u
		}
	}
	if best < 0 {
		return dst, 0
	}
	span := g.Nodes[best].finish
	start := len(dst)
	for u := best; u >= 0; u = g.Nodes[u].from {
		dst = append(dst, u)
	}
	slices.Reverse(dst[start:])
	return dst, span
}

// Predict is the frame time that greedy list scheduling of the recorded
// graph on the given number of participants gives: jobs are taken in the
// order they become ready (ties by start order), each by the participant
// that frees up first. Job times are the measured ones; scheduling overhead
// and memory effects are not modelled. O(n log n). One participant never
// waits: its frame time is the work.
//
// The ready heap holds jobs, not nodes: a job's nodes become ready
// together and are numbered in a row, so once its next node is the first
// ready one, its following nodes are too, until it has none left.
func (g *Graph) Predict(participants int) int64 {
	if participants <= 1 {
		return g.Work()
	}
	g.ready = g.ready[:0]
	for j := range g.jobs {
		jb := &g.jobs[j]
		jb.pending, jb.next, jb.ready, jb.done = jb.jpHi-jb.jpLo, jb.lo, 0, 0
		if jb.pending == 0 {
			g.pushReady(int32(j))
		}
	}
	g.free = slices.Grow(g.free[:0], participants)[:participants]
	clear(g.free) // a min-heap of the times participants free up
	var makespan int64
	for len(g.ready) > 0 {
		jb := &g.jobs[g.ready[0]]
		nd := &g.Nodes[jb.next]
		if jb.next++; jb.next == jb.lo+jb.n {
			g.popReady()
		}
		finish := max(jb.ready, g.free[0]) + nd.Cost
		g.free[0] = finish
		siftFree(g.free)
		makespan, jb.done = max(makespan, finish), max(jb.done, finish)
		if jb.next < jb.lo+jb.n { // its other nodes are still to be placed
			continue
		}
		for _, s := range g.succ[jb.sLo:jb.sHi] { // the job is done: its dependents may be ready
			d := &g.jobs[s]
			d.ready = max(d.ready, jb.done)
			if d.pending--; d.pending == 0 {
				g.pushReady(s)
			}
		}
	}
	return makespan
}

// The ready heap of Predict: jobs by the time their prerequisites finish,
// ties by their first node (start order). Plain methods rather than a
// generic heap with a less func: Predict runs four times on the owner
// after every step, and the indirect calls were a third of its time.

// readyBefore reports whether job a leaves the ready heap before job b.
func (g *Graph) readyBefore(a, b int32) bool {
	ja, jb := &g.jobs[a], &g.jobs[b]
	return ja.ready < jb.ready || ja.ready == jb.ready && ja.next < jb.next
}

func (g *Graph) pushReady(j int32) {
	h := append(g.ready, j)
	for i := len(h) - 1; i > 0; {
		parent := (i - 1) / 2
		if !g.readyBefore(h[i], h[parent]) {
			break
		}
		h[i], h[parent] = h[parent], h[i]
		i = parent
	}
	g.ready = h
}

func (g *Graph) popReady() {
	h := g.ready
	last := len(h) - 1
	h[0] = h[last]
	h = h[:last]
	for i := 0; ; {
		l, r, m := 2*i+1, 2*i+2, i
		if l < len(h) && g.readyBefore(h[l], h[m]) {
			m = l
		}
		if r < len(h) && g.readyBefore(h[r], h[m]) {
			m = r
		}
		if m == i {
			break
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
	g.ready = h
}

// siftFree restores the min-heap h of participants' free times after h[0]
// grew.
func siftFree(h []int64) {
	for i := 0; ; {
		l, r, m := 2*i+1, 2*i+2, i
		if l < len(h) && h[l] < h[m] {
			m = l
		}
		if r < len(h) && h[r] < h[m] {
			m = r
		}
		if m == i {
			return
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}
