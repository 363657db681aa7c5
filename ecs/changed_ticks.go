package ecs

import "sync/atomic"

// ticks are the versions of one component in one table for one filter
// kind (changed or added), on two levels: the tick of the last mark of
// each block of blockRows rows, and of each group of groupBlocks blocks,
// the newest of its blocks. A filtered Prepare skips a group that its
// query has seen with one comparison, so a pass over a table where little
// changed reads a version per 4,096 rows, not per 64.
type ticks struct {
	blocks []uint64 // by block, written atomically by jobs
	groups []uint64 // by group: max of its blocks, written atomically by jobs
}

// groupShift makes a group of groupBlocks blocks, a shift of a block.
const (
	groupShift  = 6
	groupBlocks = 1 << groupShift
)

func groups(blocks int) int { return (blocks + groupBlocks - 1) >> groupShift }

// fit sizes t to the table's blocks, raising each block to the tick at
// which it last moved (moved, by block), and recomputes the groups.
// Executed only by the owner, in Prepare, while no job marks t.
func (t *ticks) fit(moved []uint64) {
	t.blocks = t.blocks[:min(len(t.blocks), len(moved))]
	for len(t.blocks) < len(moved) {
		t.blocks = append(t.blocks, 0)
	}
	t.groups = t.groups[:0]
	for b, m := range moved {
		t.blocks[b] = max(t.blocks[b], m)
		if b&(groupBlocks-1) == 0 {
			t.groups = append(t.groups, 0)
		}
		g := &t.groups[b>>groupShift]
		*g = max(*g, t.blocks[b])
	}
}

// mark records a write of rows [lo, hi) at tick. Executed by the job that
// owns the rows; jobs whose chunks share a block or a group may mark it at
// once, and chained passes with different ticks too: raise keeps the
// newest.
func (t *ticks) mark(lo, hi int, tick uint64) {
	last := blocks(hi)
	for b := lo >> blockShift; b < last; b++ {
		raise(&t.blocks[b], tick)
	}
	for g := lo >> (blockShift + groupShift); g < groups(last); g++ {
		raise(&t.groups[g], tick)
	}
}

// raise stores tick in *v unless *v is already as new. Any goroutine: the
// load first keeps the jobs that share a group from fighting over its
// cache line when it is already marked.
func raise(v *uint64, tick uint64) {
	for {
		old := atomic.LoadUint64(v)
		if old >= tick || atomic.CompareAndSwapUint64(v, old, tick) {
			return
		}
	}
}
