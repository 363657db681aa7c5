package engine

import (
	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/internal/glue"
	"github.com/weft-engine/weft/safety"
)

// The engine's side of ecs's access seam (ecs/seam.go). A system's
// tokens are records of its ecs.Decl; the engine reads them by reach
// (reached), for ordering readers after emitters, for chaining and for
// Explain, and it tells ecs which system runs the calling goroutine
// (owner.Running), so that each call through a token is checked against
// that system. For that, in checked mode, every pass job records its
// system in its participant's slot while its body runs (enterJob, leaveJob).

// reached appends to dst the keys of en's declared uses of reach r.
// Executed only by the owner, in Build and Explain.
func reached(en *entry, r glue.Reach, dst []safety.Key) []safety.Key {
	if en.decl == nil {
		return dst
	}
	for _, u := range en.decl.Glue(glue.Seal{}).Uses(nil) {
		if u.Reach == r {
			dst = append(dst, u.Key)
		}
	}
	return dst
}

// slot is what one participant runs: the system of its pass job, padded
// to a cache line so that participants do not share one.
type slot struct {
	d *ecs.Decl
	_ [56]byte
}

// enterJob records, in checked mode, that participant worker runs a job of
// the system d, and returns what it ran before. Executed only by the
// participant worker, at the start of a pass job's body.
func (e *Engine) enterJob(worker int, d *ecs.Decl) *ecs.Decl {
	if !e.cur.checks {
		return nil
	}
	s := &e.run.slots[worker]
	prev := s.d
	s.d = d
	return prev
}

// leaveJob undoes enterJob. Executed only by the participant worker, at the end
// of the body.
func (e *Engine) leaveJob(worker int, prev *ecs.Decl) {
	if e.cur.checks {
		e.run.slots[worker].d = prev
	}
}

// Running is the declaration of the system whose code the calling
// goroutine runs: a pass job's system on the participant that runs it
// (checked mode), else, on the owner, the system in Schedule or Merge.
// Called by any goroutine; a participant reads only its own slot, and
// the owner's frame is read only off the participants (the owner
// outside Wait).
func (o owner) Running() any {
	e := o.e
	i := -1
	if e.run.pool != nil {
		i = e.run.pool.Participant()
	}
	if i >= 0 && i < len(e.run.slots) {
		if d := e.run.slots[i].d; d != nil {
			return d
		}
	}
	if i <= 0 {
		if en := e.scratch.frame.cur; en != nil {
			return en.decl
		}
	}
	return nil
}
