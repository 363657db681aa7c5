package engine

import (
	"slices"

	"github.com/weft-engine/weft/jobs"
	"github.com/weft-engine/weft/safety"
)

// maxChainChunks bounds the chunks of a pass that runs as one job per
// chunk for chaining: beyond it, the pass runs as a ParallelFor and is not
// chained, so that a huge pass cannot fill the pool's arena.
const maxChainChunks = 1024

// startPass schedules pass p as jobs after deps: chunk by chunk after the
// pass it chains onto where that pass ran grouped this step and both
// queries cut the same chunks; one job per chunk where a later pass may
// chain onto it; as a ParallelFor otherwise. grouped reports one job per
// chunk. Executed only by the owner, in the Schedule of p's system.
func (e *Engine) startPass(p *Pass, job jobs.Job, n, batch int, deps []jobs.Handle) (h jobs.Handle, grouped bool, err error) {
	en := p.sys
	switch src := p.chain; {
	case src != nil && !en.started && n <= maxChainChunks && src.sys.lastPass == src && src.sys.lastGrouped && p.q.glue.Aligned(src.q.glue):
		// Chunk k after the source's chunk k, and after the other
		// predecessors whole.
		e.scratch.chained = e.scratch.chained[:0]
		for _, d := range deps {
			if d != src.sys.done {
				e.scratch.chained = append(e.scratch.chained, d)
			}
		}
		h, err = e.run.tr.ChunksAfter(job, en.decl.Access(), n, src.sys.done, e.scratch.chained...)
		return h, true, err
	case p.group && n <= maxChainChunks:
		h, err = e.run.tr.ChunksAfter(job, en.decl.Access(), n, jobs.Handle{}, deps...)
		return h, true, err
	default:
		h, err = e.run.tr.ParallelForAfter(job, en.decl.Access(), n, batch, deps...)
		return h, false, err
	}
}

// chains finds the passes that may run chunk-wise after another: the first
// pass of a system B over a query, after the last pass of a predecessor A
// over a query, where A and B conflict, and only on components that both
// queries have as columns, so that chunk k of either touches only chunk
// k's rows. Order is about data (ARCHITECTURE (h)), so an explicit After
// is met row by row too. Whether the two queries cut the same chunks is
// checked each step.
func (e *Engine) chains() {
	var ca, cb, keys []safety.Key
	for _, b := range e.sched.par {
		if len(b.passes) == 0 || b.passes[0].q == nil {
			continue
		}
		first := b.passes[0]
		cb = first.q.glue.Columns(cb[:0])
		for _, pi := range b.preds {
			a := e.sched.par[pi]
			if a.seg != b.seg || len(a.passes) == 0 || e.waitsAnyway(b, a) {
				continue
			}
			last := a.passes[len(a.passes)-1]
			if last.q == nil {
				continue
			}
			ca = last.q.glue.Columns(ca[:0])
			keys = a.decl.Access().Conflicts(b.decl.Access(), keys[:0])
			rowWise := len(keys) > 0
			for _, k := range keys {
				rowWise = rowWise && slices.Contains(ca, k) && slices.Contains(cb, k)
			}
			if rowWise {
				first.chain, last.group = last, true
				break
			}
		}
	}
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
