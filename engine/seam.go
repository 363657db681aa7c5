package engine

import (
	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/internal/seam"
	"github.com/weft-engine/weft/safety"
)

// The engine's side of the seam with ecs (internal/seam). At Build it
// reads each system's declaration (entry.desc) and each pass's query
// (queryState.desc) once, as plain data, and tells ecs each system's
// place (Place); each step it meets its world only through ecsSeam's
// per-step methods, and ecs asks it, through owner, which goroutine runs
// what, so that each call through a token is checked against the system
// that runs it (ecs/seam.go).

// ecsSeam is the seam with ecs's types.
type ecsSeam = seam.World[*ecs.Decl, ecs.AnyQuery, *ecs.Chunk, ecs.Written]

// reached appends to dst the keys of en's declared uses of reach r.
// Executed only by the owner, in Build and Explain.
func reached(en *entry, r seam.Reach, dst []safety.Key) []safety.Key {
	for _, u := range en.desc.Uses {
		if u.Reach == r {
			dst = append(dst, u.Key)
		}
	}
	return dst
}

// Participant is the calling goroutine's index among the pool's
// participants, -1 on none (the owner outside Wait). Called by any
// goroutine; e.run.pool changes only between steps.
func (o owner) Participant() int {
	if p := o.e.run.pool; p != nil {
		return p.Participant()
	}
	return -1
}

// Running is the declaration of the system in Schedule or Merge, for the
// owner's calls through a token; nil outside them. ecs asks it only on
// the owner, or on a participant that runs no pass job (its own slots
// record those). Called by any goroutine; the owner's frame is read only
// off the participants (the owner outside Wait).
func (o owner) Running() *ecs.Decl {
	if en := o.e.scratch.frame.cur; en != nil {
		return en.decl
	}
	return nil
}
