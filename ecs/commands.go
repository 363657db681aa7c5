package ecs

import (
	"cmp"
	"unsafe"

	ark "github.com/mlange-42/ark/ecs"
)

// Commands is a buffer of deferred structural changes: spawn, despawn,
// add, remove, set, and switches of enableable components. One job records into it alone; the owner plays it
// back. Spawn returns a placeholder that stands for the new entity in
// later commands of the same buffer, and in commands and component values
// of every buffer of the same playback that plays after it; playback
// replaces it with the real entity (see playback.go for what it reaches).
type Commands struct {
	w           *World
	d           *Decl  // nil for the owner's buffers
	seq, index  int    // playback rank after the system's order: query (-1 for system buffers), chunk or job
	tag         uint32 // of its placeholders, for this use
	cmds        []command
	stores      []store      // values, by Ark component ID index
	spawnValues []resetter   // Spawner values, by spawner index
	targets     []ark.Entity // relation targets (RelationWriter.Set), by command val
	spawns      uint32
}

type opKind uint8

const (
	opSpawn opKind = iota
	opDespawn
	opAdd
	opSet
	opRemove
	opSpawnBatch // a Spawner's spawn: aux is the spawner, val the index of its values
	opEnable     // switch an enableable component on (enable.go)
	opDisable    // and off
	opRelate     // RelationWriter.Set: id is the Link column, val the index of the target
	opUnrelate   // RelationWriter.Remove
)

var opNames = [...]string{"spawn", "despawn", "add", "set", "remove", "spawn", "switch on", "switch off", "set target", "remove target"}

type command struct {
	op  opKind
	id  ark.ID
	aux uint16
	val int32 // index into the component's store
	e   ark.Entity
}

type resetter interface{ reset() }

// batchSpawner is a SpawnerN, seen by playback.
type batchSpawner interface {
	play(b *Commands, first, n int)
}

// store holds one buffer's values of one component type. Typed slices,
// not bytes, so that the garbage collector sees pointers inside values.
type store interface {
	apply(u ark.Unsafe, e ark.Entity, id ark.ID, i int32)
	reset()
}

type values[T any] struct{ v []T }

func (s *values[T]) apply(u ark.Unsafe, e ark.Entity, id ark.ID, i int32) {
	*(*T)(u.GetUnchecked(e, id)) = s.v[i]
}

func (s *values[T]) reset() {
	clear(s.v) // drop references held by old values
	s.v = s.v[:0]
}

func (w *World) newCommands(d *Decl, seq, index int) *Commands {
	b := &Commands{w: w, d: d, seq: seq, index: index}
	b.retag()
	return b
}

// retag gives b's placeholders a new tag for each use, from the world's
// count of uses: tags of the buffers of one playback differ unless
// 2^tagBits-1 uses passed between their tagging, and a placeholder kept
// from an earlier use is refused. Executed only by the owner.
func (b *Commands) retag() {
	b.w.tags++
	b.tag = b.w.tags % tagMask // never tagMask: with the last number, Ark's wildcard entity {1, MaxUint32}
}

// compare orders buffers for playback: (system order, query, chunk).
func (b *Commands) compare(o *Commands) int {
	if c := cmp.Compare(b.d.order, o.d.order); c != 0 {
		return c
	}
	if c := cmp.Compare(b.seq, o.seq); c != 0 {
		return c
	}
	return cmp.Compare(b.index, o.index)
}

// Len is the number of recorded commands.
func (b *Commands) Len() int { return len(b.cmds) }

// Placeholders for spawned entities are entities with Ark's reserved
// wildcard ID 1, which Ark never gives out (so Ark finds them dead), and a
// generation packing the buffer's tag and the spawn's number. Spawns past
// the first maxSpawns-1 of a buffer share the number maxSpawns-1, which
// never resolves.
const (
	placeholderID = 1
	tagBits       = 14
	tagMask       = 1<<tagBits - 1
	spawnBits     = 32 - tagBits
	maxSpawns     = 1 << spawnBits
)

// isPlaceholder reports whether e is a Spawn placeholder.
func isPlaceholder(e ark.Entity) bool { return e.ID() == placeholderID }

func placeholder(tag, n uint32) ark.Entity {
	var e ark.Entity
	p := (*[2]uint32)(unsafe.Pointer(&e)) // Ark's Entity is {id, gen uint32}; TestPlaceholderLayout checks it
	p[0], p[1] = placeholderID, tag<<spawnBits|n
	return e
}

// Spawn records the creation of an entity and returns a placeholder for
// it, which later commands of this buffer, and entity fields of recorded
// component values, may use. Adds that directly follow the spawn are
// applied with the creation, in one table move. A buffer's first 262,143
// spawns have placeholders that resolve; a spawn past them still creates
// its entity, but its placeholder resolves to nothing (WEFT-E010, and
// Report.Spawned refuses it): spread more spawns over more buffers (the
// chunks of a pass, or several Apply calls). Executed only by the job (or
// owner) that owns b.
func (b *Commands) Spawn() ark.Entity {
	e := b.nextPlaceholder()
	b.push(command{op: opSpawn, e: e})
	return e
}

// spawnOp records a Spawner's spawn whose values are at index i.
func (b *Commands) spawnOp(spawner uint16, i int) ark.Entity {
	e := b.nextPlaceholder()
	b.push(command{op: opSpawnBatch, aux: spawner, val: int32(i), e: e})
	return e
}

func (b *Commands) nextPlaceholder() ark.Entity {
	n := min(b.spawns, maxSpawns-1)
	b.spawns++
	return placeholder(b.tag, n)
}

// Despawn records the removal of e.
func (b *Commands) Despawn(e ark.Entity) {
	b.push(command{op: opDespawn, e: e})
}

func storeOf[T any](b *Commands, id ark.ID) *values[T] {
	i := int(id.Index())
	if i >= len(b.stores) {
		b.stores = append(b.stores, make([]store, i+1-len(b.stores))...)
	}
	s, _ := b.stores[i].(*values[T])
	if s == nil {
		s = &values[T]{v: make([]T, 0, firstCap)}
		b.stores[i] = s
	}
	return s
}

// firstCap is a buffer's first capacity once it records: a chunk's count of
// commands varies from step to step, and starting here skips the first
// doublings, so a game in steady state stops allocating sooner.
const firstCap = 32

func record[T any](b *Commands, op opKind, id ark.ID, e ark.Entity, v *T) {
	c := command{op: op, id: id, e: e}
	if v != nil {
		s := storeOf[T](b, id)
		c.val = int32(len(s.v))
		s.v = append(s.v, *v)
	}
	b.push(c)
}

// push appends c, starting an empty buffer at 4·firstCap commands (a spawn
// comes with a command per component).
func (b *Commands) push(c command) {
	if b.cmds == nil {
		b.cmds = make([]command, 0, 4*firstCap)
	}
	b.cmds = append(b.cmds, c)
}

// Add records adding v as e's T; if e already has a T, v replaces it.
// Executed only by the job (or owner) that owns b, as for every recording.
func (c Component[T]) Add(b *Commands, e ark.Entity, v T) { record(b, opAdd, c.id, e, &v) }

// Set records setting e's T to v; e must have a T by then.
func (c Component[T]) Set(b *Commands, e ark.Entity, v T) { record(b, opSet, c.id, e, &v) }

// Remove records removing e's T; e must have a T by then.
func (c Component[T]) Remove(b *Commands, e ark.Entity) { record[T](b, opRemove, c.id, e, nil) }

// SetEnabled records switching e's T on or off (enable.go); e must be
// alive and have T when the buffer plays, or the command is skipped as
// a problem (ErrBadCommand). The switch is seen from the next frame on,
// like any command. T must be enableable by then: declared by a
// system's ecs.ReadEnabled or ecs.WriteEnabled, or switched by the
// owner before (a buffer of the owner's, recorded outside a frame, makes
// it so itself).
func (c Component[T]) SetEnabled(b *Commands, e ark.Entity, on bool) {
	if b.d == nil && !b.w.inFrame {
		enabledOf[T](b.w)
	}
	op := opEnable
	if !on {
		op = opDisable
	}
	b.push(command{op: op, id: c.id, e: e})
}

// reset empties b for the next frame, keeping its memory.
func (b *Commands) reset() {
	b.cmds = b.cmds[:0]
	b.targets = b.targets[:0]
	b.spawns = 0
	b.retag()
	for _, s := range b.stores {
		if s != nil {
			s.reset()
		}
	}
	for _, s := range b.spawnValues {
		if s != nil {
			s.reset()
		}
	}
}
