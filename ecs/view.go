package ecs

import (
	"cmp"
	"iter"
	"reflect"
	"slices"

	ark "github.com/mlange-42/ark/ecs"
)

// The owner's typed reads of the world, between frames: for a hash, a
// test, a tool, a renderer's merge. Jobs read through chunks and tokens
// instead; these calls answer ErrLocked during a frame, while jobs may be
// writing.

// Entity is an entity of the world (Ark's), so that users of ecs need
// not import Ark.
type Entity = ark.Entity

// Comp is a registered component type, as the owner's reads name it: a
// Component[T].
type Comp interface{ compID() ark.ID }

func (c Component[T]) compID() ark.ID { return c.id }

// Get is a copy of e's component T. It answers ErrNotFound for an entity
// that is not alive or has no T, ErrUnresolved for a Spawn placeholder,
// and ErrLocked during a frame. Executed only by the owner, outside of
// frames.
func Get[T any](w *World, e Entity) (T, error) {
	var zero T
	tp := reflect.TypeFor[T]()
	c, registered := w.comps[tp]
	switch {
	case w.inFrame:
		return zero, w.lockedErr("ecs.Get")
	case w.observing != nil:
		return zero, errorf(ErrUndeclared, w.observing.name, tp.String(), "observer %q read %v with ecs.Get, which reaches what the observer did not declare; declare ecs.ReadLookup[%v] in its Build and read through that token", w.observing.name, tp, tp)
	case isPlaceholder(e):
		return zero, errorf(ErrUnresolved, "", tp.String(), "ecs.Get of %v, a Spawn placeholder: its buffer has not played yet, or it was kept past its playback where playback cannot resolve it (a slice, a map, a resource); keep entities in component fields (ark.Entity, in structs or arrays), or read them after the playback", e)
	case !w.ark.Alive(e):
		return zero, errorf(ErrNotFound, "", tp.String(), "ecs.Get[%v] of entity %v, which is not alive (despawned, or never spawned)", tp, e)
	case !registered || !w.unsafe.HasUnchecked(e, c.id):
		return zero, errorf(ErrNotFound, "", tp.String(), "ecs.Get[%v] of entity %v, which has no %v", tp, e, tp)
	}
	return *(*T)(w.unsafe.GetUnchecked(e, c.id)), nil
}

// Entities iterates over the entities that have every component of comps
// (every entity if there are none), table by table: an order that
// depends only on the world's history. Range over it at once: the world
// must not change structurally during the loop (record changes in a
// Commands buffer and Apply it after). During a frame it answers
// ErrLocked. Executed only by the owner, outside of frames.
func (w *World) Entities(comps ...Comp) (iter.Seq[Entity], error) {
	if w.inFrame {
		return nil, w.lockedErr("World.Entities")
	}
	f := ark.NewUnsafeFilter(w.ark, idsOf(comps)...)
	return func(yield func(Entity) bool) {
		q := f.Query()
		done := false
		defer func() {
			if !done { // the loop broke or panicked: unlock the world
				q.Close()
			}
		}()
		for q.Next() {
			if !yield(q.Entity()) {
				return
			}
		}
		done = true // Next closed the query
	}, nil
}

// Count is the number of entities that have every component of comps
// (every entity if there are none). It reads only table sizes, which no
// job changes, so it may be called during a frame too. Executed only by
// the owner.
func (w *World) Count(comps ...Comp) int {
	q := ark.NewUnsafeFilter(w.ark, idsOf(comps)...).Query()
	n := q.Count()
	q.Close()
	return n
}

func idsOf(comps []Comp) []ark.ID {
	ids := make([]ark.ID, len(comps))
	for i, c := range comps {
		ids[i] = c.compID()
	}
	return ids
}

// Hash is a digest of the entities that have every component of comps
// and of those components' values: FNV-1a (64 bits) over each entity, in
// the order of ID<<32|generation, as that number, followed by each
// component's fields in declaration order (numbers little-endian, strings
// as length and bytes, padding skipped) and, where it is switched off, a
// mark, and then the number of entities. A component on for every entity
// hashes as one that is not enableable: a world that made it enableable
// later than another, or was restored or loaded to before, hashes the same
// for the same states.
// It is the same for the same contents on every run and machine, so two
// runs compare by it (determinism tests, replays). A component with a
// pointer, slice, map, interface, channel or function field cannot be
// hashed: Hash answers ErrBadArgument naming the field. During a frame
// it answers ErrLocked. Executed only by the owner, outside of frames.
func (w *World) Hash(comps ...Comp) (uint64, error) {
	if w.inFrame {
		return 0, w.lockedErr("World.Hash")
	}
	ids := idsOf(comps)
	for _, id := range ids {
		if l := &w.layouts[id.Index()]; l.opaque != "" {
			return 0, errorf(ErrBadArgument, "", w.names[id.Index()], "World.Hash cannot hash %s: its field %s refers to memory outside the component; hash the components that hold plain data", w.names[id.Index()], l.opaque)
		}
	}
	ents := w.hashEnts[:0]
	q := ark.NewUnsafeFilter(w.ark, ids...).Query()
	for q.Next() {
		ents = append(ents, q.Entity())
	}
	slices.SortFunc(ents, func(a, b Entity) int { return cmp.Compare(entityKey(a), entityKey(b)) })
	h := fnvOffset
	for _, e := range ents {
		h.put(entityKey(e), 8)
		for _, id := range ids {
			h.value(&w.layouts[id.Index()], w.unsafe.GetUnchecked(e, id))
			if b := w.enabled[id.Index()]; b != nil && !b.on(e.ID()) { // switched off (enable.go)
				h.put(1, 1)
			}
		}
	}
	h.put(uint64(len(ents)), 8)
	w.hashEnts = ents[:0]
	return uint64(h), nil
}

func entityKey(e Entity) uint64 { return uint64(e.ID())<<32 | uint64(e.Gen()) }
