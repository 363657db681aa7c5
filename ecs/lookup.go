package ecs

import (
	"sync/atomic"

	ark "github.com/mlange-42/ark/ecs"
	"github.com/weft-engine/weft/safety"
)

// A lookup reaches component T of any entity, of any archetype, where a
// query column reaches only the rows of the job's own chunk: a homing
// missile reads its target's position, a spark its parent's.
//
// It reads Ark's storage directly (World.Alive, Map.GetUnchecked). That is
// safe from jobs because those calls only read the entity index and the
// columns, and nothing writes them while jobs run: the world is locked
// from BeginFrame to EndFrame, so no entity is created, removed or moved,
// and writes of T's values are ordered by the declaration (a read lookup
// declares a read of T over the whole world: it runs after T's writers
// and before the next ones). docs/ARCHITECTURE.md (g) has the argument.

// LookupReader is the token of a declared read of component T of any
// entity.
type LookupReader[T any] struct {
	w *ark.World
	m *ark.Map[T]
}

// ReadLookup declares that d's system reads component T of any entity:
// a read of T over the whole world. A query of the same system may read T
// as a column too; writing T in the same system is a double declaration
// (WEFT-S003), since its chunk jobs would write rows that its lookups read.
// Executed only by the owner, at build time.
func ReadLookup[T any](d *Decl) LookupReader[T] {
	c := component[T](d.w)
	d.declare(c.key, safety.Read)
	d.lookups = append(d.lookups, c.key)
	return LookupReader[T]{w: d.w.ark, m: ark.NewMap[T](d.w.ark)}
}

// Get is a copy of e's T, and true; the zero value and false if e is dead,
// stale (its slot reused), the zero Entity, or has no T. Called by any job
// of the system, or by the owner outside a frame. e must be an entity of
// this world.
func (l LookupReader[T]) Get(e ark.Entity) (v T, ok bool) {
	if l.w.Alive(e) {
		if p := l.m.GetUnchecked(e); p != nil {
			v, ok = *p, true
		}
	}
	return v, ok
}

// Has reports whether e is alive and has T. Called as Get.
func (l LookupReader[T]) Has(e ark.Entity) bool {
	return l.w.Alive(e) && l.m.HasUnchecked(e)
}

// LookupWriter is the token of a declared write of component T of any
// entity. Two chunk jobs that run at the same time could write the same
// entity, so Get works only in a pass that runs as one job (JobInOrder,
// engine Builder.ChunksInOrder).
type LookupWriter[T any] struct {
	d    *Decl
	name string // T's name, for errors
	r    LookupReader[T]
	used *lookupWrite
}

// lookupWrite is what change detection needs of a write lookup: whether
// a job got a pointer through it this frame. Its writes can land in any
// row of any table that has the component, so the owner marks all of
// them changed (markLookupWrites): coarse, but a change filter never
// skips a row that a write lookup wrote.
type lookupWrite struct {
	id   ark.ID
	used atomic.Bool // set by the job that called Get; read and cleared by the owner (markLookupWrites)
}

// markLookupWrites marks component T changed in every table that has it,
// for each write lookup of T used so far this frame, and clears its flag.
// Executed only by the owner: in a filtered Prepare, after the writers of
// the components it watches have finished (the engine settles on them),
// and in EndFrame, after every job.
func (w *World) markLookupWrites() {
	for _, lw := range w.lookupWrites {
		if lw.used.Load() {
			lw.used.Store(false)
			w.touchAll(lw.id)
		}
	}
}

// WriteLookup declares that d's system reads and writes component T of
// any entity: a write of T over the whole world. The system cannot also
// declare T for its queries (WEFT-S003); its lookup reaches its own rows
// too. Executed only by the owner, at build time.
func WriteLookup[T any](d *Decl) LookupWriter[T] {
	c := component[T](d.w)
	d.declare(c.key, safety.Write)
	d.lookups = append(d.lookups, c.key)
	lw := &lookupWrite{id: c.id}
	d.w.lookupWrites = append(d.w.lookupWrites, lw)
	return LookupWriter[T]{d: d, name: d.w.names[c.id.Index()], r: LookupReader[T]{w: d.w.ark, m: ark.NewMap[T](d.w.ark)}, used: lw}
}

// Get is e's T, to read and write, and true; nil and false as
// LookupReader.Get. c is the calling job's chunk, which must be of a pass
// that runs as one job; otherwise Get is refused with CodeRacyWrite (the
// error goes to EndFrame and Get panics with it). Do not keep the pointer
// past the job. Executed only by the job that owns c.
func (l LookupWriter[T]) Get(c *Chunk, e ark.Entity) (*T, bool) {
	if !c.inOrder || c.q.d != l.d {
		name := l.name
		l.d.w.refuse(errorf(CodeRacyWrite, c.q.d.name, name,
			"system %q used its write lookup of %s from a chunk job that may run beside other chunk jobs%s, which could write the same entity; run the pass as one job with engine Builder.ChunksInOrder, or read through ecs.ReadLookup and write your own rows through a query column",
			c.q.d.name, name, foreign(c, l.d)))
	}
	if l.r.w.Alive(e) {
		if p := l.r.m.GetUnchecked(e); p != nil {
			if !l.used.used.Load() { // load first: a plain read of a shared line while it is set
				l.used.used.Store(true)
			}
			return p, true
		}
	}
	return nil, false
}

// Has reports whether e is alive and has T. Called by any job of the
// system, or by the owner outside a frame.
func (l LookupWriter[T]) Has(e ark.Entity) bool { return l.r.Has(e) }
