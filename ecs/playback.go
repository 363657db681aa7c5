package ecs

import (
	"fmt"
	"slices"

	ark "github.com/mlange-42/ark/ecs"
)

// Report is the outcome of a playback.
type Report struct {
	Applied  int       // commands applied
	Problems []Problem // commands skipped, in playback order
}

// Problem is a command that could not be applied: it was skipped and the
// commands around it still applied.
type Problem struct {
	System string // the system that recorded it ("" for the owner's buffers)
	Chunk  int    // the chunk or job of its buffer
	Seq    int    // its position in the buffer
	Op     string // spawn, despawn, add, set, remove
	Entity ark.Entity
	Reason string
}

func (r *Report) reset() {
	r.Applied = 0
	r.Problems = r.Problems[:0]
}

// Err is an *Error with CodeBadCommand summarising the problems, or nil.
func (r *Report) Err() error {
	if len(r.Problems) == 0 {
		return nil
	}
	p := r.Problems[0]
	return &Error{Code: CodeBadCommand, System: p.System, Msg: fmt.Sprintf(
		"%d commands were skipped; the first: %s of %v by system %q (buffer %d, command %d): %s; record commands only for entities that are alive when the buffer plays, and check components with the previous frame's state",
		len(r.Problems), p.Op, p.Entity, p.System, p.Chunk, p.Seq, p.Reason)}
}

// play applies b's commands in order and resets it. Executed only by the
// owner, with the world unlocked.
func (w *World) play(b *Commands, r *Report) {
	w.spawned = w.spawned[:0]
	for i := 0; i < len(b.cmds); i++ {
		switch b.cmds[i].op {
		case opSpawn:
			i = w.spawn(b, i, r)
		case opSpawnBatch:
			i = w.spawnBatch(b, i, r)
		default:
			if w.playOnEntity(b, i, r) {
				r.Applied++
			}
		}
	}
	b.reset()
}

// spawnBatch plays the run of batch spawns of one spawner that starts at
// i, and returns the index of the last one. Executed only by the owner,
// in play.
func (w *World) spawnBatch(b *Commands, i int, r *Report) int {
	c := &b.cmds[i]
	j := i
	for j+1 < len(b.cmds) && b.cmds[j+1].op == opSpawnBatch && b.cmds[j+1].aux == c.aux {
		j++
	}
	w.spawners[c.aux].play(b, int(c.val), j-i+1)
	r.Applied += j - i + 1
	return j
}

// playOnEntity applies the command at i to its entity (despawn, add, set,
// remove) and reports whether it applied; a command that cannot apply is
// recorded as a problem. Executed only by the owner, in play.
func (w *World) playOnEntity(b *Commands, i int, r *Report) bool {
	c := &b.cmds[i]
	u := w.unsafe
	e, ok := w.resolve(b, c.e)
	if !ok {
		w.problem(r, b, i, "a Spawn placeholder of another buffer or of an earlier playback; use placeholders only in the buffer, and the frame, whose Spawn made them")
		return false
	}
	if !w.ark.Alive(e) {
		w.problem(r, b, i, "the entity is not alive (despawned, or never spawned)")
		return false
	}
	switch c.op {
	case opDespawn:
		w.ark.RemoveEntity(e)
	case opAdd:
		had := u.HasUnchecked(e, c.id)
		if !had {
			w.ids = append(w.ids[:0], c.id)
			u.Add(e, w.ids...)
		}
		b.stores[c.id.Index()].apply(u, e, c.id, c.val)
		w.touch(e, c.id, !had)
	case opSet:
		if !u.HasUnchecked(e, c.id) {
			w.problem(r, b, i, "the entity has no "+w.names[c.id.Index()]+"; add it first")
			return false
		}
		b.stores[c.id.Index()].apply(u, e, c.id, c.val)
		w.touch(e, c.id, false)
	case opRemove:
		if !u.HasUnchecked(e, c.id) {
			w.problem(r, b, i, "the entity has no "+w.names[c.id.Index()]+" to remove")
			return false
		}
		w.ids = append(w.ids[:0], c.id)
		u.Remove(e, w.ids...)
	}
	return true
}

// spawn creates the entity of the spawn at i with the components of the
// adds that directly follow it, and returns the index of the last command
// it used.
func (w *World) spawn(b *Commands, i int, r *Report) int {
	ph := b.cmds[i].e
	j := i + 1
	w.ids = w.ids[:0]
	for ; j < len(b.cmds) && b.cmds[j].op == opAdd && b.cmds[j].e == ph; j++ {
		if !slices.Contains(w.ids, b.cmds[j].id) {
			w.ids = append(w.ids, b.cmds[j].id)
		}
	}
	e := w.unsafe.NewEntity(w.ids...)
	for k := i + 1; k < j; k++ {
		c := &b.cmds[k]
		b.stores[c.id.Index()].apply(w.unsafe, e, c.id, c.val)
	}
	w.spawned = append(w.spawned, e)
	r.Applied += j - i
	return j - 1
}

// resolve maps a placeholder of b to the entity its spawn made.
func (w *World) resolve(b *Commands, e ark.Entity) (ark.Entity, bool) {
	if e.ID() != placeholderID {
		return e, true
	}
	if e.Gen()>>spawnBits != b.tag || int(e.Gen()&(maxSpawns-1)) >= len(w.spawned) {
		return e, false
	}
	return w.spawned[e.Gen()&(maxSpawns-1)], true
}

func (w *World) problem(r *Report, b *Commands, i int, reason string) {
	p := Problem{Chunk: b.index, Seq: i, Op: opNames[b.cmds[i].op], Entity: b.cmds[i].e, Reason: reason}
	if b.d != nil {
		p.System = b.d.name
	}
	r.Problems = append(r.Problems, p)
}
