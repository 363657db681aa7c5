package ecs

import (
	"reflect"
	"unsafe"

	ark "github.com/mlange-42/ark/ecs"
)

// Ark's entity pool, reached in place. A restore must give back every
// entity its id and generation, and the recycling order of the dead ones,
// or the next spawn would get another id than the first time. Ark offers
// this only as Unsafe().DumpEntities and LoadEntities: the first
// allocates a copy of the pool at every call, the second needs an emptied
// world, so every restore would rebuild every table. Instead, weft reads
// and writes the pool's fields where Ark keeps them, after checking by
// reflection, once, that Ark v0.8.3's layout is what this file mirrors;
// another layout makes snapshots refuse with WEFT-E012 instead of
// corrupting the world.

// arkPool mirrors ark's entityPool: an implicit free list, where a dead
// entity's id field links to the next dead one.
type arkPool struct {
	pointer   unsafe.Pointer // &entities[0]
	entities  []ark.Entity
	next      uint32 // the first dead entity to recycle
	available uint32 // dead entities to recycle
	reserved  uint32
}

// arkEntity mirrors ark.Entity, whose fields are unexported.
type arkEntity struct{ id, gen uint32 }

// arkIndex mirrors ark's entityIndex: where an entity lives.
type arkIndex struct{ table, row uint32 }

// arkOffsets are the offsets in ark.World of its pool, its entity index and
// its relation-target flags; ok is false when Ark's layout is not the
// mirrored one (why says how).
type arkOffsets struct {
	pool, index, targets uintptr
	ok                   bool
	why                  string
}

var arkLayout = findArkLayout()

// findArkLayout checks Ark's types against the mirrors, field by field.
func findArkLayout() arkOffsets {
	wt := reflect.TypeFor[ark.World]()
	st, ok := wt.FieldByName("storage")
	if !ok || st.Type.Kind() != reflect.Struct {
		return arkOffsets{why: "ark.World has no storage struct"}
	}
	field := func(name string) (reflect.StructField, bool) { return st.Type.FieldByName(name) }
	pool, ok1 := field("entityPool")
	index, ok2 := field("entities")
	targets, ok3 := field("isTarget")
	if !ok1 || !ok2 || !ok3 {
		return arkOffsets{why: "ark's storage lacks entityPool, entities or isTarget"}
	}
	if why := sameLayout(pool.Type, reflect.TypeFor[arkPool]()); why != "" {
		return arkOffsets{why: "ark's entityPool: " + why}
	}
	if index.Type.Kind() != reflect.Slice || index.Type.Elem().Size() != unsafe.Sizeof(arkIndex{}) {
		return arkOffsets{why: "ark's entity index is not a slice of (table, row)"}
	}
	if why := sameLayout(index.Type.Elem(), reflect.TypeFor[arkIndex]()); why != "" {
		return arkOffsets{why: "ark's entityIndex: " + why}
	}
	if why := sameLayout(reflect.TypeFor[ark.Entity](), reflect.TypeFor[arkEntity]()); why != "" {
		return arkOffsets{why: "ark.Entity: " + why}
	}
	if targets.Type != reflect.TypeFor[[]bool]() {
		return arkOffsets{why: "ark's isTarget is not a []bool"}
	}
	return arkOffsets{pool: st.Offset + pool.Offset, index: st.Offset + index.Offset, targets: st.Offset + targets.Offset, ok: true}
}

// sameLayout compares the fields of Ark's type with the mirror's: names,
// kinds, sizes and offsets; "" when they agree.
func sameLayout(theirs, ours reflect.Type) string {
	if theirs.Kind() != reflect.Struct || theirs.NumField() != ours.NumField() || theirs.Size() != ours.Size() {
		return "a different shape"
	}
	for i := range ours.NumField() {
		a, b := theirs.Field(i), ours.Field(i)
		if a.Name != b.Name || a.Offset != b.Offset || a.Type.Kind() != b.Type.Kind() || a.Type.Size() != b.Type.Size() {
			return "field " + a.Name + " differs"
		}
		if b.Type.Kind() == reflect.Slice && a.Type.Elem() != b.Type.Elem() {
			return "field " + a.Name + " holds another type"
		}
	}
	return ""
}

// arkState is a world's pool, index and target flags, in place.
type arkState struct {
	pool    *arkPool
	index   *[]arkIndex
	targets *[]bool
}

// arkStateOf reaches w's Ark internals, or says why it cannot. Executed
// only by the owner.
func (w *World) arkStateOf() (arkState, *Error) {
	if !arkLayout.ok {
		return arkState{}, errorf(ErrNoSnapshot, "", "", "snapshots need Ark's entity pool as github.com/mlange-42/ark v0.8.3 lays it out, and this Ark differs (%s); use the Ark version go.mod pins", arkLayout.why)
	}
	base := unsafe.Pointer(w.ark)
	return arkState{
		pool:    (*arkPool)(unsafe.Add(base, arkLayout.pool)),
		index:   (*[]arkIndex)(unsafe.Add(base, arkLayout.index)),
		targets: (*[]bool)(unsafe.Add(base, arkLayout.targets)),
	}, nil
}

// setPool makes the pool hold ents (ids and generations, dead ones
// linked from next), growing the entity index and target flags to cover
// every id, as Ark's own creation does. Executed only by the owner,
// outside of frames.
func (s arkState) setPool(ents []ark.Entity, next, available uint32) {
	p := s.pool
	if cap(p.entities) < len(ents) {
		p.entities = make([]ark.Entity, len(ents), len(ents)+len(ents)/4)
	}
	p.entities = p.entities[:len(ents)]
	copy(p.entities, ents)
	p.pointer = unsafe.Pointer(&p.entities[0])
	p.next, p.available = next, available
	s.cover(len(ents))
}

// cover grows the entity index and target flags to hold n ids, as Ark's
// own creation does, so that a restore can place entities whose ids the
// world never handed out (a load into a fresh world). Executed only by
// the owner, outside of frames.
func (s arkState) cover(n int) {
	for len(*s.index) < n {
		*s.index = append(*s.index, arkIndex{table: ^uint32(0)})
		*s.targets = append(*s.targets, false)
	}
}
