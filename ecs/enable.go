package ecs

import (
	"fmt"
	"iter"
	"math/bits"
	"reflect"
	"slices"
	"sync/atomic"

	ark "github.com/mlange-42/ark/ecs"
)

// Enableable components: a component that stays in its table while it is
// switched off for one entity (stunned, visible, selected), so that
// turning it on or off is a write, not a structural change played back
// after the frame.
//
// The state is kept twice, as bits that say "off". By table row, in row
// order, one word per 64 rows (enable_rows.go): what a pass reads, so
// that a chunk's state is a few words, whole words of off rows are
// skipped at once, and the on rows come out as runs of a plain slice
// loop (Runs) or by bit scanning (Each, On, Off). And by entity id: what
// follows the entity when Ark moves it (another table, a swap-remove),
// what snapshots, saves, hashes and digests read, and what the row bits
// are rebuilt from where rows moved. A switch writes both. A component is
// on when an entity gets it, and an id is on again when its entity is
// despawned or loses the component.
//
// For the safety checks the state is part of the component: ReadEnabled
// declares a read of T, WriteEnabled a write of T, so a system that
// switches T is ordered against every system that reads T or filters by
// its state, and a Changed[T] filter sees a switch as a change of the
// entity's block.

// enableBits are the off bits of one component, by entity id.
type enableBits struct {
	id  ark.ID
	at  int      // its index in World.enableList and in each table's row bits
	off []uint64 // bit id&63 of word id>>6: the entity's T is off; read and written atomically by jobs
}

// enabledOf returns the bits of T, made on first use. Executed only by
// the owner, at build time or outside of frames.
func enabledOf[T any](w *World) *enableBits {
	c := component[T](w)
	x := c.id.Index()
	if b := w.enabled[x]; b != nil {
		return b
	}
	b := &enableBits{id: c.id, at: len(w.enableList)}
	w.enabled[x] = b
	w.enableList = append(w.enableList, b)
	w.bits.drop()  // every table's row bits gain this component's
	if w.inFrame { // refused by the declaration; Ark cannot take observers now
		return b
	}
	q := w.all.Query()
	for q.Next() {
		b.fit(q.Entity().ID())
	}
	ark.Observe(ark.OnRemoveComponents).For(ark.C[T]()).Do(func(e ark.Entity) { b.set(e.ID(), true) }).Register(w.ark)
	if len(w.enableList) == 1 {
		w.observeEnabled()
	}
	return b
}

// observeEnabled registers the observers of every enableable component:
// ids fit the bits and are on again when their entity goes. The row
// bits follow the rows through the row record (enable_rows.go).
// Executed only by the owner, outside of frames.
func (w *World) observeEnabled() {
	ark.Observe(ark.OnCreateEntity).Do(func(e ark.Entity) {
		for _, b := range w.enableList {
			b.fit(e.ID())
		}
	}).Register(w.ark)
	ark.Observe(ark.OnRemoveEntity).Do(func(e ark.Entity) {
		for _, b := range w.enableList {
			b.set(e.ID(), true)
		}
	}).Register(w.ark)
}

// fit grows the bits to hold id. Executed only by the owner, in Ark's
// structural changes (no job runs).
func (b *enableBits) fit(id uint32) {
	for int(id>>6) >= len(b.off) {
		b.off = append(b.off, 0)
	}
}

// on reports whether id's component is on. Any goroutine.
func (b *enableBits) on(id uint32) bool {
	i := int(id >> 6)
	return i >= len(b.off) || atomic.LoadUint64(&b.off[i])&(1<<(id&63)) == 0
}

// set switches id's component on or off and reports whether that changed
// it. Any goroutine: jobs whose rows share a word set it at once.
func (b *enableBits) set(id uint32, on bool) bool {
	i := int(id >> 6)
	if i >= len(b.off) {
		return false // beyond the bits only during a refused declaration
	}
	return setBit(&b.off[i], id&63, on)
}

// setBit clears (on) or sets bit k of the off word at p and reports
// whether that changed it. Any goroutine.
func setBit(p *uint64, k uint32, on bool) bool {
	bit := uint64(1) << k
	if on {
		return atomic.AndUint64(p, ^bit)&bit != 0
	}
	return atomic.OrUint64(p, bit)&bit == 0
}

// word is the off bits of ents (at most 64), the first in bit 0. Executed
// only by the owner, in Prepare, while an earlier system's jobs may switch
// other entities whose ids share a word with these (another table's): so
// each word is loaded atomically, as the jobs write it.
func (b *enableBits) word(ents []ark.Entity) uint64 {
	var m uint64
	for j, e := range ents {
		id := e.ID()
		if i := int(id >> 6); i < len(b.off) {
			m |= (atomic.LoadUint64(&b.off[i]) >> (id & 63) & 1) << j
		}
	}
	return m
}

// offBit is 1 when id's component is off, else 0. Any goroutine.
func (b *enableBits) offBit(id uint32) uint64 {
	if b.on(id) {
		return 0
	}
	return 1
}

// stateSum mixes an entity (key), a component and its on/off state, for
// digests: a sum of these over rows does not depend on their order.
func stateSum(key uint64, id ark.ID, off uint64) uint64 {
	return fmix(mix(key^uint64(id.Index())<<56^0x5157) ^ off)
}

// enabledSum is the part of e's component id in World.Digest for its
// on/off state: 0 where it is on, as for a component that is not
// enableable, so that a world that made it enableable later than another
// (or was restored or loaded to before) has the same digest for the same
// states. Executed only by the owner, outside of frames.
func (w *World) enabledSum(key uint64, id ark.ID, e ark.Entity) uint64 {
	b := w.enabled[id.Index()]
	if b == nil || b.on(e.ID()) {
		return 0
	}
	return stateSum(key, id, 1)
}

// switchedSum is the part of chunk c's rows (whose entities are ents) in
// its system's digest for the states its system switches (WriteEnabled):
// every row's state after the job, so that a system that switches rows
// differently from one run to the next is named. Under DigestCapture
// each row's state is kept as a Written of "on/off of T". Executed only
// by the job that ran c, right after it.
func (c *Chunk) switchedSum(ents []ark.Entity) uint64 {
	var sum uint64
	for _, u := range c.q.d.uses {
		if u.kind != kindWriteEnabled {
			continue
		}
		b := c.q.w.enabled[u.id.Index()]
		for _, e := range ents {
			off := b.offBit(e.ID())
			s := stateSum(entityKey(e), u.id, off)
			sum += s
			if c.q.w.digests == DigestCapture {
				c.q.captureState(e, u.id, off == 0, s)
			}
		}
	}
	return sum
}

// captureState keeps e's state of component id, switched by q's system.
// Called by any job of q's system; slow, for finding a divergence.
func (q *queryBase) captureState(e ark.Entity, id ark.ID, on bool, sum uint64) {
	g := &q.d.digest
	g.mu.Lock()
	g.rows = append(g.rows, Written{Entity: e, Component: "on/off of " + q.w.names[id.Index()], Value: on, Sum: sum})
	g.mu.Unlock()
}

// enabledTok is what EnabledReader and EnabledWriter share.
type enabledTok struct {
	u *use
	b *enableBits
}

// EnabledReader is the token of a declared read of component T's on/off
// state; for the safety checks, a read of T.
type EnabledReader[T any] struct{ enabledTok }

// EnabledWriter is the token of a declared write of component T's on/off
// state; for the safety checks, a write of T. It reads the state too.
type EnabledWriter[T any] struct{ enabledTok }

// ReadEnabled declares that d's system reads which entities have T on.
func ReadEnabled[T any](d *Decl) EnabledReader[T] {
	u := newColumn[T](d, kindReadEnabled)
	return EnabledReader[T]{enabledTok{u, enabledOf[T](d.w)}}
}

// WriteEnabled declares that d's system switches T on and off.
func WriteEnabled[T any](d *Decl) EnabledWriter[T] {
	u := newColumn[T](d, kindWriteEnabled)
	return EnabledWriter[T]{enabledTok{u, enabledOf[T](d.w)}}
}

// check checks a call through the token from the job of chunk c and
// reports whether the chunk's table has T (see carries).
func (t enabledTok) check(c *Chunk, k kind) bool {
	if t.u == nil {
		zeroEnabled(k)
	}
	t.u.in(c)
	return t.carries(c)
}

// carries reports whether the table of chunk c has T. The query must
// carry T, as a column or a With filter: a row whose entity lacks T is
// neither on nor off, and over a query that may hold such rows without
// saying so, On and Each would take them for rows where T is on. So a
// query that does not carry T is refused with ErrNotInQuery, whatever
// its tables hold; with T an optional column, a table without it has no
// rows on and none off. Executed only by the job that owns c.
func (t enabledTok) carries(c *Chunk) bool {
	q := c.q
	for i, col := range q.cols {
		if col.id == t.b.id {
			return i < q.nreq || q.tables[c.table].cols[i] != nil
		}
	}
	tp := q.w.types[t.b.id.Index()]
	if slices.Contains(q.with, tp) {
		return true
	}
	q.w.refuse(errorf(ErrNotInQuery, q.d.name, t.u.typ, "a job of system %q used %s, but %s is not a column of its query, which may then hold entities without it, neither on nor off; pass ecs.Read[%s] to the query's constructor (ecs.Optional of it where some entities lack it), or filter the query with ecs.With[%s]()", q.d.name, t.u.token(), t.u.typ, t.u.typ, t.u.typ))
	return false
}

// On is the chunk's rows (0 for its first) whose entity has T on, in row
// order: a pass that ranges over it skips the rows where T is off. The
// slice is the chunk's own and holds until the next call of On or Off
// for the chunk. Words of 64 rows that are all off cost one test.
//
// The query must carry T, as a column or a With filter (else every call
// through the token is refused with ErrNotInQuery); a row whose entity
// lacks T (T optional, its table without it) is neither on nor off: On,
// Off, Each and Runs skip it, Enabled reports false, Set refuses it.
// Executed only by the job that owns c.
func (t enabledTok) On(c *Chunk) []int {
	if !t.check(c, kindReadEnabled) {
		return c.rowBuf()[:0]
	}
	return scanRows(c.rowBuf(), t.words(c), c.start, c.end, ^uint64(0))
}

// Off is the chunk's rows whose entity has T off, in row order, in the
// same slice as On's. Executed only by the job that owns c.
func (t enabledTok) Off(c *Chunk) []int {
	if !t.check(c, kindReadEnabled) {
		return c.rowBuf()[:0]
	}
	return scanRows(c.rowBuf(), t.words(c), c.start, c.end, 0)
}

// Each is the chunk's rows (0 for its first) whose entity has T on, in
// row order, yielded as the bits are scanned rather than gathered into a
// slice first, so that the index of a row costs no more than a bit scan
// beside the work on it:
//
//	for i := range on.Each(c) { ... }
//
// Where rows are switched one by one this is the cheapest way to visit
// them; words of 64 rows that are all off cost one test. The loop reads
// the state of the table's rows 64 at a time (rows 0-63 of the table,
// 64-127, ...), when it reaches the first of them in the chunk: the body
// may switch the row it visits and rows behind it, while a row it
// switches ahead of itself is seen only from the next 64 (On's slice, taken
// before the loop, sees none). The chunk is checked when the loop starts.
//
// The loop costs nothing only where the iterator is inlined with it: in a
// method, or in a function literal written where it is given to the
// query. A literal that a small helper returns is compiled again where
// the helper is inlined, without inlining into it, and allocates per
// chunk; such a helper uses Runs or On. Executed only by the job that
// owns c.
func (t enabledTok) Each(c *Chunk) iter.Seq[int] {
	// Small enough to be inlined with its loop, so that the body of the
	// caller's range loop is not a call per row.
	return func(yield func(int) bool) {
		off, lo, hi := t.onWords(c)
		for i := lo >> 6; i<<6 < hi; i++ {
			m, base := ^atomic.LoadUint64(&off[i])&rowMask(i, lo, hi), i<<6-lo
			for m != 0 {
				if !yield(base + bits.TrailingZeros64(m)) {
					return
				}
				m &= m - 1
			}
		}
	}
}

// onWords checks a read of the state from the job of chunk c and returns
// the off bits of its table for T and the chunk's rows, [lo, hi), in it.
// Executed only by the job that owns c.
func (t enabledTok) onWords(c *Chunk) (off []uint64, lo, hi int) {
	if !t.check(c, kindReadEnabled) {
		return nil, 0, 0
	}
	return t.words(c), c.start, c.end
}

// Run is a run of a chunk's rows, [Start, End), 0 for the chunk's first.
type Run struct{ Start, End int }

// Runs is the chunk's runs of rows whose entity has T on, in row order,
// so that the work per row stays a plain loop over a slice:
//
//	for _, r := range on.Runs(c) {
//		for i := r.Start; i < r.End; i++ { ... }
//	}
//
// Where the rows that are on come in runs (switched together, spawned
// together) this is the cheapest way to visit them; words of 64 rows
// that are all on or all off cost one test. The slice is the chunk's own
// and holds until the next call of Runs for the chunk. Executed only by
// the job that owns c.
func (t enabledTok) Runs(c *Chunk) []Run {
	if !t.check(c, kindReadEnabled) {
		return c.q.runBuf[c.at:c.at]
	}
	off, lo, hi := t.words(c), c.start, c.end
	dst := c.q.runBuf[c.at : c.at+c.Len()]
	n := 0
	for r := lo; r < hi; n++ {
		s := nextRow(off, r, hi, ^uint64(0))
		if s == hi {
			break
		}
		r = nextRow(off, s, hi, 0)
		dst[n] = Run{s - lo, r - lo}
	}
	return dst[:n]
}

// words is the off bits of the rows of c's table for T. Executed only by
// the job that owns c.
func (t enabledTok) words(c *Chunk) []uint64 {
	return c.q.tables[c.table].bits.off[t.b.at]
}

// scanRows writes into dst the rows in [lo, hi), less lo, whose off bit
// xor flip is 1 (flip all ones: the rows that are on), a word at a time,
// and returns them. Any goroutine: the words are read atomically, as
// jobs of a switching system set neighbouring bits.
func scanRows(dst []int, off []uint64, lo, hi int, flip uint64) []int {
	n := 0
	for i := lo >> 6; i<<6 < hi; i++ {
		m := (atomic.LoadUint64(&off[i]) ^ flip) & rowMask(i, lo, hi)
		base := i<<6 - lo
		if m == ^uint64(0) { // 64 rows in a row: no scan
			run := dst[n : n+64]
			for k := range run {
				run[k] = base + k
			}
			n += 64
			continue
		}
		for m != 0 {
			dst[n] = base + bits.TrailingZeros64(m)
			n++
			m &= m - 1
		}
	}
	return dst[:n]
}

// rowMask is the mask of word i's bits that are rows in [lo, hi).
func rowMask(i, lo, hi int) uint64 {
	m := ^uint64(0)
	if s := lo - i<<6; s > 0 {
		m <<= uint(s)
	}
	if e := hi - i<<6; e < 64 {
		m &= 1<<uint(e) - 1
	}
	return m
}

// nextRow is the first row in [r, hi) whose off bit xor flip is 1, or
// hi. Any goroutine.
func nextRow(off []uint64, r, hi int, flip uint64) int {
	i := r >> 6
	m := (atomic.LoadUint64(&off[i]) ^ flip) &^ (1<<uint(r&63) - 1)
	for m == 0 {
		i++
		if i<<6 >= hi {
			return hi
		}
		m = atomic.LoadUint64(&off[i]) ^ flip
	}
	return min(i<<6+bits.TrailingZeros64(m), hi)
}

// rowBuf is the chunk's part of its query's row buffer. Executed only by
// the job that owns c.
func (c *Chunk) rowBuf() []int { return c.q.rowBuf[c.at : c.at+c.Len()] }

// sizeRowBuf makes room in q.rowBuf for a row index, and in q.runBuf
// for a run, per row of this
// frame's chunks when q's system reads a component's on/off state or a
// relation's depths (AtDepth, relation.go).
// Executed only by the owner, in Prepare.
func (q *queryBase) sizeRowBuf() {
	enables := q.enables()
	if (enables || q.depths()) && cap(q.rowBuf) < q.rows {
		q.rowBuf = make([]int, q.rows)
	}
	if enables && cap(q.runBuf) < q.rows { // Runs is an on/off token's only
		q.runBuf = make([]Run, q.rows)
	}
	q.rowBuf, q.runBuf = q.rowBuf[:cap(q.rowBuf)], q.runBuf[:cap(q.runBuf)]
}

// enables reports whether q's system reads or switches a component's
// on/off state.
func (q *queryBase) enables() bool {
	for _, u := range q.d.uses {
		if isEnabled(u.kind) {
			return true
		}
	}
	return false
}

// Enabled reports whether the entity of the chunk's row has T on.
// Executed only by the job that owns c.
func (t enabledTok) Enabled(c *Chunk, row int) bool {
	has := t.check(c, kindReadEnabled)
	e := c.entity(t.u, row)
	return has && t.b.on(e.ID())
}

// Set switches T on or off for the entity of the chunk's row. A switch
// marks the row's block changed for a Changed[T] filter. Executed only by
// the job that owns c.
func (w EnabledWriter[T]) Set(c *Chunk, row int, on bool) {
	has := w.check(c, kindWriteEnabled)
	e := c.entity(w.u, row)
	if !has {
		c.q.w.refuse(errorf(ErrNotFound, c.q.d.name, w.u.typ, "%s of system %q was given row %d, whose entity has no %s (the optional column's table lacks it); switch only rows that have it, as On, Off, Each and Runs yield them", w.u.token(), c.q.d.name, row, w.u.typ))
	}
	if w.b.set(e.ID(), on) {
		r := c.start + row
		setBit(&w.words(c)[r>>6], uint32(r&63), on)
		c.toggled(w.b.id, row)
	}
}

// entity is the entity of the chunk's row; a row out of the chunk is
// refused with ErrBadArgument (the error goes to EndFrame and the job
// panics with it). Executed only by the job that owns c.
func (c *Chunk) entity(u *use, row int) ark.Entity {
	if row < 0 || row >= c.Len() {
		u.d.w.refuse(errorf(ErrBadArgument, c.q.d.name, u.typ, "%s of system %q was given row %d of a chunk of %d rows; pass a row of the chunk, 0 to Len()-1, as On and Off yield them", u.token(), c.q.d.name, row, c.Len()))
	}
	return c.q.tables[c.table].ents[c.start+row]
}

// toggled marks the block of the chunk's row changed for component id,
// if a change filter watches it. Executed only by the job that owns c.
func (c *Chunk) toggled(id ark.ID, row int) {
	tv := c.q.tables[c.table].tv
	if tv == nil || !c.q.w.watched[id.Index()] {
		return
	}
	if v := tv.cols[id.Index()]; v != nil {
		r := c.start + row
		v.changed.mark(r, r+1, c.q.tick)
	}
}

// switches reports whether q's system switches a watched component, so
// that its chunks need their tables' versions. Executed only by the
// owner, in Prepare.
func (q *queryBase) switches() bool {
	for _, u := range q.d.uses {
		if u.kind == kindWriteEnabled && q.w.watched[u.id.Index()] {
			return true
		}
	}
	return false
}

// switched makes, in tv, the versions of the watched components that q's
// system switches, so that its jobs find them. Executed only by the
// owner, in Prepare.
func (q *queryBase) switched(tv *tableVers) {
	for _, u := range q.d.uses {
		if u.kind == kindWriteEnabled && q.w.watched[u.id.Index()] {
			tv.col(u.id)
		}
	}
}

// SetEnabled switches T on or off for entity e, which must be alive and
// have T (else ErrNotFound). A switch marks the block of 64 rows of e's
// row changed for a Changed[T] filter, as a job's switch does.
// Executed only by the owner, outside of frames: in setup code or an
// exclusive system; a system's jobs use an EnabledWriter.
func SetEnabled[T any](w *World, e ark.Entity, on bool) error {
	if w.inFrame {
		return w.lockedErr("ecs.SetEnabled")
	}
	return w.setEnabled(enabledOf[T](w), e, on, reflect.TypeFor[T]())
}

// setEnabled switches b's component, of type tp, on or off for e, which
// must be alive and have it (else ErrNotFound); a switch marks it
// changed in e's table, and e's row bits are rewritten before the next
// pass reads them. Executed only by the owner, outside of frames or in
// playback.
func (w *World) setEnabled(b *enableBits, e ark.Entity, on bool, tp reflect.Type) error {
	if err := w.hasComp(e, b.id, tp, "switch"); err != nil {
		return err
	}
	if b.set(e.ID(), on) {
		w.bits.keep(e)
		w.touchRow(e, b.id)
	}
	return nil
}

// touchRow marks component id changed in the block of e's row, as a
// job's switch does (Chunk.toggled). Where the table's record (rows.go)
// does not hold e in that row, e moved since, and the whole table is
// marked: the comparison alone would miss
// an entity that came back to a row it left. Executed only by the owner,
// outside of frames or in playback.
func (w *World) touchRow(e ark.Entity, id ark.ID) {
	if !w.watched[id.Index()] {
		return
	}
	tv := w.versOf(e)
	if tv == nil {
		return // not compared yet: its first comparison marks every block
	}
	_, r, ok := w.heldRow(e)
	if !ok {
		w.touch(e, id, false)
		return
	}
	w.ticks++
	tv.col(id).changed.mark(r, r+1, w.ticks)
}

// playSwitch plays command c, a switch of an enableable component of e,
// which is alive, and reports whether it applied. Executed only by the
// owner, in play.
func (w *World) playSwitch(c *command, e ark.Entity) bool {
	name := w.names[c.id.Index()]
	b := w.enabled[c.id.Index()]
	if b == nil {
		w.problem(ErrBadCommand, name+" is not switched on and off anywhere; declare ecs.ReadEnabled or ecs.WriteEnabled of it in a system, or switch it with ecs.SetEnabled first")
		return false
	}
	if w.setEnabled(b, e, c.op == opEnable, w.types[c.id.Index()]) != nil {
		w.problem(ErrBadCommand, "the entity has no "+name+" to switch on or off; add it first")
		return false
	}
	return true
}

// IsEnabled reports whether entity e, which must be alive and have T
// (else ErrNotFound), has T on. Executed only by the owner, outside of
// frames.
func IsEnabled[T any](w *World, e ark.Entity) (bool, error) {
	if w.inFrame {
		return false, w.lockedErr("ecs.IsEnabled")
	}
	b := enabledOf[T](w)
	if err := w.hasComp(e, b.id, reflect.TypeFor[T](), "read the state of"); err != nil {
		return false, err
	}
	return b.on(e.ID()), nil
}

// hasComp refuses with ErrNotFound an entity that is not alive or lacks
// component id, for what the caller does to it ("switch", "read the
// state of"). Executed only by the owner.
func (w *World) hasComp(e ark.Entity, id ark.ID, tp reflect.Type, what string) error {
	if isPlaceholder(e) || !w.ark.Alive(e) || !w.unsafe.HasUnchecked(e, id) {
		return errorf(ErrNotFound, "", tp.String(), "entity %v is not alive or has no %v; %s %v only of a live entity that has it (w.Entities(comp) yields them)", e, tp, what, tp)
	}
	return nil
}

// zeroEnabled refuses the zero token of kind k. Any goroutine.
func zeroEnabled(k kind) {
	panic(errorf(ErrBadArgument, "", "", "the zero %s, a token that was never made, was used; make it in the system's Build with ecs.ReadEnabled or ecs.WriteEnabled and keep that value", fmt.Sprintf(kinds[k].token, "T")))
}

// saveEnabled copies w's off bits into s. Executed only by the owner,
// outside of frames.
func (s *Snapshot) saveEnabled(w *World) {
	for len(s.enabled) < len(w.enableList) {
		s.enabled = append(s.enabled, nil)
	}
	for i, b := range w.enableList {
		s.enabled[i] = append(s.enabled[i][:0], b.off...)
	}
}

// loadEnabled puts s's off bits back into w, after the tables (whose
// rebuild clears the bits of the entities it removes). A component made
// enableable after the snapshot is on for every entity. Executed only by
// the owner, outside of frames.
func (s *Snapshot) loadEnabled(w *World) {
	for i, b := range w.enableList {
		n := len(b.off)
		b.off = b.off[:0]
		if i < len(s.enabled) {
			b.off = append(b.off, s.enabled[i]...)
		}
		for len(b.off) < n {
			b.off = append(b.off, 0)
		}
	}
}

// fileOff is a file's off bits of a component that the world loading it
// has not made enableable yet (its game switches it only later, or from
// code that has not run).
type fileOff struct {
	id  ark.ID
	off []uint64
}

// fileEnabled fills s's off bits from the file's. A component enableable
// in the file and not yet in w is kept in s.enable, to be made enableable
// by makeEnabled once the whole file is checked.
func (w *World) fileEnabled(f *saveFile, ids []ark.ID, s *Snapshot) error {
	s.enabled, s.enable = make([][]uint64, len(w.enableList)), nil
	for _, fe := range f.Enabled {
		if int(fe.Comp) >= len(ids) {
			return fmt.Errorf("the on/off bits name component %d of %d", fe.Comp, len(ids))
		}
		off, ok := fromBytes[uint64](fe.Off)
		if !ok {
			return fmt.Errorf("the on/off bits of %s are cut", f.Comps[fe.Comp].Name)
		}
		i := slices.Index(w.enableList, w.enabled[ids[fe.Comp].Index()])
		if i < 0 {
			s.enable = append(s.enable, fileOff{ids[fe.Comp], off})
			continue
		}
		s.enabled[i] = off
	}
	return nil
}

// makeEnabled makes enableable the components of s.enable, as the world
// that saved them had, and gives s their bits. Executed only by the owner,
// in Load, after every check, before the restore.
func (w *World) makeEnabled(s *Snapshot) {
	for _, fo := range s.enable {
		w.enabler[fo.id.Index()]()
		for len(s.enabled) < len(w.enableList) {
			s.enabled = append(s.enabled, nil)
		}
		s.enabled[w.enabled[fo.id.Index()].at] = fo.off
	}
	s.enable = nil
}
