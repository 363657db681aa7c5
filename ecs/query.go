package ecs

import (
	"reflect"
	"strings"
	"unsafe"

	ark "github.com/mlange-42/ark/ecs"
	"github.com/weft-engine/weft/jobs"
	"github.com/weft-engine/weft/safety"
)

// maxCols is the most columns of a query, optional ones included; it is
// also the highest query arity.
const maxCols = 8

// Filter is a query option: With and Without narrow the query to entities
// with or without a component, which gets no column and needs no
// declaration; Changed and Added (changed.go) to the rows where a declared
// component changed; Optional adds a column that tables may lack.
type Filter struct {
	comp  ark.Comp
	with  bool
	opt   bool  // Optional
	watch uint8 // Changed, Added (changed.go)
	tok   *use  // their token, or Optional's
}

// With keeps the entities that have T.
func With[T any]() Filter { return Filter{comp: ark.C[T](), with: true} }

// Without keeps the entities that do not have T.
func Without[T any]() Filter { return Filter{comp: ark.C[T]()} }

// Optional makes c a column that the query's tables may lack: the query
// matches the same entities as without it, and in a chunk of a table
// without T, c.Column(chunk) is nil. The token declares its read or write
// of T like any column's, so the safety checks see it wherever T is.
func Optional[T any](c Col[T]) Filter { return Filter{opt: true, tok: c.token()} }

// queryBase is the arity-independent part of a query: its columns, its
// chunks of the current frame and their command buffers.
type queryBase struct {
	w    *World
	d    *Decl
	seq  int    // its rank among d's queries, in command playback
	id   int    // its index in World.allQueries: the engine's name for it
	cols []*use // the required columns, then the optional ones
	nreq int
	// with and without: its filters' component types, which Inspect
	// matches an entity against besides the required columns.
	with, without []reflect.Type
	fill          func() // the generated part: walks the Ark query, calls addTable
	frame         uint64

	tables []tableView
	chunks []Chunk
	rows   int             // the rows of chunks
	lens   []int32         // the rows of each chunk, for the engine (seam_world.go)
	saved  [maxCols][]byte // watched written columns' rows as each chunk's job found them (changed.go)
	rowBuf []int           // the rows that On and Off give, by chunk (enable.go)
	runBuf []Run           // the runs that Runs gives, by chunk
	bufs   []*Commands     // by chunk index
	batch  int
	resets []func(n int) // the query's reductions, zeroed for n chunks by prepare

	watches    []watch  // change filters (changed.go)
	tick, last uint64   // this Prepare's tick, the last one's
	scratch    []*ticks // the filters' versions of the table being cut
}

type tableView struct {
	ents  []ark.Entity
	cols  [maxCols]unsafe.Pointer
	vers  [maxCols]*colVers // of watched written columns, to mark
	marks bool              // some vers is not nil
	tv    *tableVers        // the table's versions, when its jobs mark (changed.go, enable.go)
	bits  *tableBits        // the table's on/off bits by row, when the system reads or switches them (enable_rows.go)
}

// init checks the column tokens, which must be d's own: a query can only
// give views that its system declared. It adds the optional columns of
// filters and returns the components to filter with and without.
func (q *queryBase) init(d *Decl, filters []Filter, cols ...*use) (with, without []ark.Comp) {
	q.w, q.d, q.seq, q.nreq, q.id = d.w, d, d.nq, len(cols), len(d.w.allQueries)
	d.w.allQueries = append(d.w.allQueries, q)
	d.nq++
	for _, e := range d.emitters {
		e.queries(d.nq)
	}
	if d.w.inFrame {
		d.fail(d.w.lockedErr("building a query of system " + d.name))
	}
	if d.obs != nil {
		d.fail(errorf(ErrBadArgument, d.name, "", "a query built on observer %q: an observer is called with one entity and runs no chunk jobs; read that entity with ecs.ReadLookup, or query in a system", d.name))
	}
	for _, f := range filters {
		switch {
		case f.opt:
			cols = append(cols, f.tok)
		case f.with:
			with = append(with, f.comp)
		default:
			without = append(without, f.comp)
		}
	}
	if len(cols) > maxCols {
		d.fail(errorf(ErrBadArgument, d.name, "", "a query of system %q has %d columns, optional ones included; the most is %d: split it into two queries", d.name, len(cols), maxCols))
		cols = cols[:maxCols]
	}
	for _, c := range cols {
		q.own(c, "a column")
	}
	q.cols = cols
	for _, c := range with {
		q.with = append(q.with, c.Type())
	}
	for _, c := range without {
		q.without = append(q.without, c.Type())
	}
	return with, without
}

// own reports whether c is a token of q's system, for a query's column or
// filter (what); if not, it records why on the declaration, whose Err
// then fails the engine's Build and the query's Prepare. Executed only by
// the owner, at build time.
func (q *queryBase) own(c *use, what string) bool {
	d := q.d
	switch {
	case c == nil:
		d.fail(errorf(ErrBadArgument, d.name, "", "%s of a query of system %q was given the zero token, one that was never made; make it in Build with ecs.Read or ecs.Write of b.Decl() and pass that value", what, d.name))
	case c.d != d:
		d.fail(errorf(ErrUndeclared, d.name, c.typ,
			"%s of a query of system %q was given %s of system %q; %s", what, d.name, c.token(), c.d.name, strings.Replace(c.fix(d.name), "use that token", "pass that token", 1)))
	default:
		return true
	}
	return false
}

// prepare enumerates the query's tables into chunks of at most batch rows:
// in table order, then row order, so chunk indices depend only on the
// world's contents. Executed only by the owner, inside a frame.
func (q *queryBase) prepare(batch int) (int, error) {
	if !q.w.inFrame {
		return 0, errorf(ErrBadArgument, q.d.name, "", "Prepare of a query of system %q outside a frame; call World.BeginFrame first", q.d.name)
	}
	if batch < 1 {
		return 0, errorf(ErrBadArgument, q.d.name, "", "Prepare(batch=%d) of system %q: the batch size must be at least 1", batch, q.d.name)
	}
	if len(q.d.err) > 0 {
		return 0, errorf(ErrBadArgument, q.d.name, "", "Prepare of a query of system %q, whose declaration failed: %v", q.d.name, q.d.Err())
	}
	if q.frame == q.w.frame {
		return 0, errorf(ErrBadArgument, q.d.name, "", "a query of system %q was prepared twice in one frame; prepare it once and reuse its chunks", q.d.name)
	}
	q.frame = q.w.frame
	q.w.queries = append(q.w.queries, q)
	q.tables, q.chunks, q.batch, q.rows = q.tables[:0], q.chunks[:0], batch, 0
	if len(q.watches) > 0 {
		q.w.markLookupWrites() // the write lookups before it (settled on) have written
	}
	q.w.ticks++
	q.tick = q.w.ticks
	q.fill()
	q.sizeSaved()
	q.sizeRowBuf()
	for _, r := range q.resets {
		r(len(q.chunks))
	}
	q.last = q.tick
	for len(q.bufs) < len(q.chunks) {
		q.bufs = append(q.bufs, q.w.newCommands(q.d, q.seq, len(q.bufs)))
	}
	for _, e := range q.d.emitters {
		e.grow(q.seq, len(q.chunks))
	}
	return len(q.chunks), nil
}

// aligned reports whether q and p, prepared this frame, cut it into the
// same chunks: chunk by chunk, the same rows of the same tables. Two
// passes over aligned queries may then be chained chunk by chunk.
// Executed only by the owner.
func (q *queryBase) aligned(p *queryBase) bool {
	if q.frame != q.w.frame || p.w != q.w || p.frame != q.frame || len(p.chunks) != len(q.chunks) {
		return false
	}
	for i := range q.chunks {
		a, b := &q.chunks[i], &p.chunks[i]
		ta, tb := q.tables[a.table].ents, p.tables[b.table].ents
		if a.start != b.start || a.end != b.end || len(ta) != len(tb) || len(ta) > 0 && &ta[0] != &tb[0] {
			return false
		}
	}
	return true
}

// ChunkLen is the number of rows of chunk i of this frame, or 0 for an
// index out of range: for sizing per-chunk outputs. Executed only by the
// owner, after Prepare, until the next frame's Prepare.
func (q *queryBase) ChunkLen(i int) int {
	if i < 0 || i >= len(q.chunks) {
		return 0
	}
	return q.chunks[i].Len()
}

// addTable is called by fill for each non-empty table, with its required
// columns; it finds the optional ones (through the table's first entity,
// whose row is 0). Executed only by the owner, in prepare.
func (q *queryBase) addTable(ents []ark.Entity, cols [maxCols]unsafe.Pointer) {
	for k := q.nreq; k < len(q.cols); k++ {
		if id := q.cols[k].id; q.w.unsafe.HasUnchecked(ents[0], id) {
			cols[k] = q.w.unsafe.GetUnchecked(ents[0], id)
		}
	}
	tv := q.versions(ents)
	vers := q.markers(tv)
	if tv != nil {
		q.switched(tv)
	}
	q.tables = append(q.tables, tableView{ents: ents, cols: cols, vers: vers, marks: vers != [maxCols]*colVers{}, tv: tv, bits: q.rowBits(ents)})
	q.cut(len(q.tables)-1, tv, len(ents))
}

// addChunks cuts rows [lo, hi) of table t into chunks of at most batch rows.
func (q *queryBase) addChunks(t, lo, hi int) {
	for ; lo < hi; lo += q.batch {
		end := min(lo+q.batch, hi)
		q.chunks = append(q.chunks, Chunk{q: q, index: len(q.chunks), table: t, start: lo, end: end, at: q.rows})
		q.rows += end - lo
	}
}

// job is the body of a chunk job: chunk ctx.Label().Chunk, run by fn.
// Executed by whichever worker runs the job; it touches only its chunk.
// It reads the chunk list that Prepare wrote on the owner: scheduling the
// job after Prepare publishes it (the pool's queues are synchronised).
func (q *queryBase) job(fn func(c *Chunk)) jobs.Func {
	return func(ctx *jobs.Ctx) {
		q.run(&q.chunks[ctx.Label().Chunk], ctx.Worker(), false, fn)
	}
}

// jobAll is the body of one job that runs fn on every chunk of the
// frame, in chunk order, as the jobs of job would one by one: for a pass
// too small to share out, or (inOrder) one whose chunks may write what
// many jobs at once could not, a resource (ResWriter.In) or a write
// lookup (LookupWriter.Get). As in a ParallelFor, a chunk that
// panics does not stop the others. Once a chunk panics, the deferred call
// runs the chunks after it, dropping their panics, before the first panic
// goes on to the job with its stack intact.
func (q *queryBase) jobAll(fn func(c *Chunk), inOrder bool) jobs.Func {
	return func(ctx *jobs.Ctx) {
		i, worker := 0, ctx.Worker()
		defer func() {
			if i < len(q.chunks) { // chunk i panicked
				for k := i + 1; k < len(q.chunks); k++ {
					q.runDropping(&q.chunks[k], worker, inOrder, fn)
				}
				q.digestLookups(inOrder)
			}
		}()
		for ; i < len(q.chunks); i++ {
			q.run(&q.chunks[i], worker, inOrder, fn)
		}
		q.digestLookups(inOrder)
	}
}

// digestLookups adds to the system's digest the rows that the pass's
// write lookups reached, as the whole pass left them: after its last
// chunk, not after each, for a row reached from two chunks would
// otherwise count its value between them, which the batch decides.
// Executed only by the job that ran the pass (inOrder: the only job of
// its system running).
func (q *queryBase) digestLookups(inOrder bool) {
	if inOrder && q.w.digests != DigestOff {
		q.d.digestLookups()
	}
}

// runDropping is run for a chunk after one that panicked: its own panic
// is dropped, the first one being the pass's error. Executed only by the
// job that owns c.
func (q *queryBase) runDropping(c *Chunk, worker int, inOrder bool, fn func(c *Chunk)) {
	defer func() { _ = recover() }()
	q.run(c, worker, inOrder, fn)
}

// run runs fn on chunk c for participant worker; inOrder says that one
// job runs every chunk. In checked mode the chunk's read-only columns are
// verified unchanged afterwards; the blocks in which fn changed a watched
// written column are marked (changed.go); with digests on, its written
// columns go into its system's digest (digest.go). Executed only by the
// job that owns c.
func (q *queryBase) run(c *Chunk, worker int, inOrder bool, fn func(c *Chunk)) {
	c.worker, c.inOrder = worker, inOrder
	checked := checksCompiled && q.w.checks
	if marks := q.tables[c.table].marks; checked || marks {
		q.runChecked(c, checked, marks, fn)
	} else {
		fn(c)
	}
	if q.w.digests != DigestOff {
		c.digest()
	}
}

// runChecked runs fn on c, verifies that c's read-only columns are
// unchanged afterwards (checked) and marks what fn changed (marks).
// Executed only by the job that owns c.
func (q *queryBase) runChecked(c *Chunk, checked, marks bool, fn func(c *Chunk)) {
	var sums [maxCols]uint64
	for i, col := range q.cols {
		if checked && col.mode == safety.Read {
			sums[i] = c.sum(i)
		}
	}
	if marks {
		q.save(c)
	}
	fn(c)
	if marks {
		q.markChanged(c)
	}
	for i, col := range q.cols {
		if checked && col.mode == safety.Read && sums[i] != c.sum(i) {
			q.w.fail(errorf(ErrReadModified, q.d.name, col.typ,
				"system %q changed %s in chunk %d (rows %d..%d of table %d), which it declared read-only; declare it with ecs.Write[%s] or stop writing to it",
				q.d.name, col.typ, c.index, c.start, c.end, c.table, col.typ))
		}
	}
}
