package engine

import (
	"slices"

	"github.com/weft-engine/weft/internal/seam"
	"github.com/weft-engine/weft/jobs"
)

// maxChainChunks bounds the chunks of a pass that runs as one job per
// chunk for chaining: beyond it, the pass runs as a ParallelFor and is not
// chained, so that a huge pass cannot fill the pool's arena.
const maxChainChunks = 1024

// startPass schedules pass p as jobs after deps: as one job if it runs in
// order (ChunksInOrder); chunk by chunk after the
// pass it chains onto where that pass ran grouped this step and both
// queries cut the same chunks; one job per chunk where a later pass may
// chain onto it; as one job if its chunks hold at most a batch of rows
// (wholePass); as a ParallelFor otherwise. grouped reports one job per
// chunk. Executed only by the owner, in the Schedule of p's system.
func (e *Engine) startPass(p *Pass, job jobs.Job, n, batch int, deps []jobs.Handle) (h jobs.Handle, grouped bool, err error) {
	en := p.sys
	p.whole = false
	switch src := p.chain; {
	case p.inOrder:
		// One job over every chunk: n items in one range, which the pool
		// cannot split.
		h, err = e.run.tr.ParallelForAfter(job, &en.desc.Access, min(n, 1), 1, deps...)
		return h, false, err
	case src != nil && !en.started && n <= maxChainChunks && src.sys.lastPass == src && src.sys.lastGrouped && e.inside.Aligned(p.q.desc.ID, src.q.desc.ID):
		// Chunk k after the source's chunk k, and after the other
		// predecessors whole.
		e.scratch.chained = e.scratch.chained[:0]
		for _, d := range deps {
			if d != src.sys.done {
				e.scratch.chained = append(e.scratch.chained, d)
			}
		}
		h, err = e.run.tr.ChunksAfter(job, &en.desc.Access, n, src.sys.done, e.scratch.chained...)
		return h, true, err
	case p.group && n <= maxChainChunks:
		h, err = e.run.tr.ChunksAfter(job, &en.desc.Access, n, jobs.Handle{}, deps...)
		return h, true, err
	case e.wholePass(p, n):
		// Too few rows to share out: one job runs every chunk.
		job.Run, p.whole = p.all, true
		h, err = e.run.tr.ParallelForAfter(job, &en.desc.Access, 1, 1, deps...)
		return h, false, err
	default:
		h, err = e.run.tr.ParallelForAfter(job, &en.desc.Access, n, batch, deps...)
		return h, false, err
	}
}

// chains finds the passes that may run chunk-wise after another: the first
// pass of a system B over a query, after the last pass of a predecessor A
// over a query, where A and B conflict, and only on components that both
// queries have as columns, so that chunk k of either touches only chunk
// k's rows. Order is about data (docs/ARCHITECTURE.md, "Stages order
// data, not time"), so an explicit After is met row by row too. A component that either reaches through a lookup
// is reached in any row, so it never chains; nor does a pass that runs in
// order. Whether the two queries cut the same chunks is checked each step.
func (e *Engine) chains() {
	for _, b := range e.sched.par {
		if len(b.passes) == 0 || b.passes[0].q == nil || b.passes[0].inOrder {
			continue
		}
		first := b.passes[0]
		for _, pi := range b.preds {
			a := e.sched.par[pi]
			if a.seg != b.seg || len(a.passes) == 0 || len(eventKeys(a, b)) > 0 || e.waitsAnyway(b, a) {
				continue
			}
			last := a.passes[len(a.passes)-1]
			if last.q != nil && !last.inOrder && rowWise(last, first) {
				first.chain, last.group = last, true
				break
			}
		}
	}
}

// rowWise reports whether the systems of passes a and b conflict, and only
// on components that both passes' queries have as columns and neither
// system reaches through a lookup. Executed only by the owner, in Build.
func rowWise(a, b *Pass) bool {
	ca, cb := a.q.desc.Columns, b.q.desc.Columns
	look := reached(b.sys, seam.AnyRow, reached(a.sys, seam.AnyRow, nil))
	keys := a.sys.desc.Access.Conflicts(&b.sys.desc.Access, nil)
	for _, k := range keys {
		if !slices.Contains(ca, k) || !slices.Contains(cb, k) || slices.Contains(look, k) {
			return false
		}
	}
	return len(keys) > 0
}

// waitsAnyway reports whether another predecessor of b comes after all of
// a, so that b waits for the whole of a anyway and chaining would only
// cost jobs.
func (e *Engine) waitsAnyway(b, a *entry) bool {
	seen := make([]bool, len(e.sched.par))
	stack := []int{}
	for _, pi := range b.preds {
		if e.sched.par[pi] != a {
			stack = append(stack, pi)
		}
	}
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if e.sched.par[i] == a {
			return true
		}
		if seen[i] {
			continue
		}
		seen[i] = true
		stack = append(stack, e.sched.par[i].preds...)
	}
	return false
}
