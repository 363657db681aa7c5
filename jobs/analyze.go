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
// A Graph reuses its buffers: Build after warm-up allocates nothing.
type Graph struct {
	Nodes []Node

	index map[Handle]int32 // a job's index in jobs
	jobs  []jobNodes
	preds []int32    // node i's prerequisites are preds[Nodes[i].predLo:Nodes[i].predHi]
	edges [][2]int32 // (to, from) while Build gathers preds, then (from, to) sorted, for succs
	order []int32    // topological order
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
	finish         int64 // scratch: longest path ending here, or simulated finish
	readyAt        int64 // scratch: simulated time its prerequisites are done
	from           int32 // scratch: the critical predecessor, -1 if none
}

// jobNodes are a job's nodes, Nodes[lo:lo+n], one per traced slice.
type jobNodes struct {
	lo, n int32
	split int32 // the range job (index in jobs) it was split off, -1 if none
}

type scratch struct {
	pending []int32
	ready   []int32
	free    []int64
	succBuf []int32
}

// Build replaces g's contents with the graph of events (as ReadTrace
// returns them, in start order). Edges to or from jobs without a slice in
// events are dropped.
func (g *Graph) Build(events []Event) {
	g.nodes(events)
	g.gatherEdges(events)
	g.gatherPreds()
	g.topoSort()
}

// gatherEdges collects the edges of events as (to, from) node pairs, sorted
// and without duplicates, and notes which job each split came from.
func (g *Graph) gatherEdges(events []Event) {
	g.edges = g.edges[:0]
	for _, e := range events {
		from, ok1 := g.index[e.From]
		to, ok2 := g.index[e.Job]
		if !ok1 || !ok2 {
			continue
		}
		switch e.Kind {
		case KindEdge: // every slice of from before every slice of to
			f, t := g.jobs[from], g.jobs[to]
			for ti := t.lo; ti < t.lo+t.n; ti++ {
				for fi := f.lo; fi < f.lo+f.n; fi++ {
					g.edges = append(g.edges, [2]int32{ti, fi})
				}
			}
		case KindSplit:
			g.jobs[to].split = from
		}
	}
	slices.SortFunc(g.edges, func(a, b [2]int32) int { return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1])) })
	g.edges = slices.Compact(g.edges)
}

// gatherPreds fills each node's prerequisites from the sorted edges. A
// split-off range job could not start before its parent's prerequisites
// finished: it inherits them (and they become edges too). Its parent ran
// first, so it comes earlier in start order and its preds (inherited ones
// included, for a split of a split) are complete.
func (g *Graph) gatherPreds() {
	g.preds = g.preds[:0]
	k, sorted := 0, len(g.edges)
	for j, jb := range g.jobs {
		var inherit []int32
		if s := jb.split; s >= 0 && s < int32(j) {
			inherit = g.Preds(int(g.jobs[s].lo))
		}
		for i := jb.lo; i < jb.lo+jb.n; i++ {
			n := &g.Nodes[i]
			n.predLo = int32(len(g.preds))
			for ; k < sorted && g.edges[k][0] == i; k++ {
				g.preds = append(g.preds, g.edges[k][1])
			}
			for _, d := range inherit {
				g.preds = append(g.preds, d)
				g.edges = append(g.edges, [2]int32{i, d})
			}
			n.predHi = int32(len(g.preds))
		}
	}
}

// nodes makes a node per traced slice, each job's nodes together, jobs in
// the order of their first slice.
func (g *Graph) nodes(events []Event) {
	if g.index == nil {
		g.index = make(map[Handle]int32)
	}
	clear(g.index)
	g.jobs = g.jobs[:0]
	for _, e := range events {
		if e.Kind != KindJob {
			continue
		}
		if j, ok := g.index[e.Job]; ok {
			g.jobs[j].n++
			continue
		}
		g.index[e.Job] = int32(len(g.jobs))
		g.jobs = append(g.jobs, jobNodes{n: 1, split: -1})
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
		jb := &g.jobs[g.index[e.Job]]
		g.Nodes[jb.lo+jb.n] = Node{Job: e.Job, Label: e.Label, Worker: e.Worker, Start: e.Start, End: e.End, Cost: e.End - e.Start}
		jb.n++
	}
}

// Preds returns node i's prerequisites (indices into Nodes).
func (g *Graph) Preds(i int) []int32 { return g.preds[g.Nodes[i].predLo:g.Nodes[i].predHi] }

// topoSort orders the nodes so that prerequisites come first (Kahn's
// algorithm, ties by start time, which is the nodes' order).
func (g *Graph) topoSort() {
	n := len(g.Nodes)
	g.pending = slices.Grow(g.pending[:0], n)[:n]
	clear(g.pending)
	for i, e := range g.edges { // (to, from) becomes (from, to), for succs
		g.edges[i] = [2]int32{e[1], e[0]}
		g.pending[e[0]]++
	}
	slices.SortFunc(g.edges, func(a, b [2]int32) int { return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1])) })
	g.order = g.order[:0]
	for i := range n {
		if g.pending[i] == 0 {
			g.order = append(g.order, int32(i))
		}
	}
	for h := 0; h < len(g.order); h++ {
		for _, v := range g.succs(g.order[h]) {
			if g.pending[v]--; g.pending[v] == 0 {
				g.order = append(g.order, v)
			}
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
		for _, p := range g.Preds(int(u)) {
			if f := g.Nodes[p].finish + n.Cost; f > n.finish {
				n.finish, n.from = f, p
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
// and memory effects are not modelled. O(n log n).
func (g *Graph) Predict(participants int) int64 {
	n := len(g.Nodes)
	g.pending = slices.Grow(g.pending[:0], n)[:n]
	g.ready = g.ready[:0]
	byReady := func(a, b int32) bool {
		na, nb := &g.Nodes[a], &g.Nodes[b]
		return na.readyAt < nb.readyAt || na.readyAt == nb.readyAt && a < b
	}
	for i := range g.Nodes {
		nd := &g.Nodes[i]
		nd.readyAt = 0
		g.pending[i] = nd.predHi - nd.predLo
		if g.pending[i] == 0 {
			g.ready = heapPush(g.ready, int32(i), byReady)
		}
	}
	g.free = slices.Grow(g.free[:0], max(participants, 1))[:max(participants, 1)]
	clear(g.free) // a min-heap of the times participants free up
	var makespan int64
	for len(g.ready) > 0 {
		var u int32
		g.ready, u = heapPop(g.ready, byReady)
		nd := &g.Nodes[u]
		begin := max(nd.readyAt, g.free[0])
		nd.finish = begin + nd.Cost
		g.free[0] = nd.finish
		heapFix(g.free, 0, func(a, b int64) bool { return a < b })
		makespan = max(makespan, nd.finish)
		for _, v := range g.succs(u) {
			g.Nodes[v].readyAt = max(g.Nodes[v].readyAt, nd.finish)
			if g.pending[v]--; g.pending[v] == 0 {
				g.ready = heapPush(g.ready, v, byReady)
			}
		}
	}
	return makespan
}

// succs returns node u's successors (topoSort left the edges as sorted
// (from, to) pairs).
func (g *Graph) succs(u int32) []int32 {
	lo, _ := slices.BinarySearchFunc(g.edges, u, func(e [2]int32, t int32) int { return cmp.Compare(e[0], t) })
	hi := lo
	for hi < len(g.edges) && g.edges[hi][0] == u {
		hi++
	}
	g.succBuf = g.succBuf[:0]
	for _, e := range g.edges[lo:hi] {
		g.succBuf = append(g.succBuf, e[1])
	}
	return g.succBuf
}

// A binary min-heap over a slice, ordered by less.
func heapPush[T any](h []T, x T, less func(a, b T) bool) []T {
	h = append(h, x)
	for i := len(h) - 1; i > 0; {
		parent := (i - 1) / 2
		if !less(h[i], h[parent]) {
			break
		}
		h[i], h[parent] = h[parent], h[i]
		i = parent
	}
	return h
}

func heapPop[T any](h []T, less func(a, b T) bool) ([]T, T) {
	top := h[0]
	last := len(h) - 1
	h[0] = h[last]
	h = h[:last]
	if len(h) > 0 {
		heapFix(h, 0, less)
	}
	return h, top
}

// heapFix restores the heap after h[i] grew.
func heapFix[T any](h []T, i int, less func(a, b T) bool) {
	for {
		l, r, m := 2*i+1, 2*i+2, i
		if l < len(h) && less(h[l], h[m]) {
			m = l
		}
		if r < len(h) && less(h[r], h[m]) {
			m = r
		}
		if m == i {
			return
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}
