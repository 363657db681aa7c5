package ecs

import (
	"sync/atomic"

	ark "github.com/mlange-42/ark/ecs"
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
// and before the next ones). docs/ARCHITECTURE.md, "Jobs and Ark", has
// the argument.

// LookupReader is the token of a declared read of component T of any
// entity.
type LookupReader[T any] struct {
	u *use
	w *ark.World
	m *ark.Map[T]
}

// ReadLookup declares that d's system reads component T of any entity:
// a read of T over the whole world. A query of the same system may read T
// as a column too; writing T in the same system is a double declaration
// (WEFT-S003), since its chunk jobs would write rows that its lookups read.
// Executed only by the owner, at build time.
func ReadLookup[T any](d *Decl) LookupReader[T] {
	return LookupReader[T]{u: newLookup[T](d, kindReadLookup), w: d.w.ark, m: ark.NewMap[T](d.w.ark)}
}

// newLookup declares a lookup use of T by d's system.
func newLookup[T any](d *Decl, k kind) *use {
	c := component[T](d.w)
	u := d.declare(k, c.key, d.w.names[c.id.Index()])
	u.id = c.id
	return u
}

// Get is a copy of e's T, and true; the zero value and false if e is dead,
// stale (its slot reused), the zero Entity, or has no T. Called by any job
// of the system, in its Schedule or Merge, or by the owner outside a
// step; another system's call is refused (ErrUndeclared) in checked
// mode. e must be an entity of this world.
func (l LookupReader[T]) Get(e ark.Entity) (v T, ok bool) {
	if l.u == nil {
		zero[T](kindReadLookup)
	}
	l.u.here()
	if l.w.Alive(e) {
		if p := l.m.GetUnchecked(e); p != nil {
			v, ok = *p, true
		}
	}
	return v, ok
}

// Has reports whether e is alive and has T. Called as Get.
func (l LookupReader[T]) Has(e ark.Entity) bool {
	if l.u == nil {
		zero[T](kindReadLookup)
	}
	l.u.here()
	return l.w.Alive(e) && l.m.HasUnchecked(e)
}

// LookupWriter is the token of a declared write of component T of any
// entity. Two chunk jobs that run at the same time could write the same
// entity, so Get works only in a pass that runs as one job (engine
// Builder.ChunksInOrder).
type LookupWriter[T any] struct {
	u    *use
	m    *ark.Map[T]
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
	d    *Decl
	pend []ark.Entity // the entities Get reached since the system's last digest (digest_writes.go)
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
	u := newLookup[T](d, kindWriteLookup)
	lw := &lookupWrite{id: u.id, d: d}
	d.w.lookupWrites = append(d.w.lookupWrites, lw)
	return LookupWriter[T]{u: u, m: ark.NewMap[T](d.w.ark), used: lw}
}

// Get is e's T, to read and write, and true; nil and false as
// LookupReader.Get. c is the calling job's chunk, which must be of a pass
// that runs as one job; otherwise Get is refused with ErrRacyWrite (the
// error goes to EndFrame and Get panics with it). Do not keep the pointer
// past the job. Executed only by the job that owns c.
func (l LookupWriter[T]) Get(c *Chunk, e ark.Entity) (*T, bool) {
	if l.u == nil {
		zero[T](kindWriteLookup)
	}
	l.u.inOrder(c, "system %q used its write lookup of %s from a chunk job that may run beside other chunk jobs, which could write the same entity; run the pass as one job with engine Builder.ChunksInOrder, or read through ecs.ReadLookup and write your own rows through a query column")
	if l.u.d.w.ark.Alive(e) {
		if p := l.m.GetUnchecked(e); p != nil {
			if !l.used.used.Load() { // load first: a plain read of a shared line while it is set
				l.used.used.Store(true)
			}
			if l.u.d.w.digests != DigestOff {
				l.used.pend = append(l.used.pend, e)
			}
			return p, true
		}
	}
	return nil, false
}

// Has reports whether e is alive and has T. Called as LookupReader.Get.
func (l LookupWriter[T]) Has(e ark.Entity) bool {
	if l.u == nil {
		zero[T](kindWriteLookup)
	}
	l.u.here()
	return l.u.d.w.ark.Alive(e) && l.m.HasUnchecked(e)
}
