package ecs

import (
	"bytes"
	"unsafe"

	ark "github.com/mlange-42/ark/ecs"
	"github.com/weft-engine/weft/safety"
)

// Change detection: the query filters Changed and Added keep only the
// chunks in which a row of a component was written, or came into its
// table, since the query last ran.
//
// Versions are kept per block of blockRows rows of a table, for each
// watched component: the tick of the last write (and per group of blocks,
// changed_ticks.go, so that unchanged rows are skipped in bulk). Blocks
// are fixed rows of the table, not chunks, so versions do not depend on
// the batch size. A tick is taken by each Prepare (the world's counter,
// on the owner, in built order), so "since the query last ran" is a
// comparison of ticks.
//
// Marking follows the data, not the chunks: a job's rows of each watched
// component that its query writes are kept as the job found them, and
// after the job every block whose bytes it changed is marked, at the
// query's tick. So a job may read through Writer.Column and write only
// some rows: it marks the blocks of the rows it changed, and a value
// written over with the same bytes is no change. What a filter then
// visits (whole blocks) is the same for every worker count and batch
// size. A structural change (an entity entering or leaving a table: spawn,
// despawn, add, remove, by commands or by Ark directly) is found at the
// next frame by the row record (rows.go): every block whose entities
// differ is marked added and changed for every watched component. A
// value that commands set (Add on an entity that has the component, Set)
// marks its component in the entity's whole table. Writes through Ark itself (exclusive systems, World.Ark) are not
// seen.

// blockRows is the rows per version block: a power of two, so that a block
// is a shift of a row.
const (
	blockShift = 6
	blockRows  = 1 << blockShift
)

// Filter kinds of change detection.
const (
	watchNone uint8 = iota
	watchChanged
	watchAdded
)

// Changed keeps the blocks of 64 rows in which a row of T was changed
// through a Writer[T] (its bytes differ after the job), set by commands,
// written through a write lookup (every row of its tables), or came into
// the table, since the query last ran. col is the system's own token of T (Reader or Writer): the
// declared read orders the query after every writer of T before it.
// Writes by the query's own system after its Prepare are not reported to
// it.
func Changed[T any](col Col[T]) Filter {
	return Filter{comp: ark.C[T](), with: true, watch: watchChanged, tok: col.token()}
}

// Added keeps the blocks of 64 rows in which an entity got T (spawned with it, or T
// added) since the query last ran; col is the system's own token of T.
func Added[T any](col Col[T]) Filter {
	return Filter{comp: ark.C[T](), with: true, watch: watchAdded, tok: col.token()}
}

// watch is a change filter of a query.
type watch struct {
	id    ark.ID
	key   safety.Key
	added bool
}

// tableVers are the versions of one table: change detection's state as
// a row follower (rows.go).
type tableVers struct {
	cols  [256]*colVers // by component ID index, for watched components
	moved []uint64      // by block: tick of the last structural change, for columns made later
}

// colVers are the versions of one component in one table.
type colVers struct {
	changed, added       ticks  // of the last mark, by block and group
	allChanged, allAdded uint64 // tick of the last mark of every row (commands)
}

// watchFilters records q's change filters; their tokens must be its
// system's. Executed only by the owner, at build time.
func (q *queryBase) watchFilters(filters []Filter) {
	for _, f := range filters {
		if f.watch == watchNone {
			continue
		}
		if !q.own(f.tok, "a change filter") {
			continue
		}
		q.watches = append(q.watches, watch{id: f.tok.id, key: f.tok.key, added: f.watch == watchAdded})
		q.w.watched[f.tok.id.Index()] = true
	}
}

// versFollower is change detection as a row follower: a table's
// versions are its state, made by the first Prepare that needs them.
type versFollower struct{ at int }

// of is rt's versions, nil if none were made.
func (f versFollower) of(rt *rowTable) *tableVers {
	tv, _ := rt.state[f.at].(*tableVers)
	return tv
}

// moved marks the blocks whose entities changed as moved at tick and
// sizes the columns' versions to the table. Executed only by the owner,
// in Prepare (rowFollower).
func (f versFollower) moved(rt *rowTable, blocks []int, tick uint64) {
	f.of(rt).mark(len(rt.ents), blocks, tick)
}

func (versFollower) entered(ark.Entity) {} // the comparison alone marks what came into a table

func (versFollower) restored() {} // the snapshot holds the versions

// versionsOf returns the versions of the table whose entities are ents
// (not empty), up to date (rows.go), made on first use with every block
// moved at tick; nil for a table that is not followed. Executed only by
// the owner, in Prepare.
func (w *World) versionsOf(ents []ark.Entity, tick uint64) *tableVers {
	rt := w.syncRows(ents, tick)
	if rt == nil {
		return nil
	}
	tv := w.vers.of(rt)
	if tv == nil {
		tv = &tableVers{}
		rt.state[w.vers.at] = tv
		tv.mark(len(rt.ents), nil, tick) // every block is new
	}
	return tv
}

// mark sizes the versions to a table of rows rows, new blocks moved at
// tick, marks blocks moved at tick, and fits the columns' versions.
func (tv *tableVers) mark(rows int, moved []int, tick uint64) {
	n := blocks(rows)
	for len(tv.moved) < n {
		tv.moved = append(tv.moved, tick)
	}
	tv.moved = tv.moved[:n]
	for _, b := range moved {
		tv.moved[b] = tick
	}
	for _, c := range tv.cols {
		if c != nil {
			c.changed.fit(tv.moved)
			c.added.fit(tv.moved)
		}
	}
}

func blocks(rows int) int { return (rows + blockRows - 1) >> blockShift }

// col returns the versions of component id, made on first use with every
// block at its moved tick. Executed only by the owner, in Prepare.
func (tv *tableVers) col(id ark.ID) *colVers {
	c := tv.cols[id.Index()]
	if c == nil {
		c = &colVers{}
		c.changed.fit(tv.moved)
		c.added.fit(tv.moved)
		tv.cols[id.Index()] = c
	}
	return c
}

// cut adds the chunks of table t, of rows rows: all of them for a query
// without change filters, else the runs of blocks that pass every filter,
// so that the rows a filtered pass visits do not depend on the batch
// size. A group of blocks that fails a filter is skipped whole. Executed
// only by the owner, in Prepare, after the jobs that write the watched
// components before q's system have finished (the engine waits for them).
func (q *queryBase) cut(t int, tv *tableVers, rows int) {
	if len(q.watches) == 0 || tv == nil {
		q.addChunks(t, 0, rows)
		return
	}
	for _, wt := range q.watches {
		c := tv.col(wt.id)
		vs, all := &c.changed, c.allChanged
		if wt.added {
			vs, all = &c.added, c.allAdded
		}
		if all > q.last {
			vs = nil // every block passes
		}
		q.scratch = append(q.scratch, vs)
	}
	n, run := blocks(rows), -1 // run: the first block of the run being kept
	for g := range groups(n) {
		lo, hi := g<<groupShift, min((g+1)<<groupShift, n)
		if !q.keeps(g, true) {
			run = q.endRun(t, run, lo, rows)
			continue
		}
		for b := lo; b < hi; b++ {
			switch {
			case !q.keeps(b, false):
				run = q.endRun(t, run, b, rows)
			case run < 0:
				run = b
			}
		}
	}
	q.endRun(t, run, n, rows)
	clear(q.scratch)
	q.scratch = q.scratch[:0]
}

// endRun adds the chunks of the run of kept blocks [run, b) of table t,
// if any (run >= 0), and returns -1: no run.
func (q *queryBase) endRun(t, run, b, rows int) int {
	if run >= 0 {
		q.addChunks(t, run<<blockShift, min(b<<blockShift, rows))
	}
	return -1
}

// keeps reports whether block b (group b if group) passes every change
// filter of q, whose versions for the table are in q.scratch (nil: every
// block passes). It reads them plainly: the jobs that write them have
// finished (cut).
func (q *queryBase) keeps(b int, group bool) bool {
	for _, vs := range q.scratch {
		if vs == nil {
			continue
		}
		v := vs.blocks
		if group {
			v = vs.groups
		}
		if v[b] <= q.last {
			return false
		}
	}
	return true
}

// markers are the versions that q's chunks of a table mark: those of its
// written columns that a change filter watches.
func (q *queryBase) markers(tv *tableVers) (vers [maxCols]*colVers) {
	if tv == nil {
		return vers
	}
	for i, c := range q.cols {
		if c.mode == safety.Write && q.w.watched[c.id.Index()] {
			vers[i] = tv.col(c.id)
		}
	}
	return vers
}

// sizeSaved makes room in q.saved for the rows of this frame's chunks of
// each watched component that q writes. Executed only by the owner, in
// Prepare.
func (q *queryBase) sizeSaved() {
	for i, c := range q.cols {
		if c.mode == safety.Write && q.w.watched[c.id.Index()] {
			if n := q.rows * int(c.size); cap(q.saved[i]) < n {
				q.saved[i] = make([]byte, n)
			}
		}
	}
}

// rowsOf are chunk c's rows of column i, as bytes; nil for an optional
// column its table lacks.
func (c *Chunk) rowsOf(i int) []byte {
	q := c.q
	base, size := q.tables[c.table].cols[i], q.cols[i].size
	if base == nil {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Add(base, uintptr(c.start)*size)), uintptr(c.end-c.start)*size)
}

// save keeps chunk c's rows of its watched written columns, as its job
// finds them, in q.saved. Executed only by the job that owns c, before fn.
func (q *queryBase) save(c *Chunk) {
	for i, v := range q.tables[c.table].vers {
		if v != nil {
			size := int(q.cols[i].size)
			copy(q.saved[i][c.at*size:], c.rowsOf(i))
		}
	}
}

// markChanged marks, at q's tick, the blocks of chunk c in which its job
// changed a watched written column: it compares each block's part of the
// chunk with what save kept. Jobs whose chunks share a block may mark it
// at once (mark raises). Executed only by the job that owns c, after fn.
func (q *queryBase) markChanged(c *Chunk) {
	for i, v := range q.tables[c.table].vers {
		if v == nil {
			continue
		}
		size := int(q.cols[i].size)
		now := c.rowsOf(i)
		if now == nil {
			continue
		}
		was := q.saved[i][c.at*size:]
		for lo := c.start; lo < c.end; {
			hi := min((lo>>blockShift+1)<<blockShift, c.end)
			a, b := (lo-c.start)*size, (hi-c.start)*size
			if !bytes.Equal(now[a:b], was[a:b]) {
				v.changed.mark(lo, hi, q.tick)
			}
			lo = hi
		}
	}
}

// touch marks component id of e's whole table after commands set its
// value (added: e got it). Executed only by the owner, in playback.
func (w *World) touch(e ark.Entity, id ark.ID, added bool) {
	if !w.watched[id.Index()] {
		return
	}
	tv := w.versOf(e)
	if tv == nil {
		return // not compared yet: its first comparison marks every block
	}
	w.ticks++
	c := tv.col(id)
	c.allChanged = w.ticks
	if added {
		c.allAdded = w.ticks
	}
}

// touchAll marks component id changed in every tracked table that has
// it, all rows. Executed only by the owner, in EndFrame.
func (w *World) touchAll(id ark.ID) {
	if !w.watched[id.Index()] {
		return
	}
	w.ticks++
	x := id.Index()
	for key, rt := range w.rows.tables {
		if tv := w.vers.of(rt); tv != nil && key[x>>6]&(1<<(x&63)) != 0 {
			tv.col(id).allChanged = w.ticks
		}
	}
}

// versOf is the versions of e's table, nil if none were made. Executed
// only by the owner.
func (w *World) versOf(e ark.Entity) *tableVers {
	if rt := w.rowsOf(e); rt != nil {
		return w.vers.of(rt)
	}
	return nil
}

// versions are the versions of the table of ents when q watches or marks
// a component, else nil. Executed only by the owner, in Prepare.
func (q *queryBase) versions(ents []ark.Entity) *tableVers {
	if len(q.watches) == 0 && !q.marks() && !q.switches() {
		return nil
	}
	return q.w.versionsOf(ents, q.tick)
}

// marks reports whether q writes a watched component.
func (q *queryBase) marks() bool {
	for _, c := range q.cols {
		if c.mode == safety.Write && q.w.watched[c.id.Index()] {
			return true
		}
	}
	return false
}
