package ecs

import (
	"fmt"
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
// The state is one bit per entity and component, kept by entity id (set:
// off), so that it follows the entity from table to table and needs no
// upkeep when Ark moves rows; a component is on when an entity gets it,
// and an id is on again when its entity is despawned or loses the
// component. A chunk job gathers the bits of its rows, without a branch
// per row, into the indexes of the rows that are on (or off) and visits
// those: a pass over a chunk where half the rows are off does half the
// work, plus the gather (one bit read per row).
//
// For the safety checks the state is part of the component: ReadEnabled
// declares a read of T, WriteEnabled a write of T, so a system that
// switches T is ordered against every system that reads T or filters by
// its state, and a Changed[T] filter sees a switch as a change of the
// entity's block.

// enableBits are the off bits of one component, by entity id.
type enableBits struct {
	id  ark.ID
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
	b := &enableBits{id: c.id}
	w.enabled[x] = b
	w.enableList = append(w.enableList, b)
	if w.inFrame { // refused by the declaration; Ark cannot take observers now
		return b
	}
	q := w.all.Query()
	for q.Next() {
		b.fit(q.Entity().ID())
	}
	ark.Observe(ark.OnRemoveComponents).For(ark.C[T]()).Do(func(e ark.Entity) { b.set(e.ID(), true) }).Register(w.ark)
	if len(w.enableList) == 1 { // the observers of every enableable component
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
	return b
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
	bit := uint64(1) << (id & 63)
	if on {
		return atomic.AndUint64(&b.off[i], ^bit)&bit != 0
	}
	return atomic.OrUint64(&b.off[i], bit)&bit == 0
}

// rows writes into dst (at least as long as ents) the indexes of ents
// whose component is on (want) or off, and returns them. Branch-free per
// row, so that a random mix of states costs what a run of one does. Any
// goroutine.
func (b *enableBits) rows(dst []int, ents []ark.Entity, want bool) []int {
	keep := uint64(1)
	if !want {
		keep = 0
	}
	n, off := 0, b.off
	dst = dst[:len(ents)]
	for j, e := range ents {
		id := e.ID()
		var bit uint64
		if i := id >> 6; int(i) < len(off) {
			bit = atomic.LoadUint64(&off[i]) >> (id & 63) & 1
		}
		dst[n] = j
		n += int(bit ^ keep)
	}
	return dst[:n]
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

// check checks a call through the token from the job of chunk c.
func (t enabledTok) check(c *Chunk, k kind) {
	if t.u == nil {
		zeroEnabled(k)
	}
	t.u.in(c)
}

// On is the chunk's rows (0 for its first) whose entity has T on, in row
// order: a pass that ranges over it skips the rows where T is off. The
// slice is the chunk's own and holds until the next call of On or Off
// for the chunk. Executed only by the job that owns c.
func (t enabledTok) On(c *Chunk) []int {
	t.check(c, kindReadEnabled)
	return t.b.rows(c.rowBuf(), c.Entities(), true)
}

// Off is the chunk's rows whose entity has T off, in row order, in the
// same slice as On's. Executed only by the job that owns c.
func (t enabledTok) Off(c *Chunk) []int {
	t.check(c, kindReadEnabled)
	return t.b.rows(c.rowBuf(), c.Entities(), false)
}

// rowBuf is the chunk's part of its query's row buffer. Executed only by
// the job that owns c.
func (c *Chunk) rowBuf() []int { return c.q.rowBuf[c.at : c.at+c.Len()] }

// sizeRowBuf makes room in q.rowBuf for a row index per row of this
// frame's chunks when q's system reads a component's on/off state.
// Executed only by the owner, in Prepare.
func (q *queryBase) sizeRowBuf() {
	for _, u := range q.d.uses {
		if isEnabled(u.kind) && cap(q.rowBuf) < q.rows {
			q.rowBuf = make([]int, q.rows)
		}
	}
	q.rowBuf = q.rowBuf[:cap(q.rowBuf)]
}

// Enabled reports whether the entity of the chunk's row has T on.
// Executed only by the job that owns c.
func (t enabledTok) Enabled(c *Chunk, row int) bool {
	t.check(c, kindReadEnabled)
	return t.b.on(c.entity(t.u, row).ID())
}

// Set switches T on or off for the entity of the chunk's row. A switch
// marks the row's block changed for a Changed[T] filter. Executed only by
// the job that owns c.
func (w EnabledWriter[T]) Set(c *Chunk, row int, on bool) {
	w.check(c, kindWriteEnabled)
	e := c.entity(w.u, row)
	if w.b.set(e.ID(), on) {
		c.toggled(w.b.id, row)
	}
}

// entity is the entity of the chunk's row; a row out of the chunk is
// refused with CodeBadArgument (the error goes to EndFrame and the job
// panics with it). Executed only by the job that owns c.
func (c *Chunk) entity(u *use, row int) ark.Entity {
	if row < 0 || row >= c.Len() {
		u.d.w.refuse(errorf(CodeBadArgument, c.q.d.name, u.typ, "%s of system %q was given row %d of a chunk of %d rows; pass a row of the chunk, 0 to Len()-1, as On and Off yield them", u.token(), c.q.d.name, row, c.Len()))
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
// have T (else CodeNotFound). A switch marks T changed in e's table.
// Executed only by the owner, outside of frames: in setup code or an
// exclusive system; a system's jobs use an EnabledWriter.
func SetEnabled[T any](w *World, e ark.Entity, on bool) error {
	if w.inFrame {
		return w.lockedErr("ecs.SetEnabled")
	}
	b := enabledOf[T](w)
	if err := w.hasComp(e, b.id, reflect.TypeFor[T]()); err != nil {
		return err
	}
	if b.set(e.ID(), on) {
		w.touch(e, b.id, false)
	}
	return nil
}

// IsEnabled reports whether entity e, which must be alive and have T
// (else CodeNotFound), has T on. Executed only by the owner, outside of
// frames.
func IsEnabled[T any](w *World, e ark.Entity) (bool, error) {
	if w.inFrame {
		return false, w.lockedErr("ecs.IsEnabled")
	}
	b := enabledOf[T](w)
	if err := w.hasComp(e, b.id, reflect.TypeFor[T]()); err != nil {
		return false, err
	}
	return b.on(e.ID()), nil
}

// hasComp refuses with CodeNotFound an entity that is not alive or lacks
// component id. Executed only by the owner.
func (w *World) hasComp(e ark.Entity, id ark.ID, tp reflect.Type) error {
	if isPlaceholder(e) || !w.ark.Alive(e) || !w.unsafe.HasUnchecked(e, id) {
		return errorf(CodeNotFound, "", tp.String(), "entity %v is not alive or has no %v; switch a component of an entity that has it", e, tp)
	}
	return nil
}

// zeroEnabled refuses the zero token of kind k. Any goroutine.
func zeroEnabled(k kind) {
	panic(errorf(CodeBadArgument, "", "", "the zero %s, a token that was never made, was used; make it in the system's Build with ecs.ReadEnabled or ecs.WriteEnabled and keep that value", fmt.Sprintf(kinds[k].token, "T")))
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

// fileEnabled fills s's off bits from the file's: each must be of a
// component that the world has made enableable.
func (w *World) fileEnabled(f *saveFile, ids []ark.ID, s *Snapshot) error {
	s.enabled = make([][]uint64, len(w.enableList))
	for _, fe := range f.Enabled {
		if int(fe.Comp) >= len(ids) {
			return fmt.Errorf("the on/off bits name component %d of %d", fe.Comp, len(ids))
		}
		i := slices.Index(w.enableList, w.enabled[ids[fe.Comp].Index()])
		if i < 0 {
			return fmt.Errorf("component %s is switched on and off in the file and not in the world (declare ecs.ReadEnabled or ecs.WriteEnabled of it, as the saved world did)", f.Comps[fe.Comp].Name)
		}
		off, ok := fromBytes[uint64](fe.Off)
		if !ok {
			return fmt.Errorf("the on/off bits of %s are cut", f.Comps[fe.Comp].Name)
		}
		s.enabled[i] = off
	}
	return nil
}
