package engine

import (
	"io"

	"github.com/weft-engine/weft/ecs"
)

// Rewinding: the engine keeps snapshots of the world (ecs.Snapshot) taken
// at the end of steps, in a ring, and Rewind puts the world back to one
// of them. What a step then does depends only on the world (components,
// entities, resources: Time, Input and Camera among them, events, change
// versions) and on what the game sets before it, so running the same
// steps again with the same inputs gives the same worlds, bit for bit:
// GGPO's rollback (save, load, advance), with the snapshots kept by the
// engine. A snapshot is the world as the step left it, before the game's
// changes between steps (its commands, its resources): those are the
// next step's inputs, which the game gives again after a rewind.

// rewinder is the ring of snapshots. Every method is executed only by
// the owner, between steps (take at the start of one).
type rewinder struct {
	every int          // a snapshot every this many steps (0: none kept)
	slots []rewindSlot // the ring
	head  int          // the next slot to fill
	kept  int          // slots filled, at most len(slots)
}

// rewindSlot is the world as it was after step steps.
type rewindSlot struct {
	step uint64
	snap ecs.Snapshot
}

// SetRewind keeps snapshots of the world for Rewind: one at the end of
// every every-th step, so that Rewind reaches up to count·every steps
// back (it keeps count+1: the newest is of the step just run). count 0
// keeps none and frees them. Each snapshot costs a copy of the world per
// every steps, and its memory (every component's bytes). It takes the first snapshot now, so that a
// world whose components or resources hold pointers is refused here with
// WEFT-E012 (wrapped in WEFT-G001) and nothing is kept. Executed only by
// the owner, between steps.
func (e *Engine) SetRewind(count, every int) error {
	if count < 0 || every < 1 {
		return errorf(ErrBadConfig, "", nil, "SetRewind(%d, %d): count must be >= 0 (0: keep none) and every >= 1", count, every)
	}
	if err := e.enter("SetRewind"); err != nil {
		return err
	}
	defer e.busy.Store(false)
	e.rw = rewinder{}
	if count == 0 {
		return nil
	}
	e.rw = rewinder{every: every, slots: make([]rewindSlot, count+1)}
	if err := e.keep(); err != nil {
		e.rw = rewinder{}
		return errorf(ErrBadConfig, "", err, "SetRewind: the world cannot be snapshot")
	}
	return nil
}

// keep takes the snapshot of the world after the last step, if one is
// due: after a multiple of every steps. A snapshot of a step already kept
// (after a rewind to it) replaces that one. Executed only by the owner, at
// the end of a step (tick), in SetRewind, and after a Restore or Load.
func (e *Engine) keep() error {
	r := &e.rw
	step := e.res.time.Step
	if r.every == 0 || step%uint64(r.every) != 0 {
		return nil
	}
	if r.kept > 0 && r.slot(0).step == step {
		r.head, r.kept = (r.head+len(r.slots)-1)%len(r.slots), r.kept-1
	}
	s := &r.slots[r.head]
	if err := e.world.Snapshot(&s.snap); err != nil {
		return err
	}
	s.step = step
	r.head, r.kept = (r.head+1)%len(r.slots), min(r.kept+1, len(r.slots))
	return nil
}

// slot is the i-th newest kept slot (0: the newest).
func (r *rewinder) slot(i int) *rewindSlot {
	return &r.slots[(r.head-1-i+2*len(r.slots))%len(r.slots)]
}

// keepStep is keep, in a step: a failure stops the keeping and fails the
// step, once. Executed only by the owner, at the end of a step, after its
// playback and merges.
func (e *Engine) keepStep() {
	if err := e.keep(); err != nil {
		e.rw = rewinder{}
		e.fail(errorf(ErrBadConfig, "", err, "keeping a snapshot for Rewind at step %d; rewinding is off from here (SetRewind)", e.res.time.Step))
	}
}

// Rewind puts the world back as it was at least n steps ago: as the
// newest kept step that is n or more steps back left it (with SetRewind's
// every 1, exactly n), before the game's changes between that step and
// the next. It returns how many steps it went back. The
// game then runs the steps again (Tick, Step), setting the same inputs
// (Input, Camera, its own resources, its commands between steps) to get
// the same worlds, or others to take another path. The snapshots newer
// than the one restored are dropped. Time, Input and Camera are the
// world's resources and come back with it; the render snapshot stays the
// last one drawn until the next step. A rewind further back than is kept
// is refused with WEFT-G001 and changes nothing. Executed only by the
// owner, between steps.
func (e *Engine) Rewind(n int) (int, error) {
	if err := e.enter("Rewind"); err != nil {
		return 0, err
	}
	defer e.busy.Store(false)
	r := &e.rw
	now := e.res.time.Step
	if n < 0 || uint64(n) > now {
		return 0, errorf(ErrBadConfig, "", nil, "Rewind(%d) at step %d: n must be >= 0 and at most the steps run", n, now)
	}
	if n == 0 {
		return 0, nil
	}
	for i := range r.kept {
		s := r.slot(i)
		if s.step > now-uint64(n) {
			continue
		}
		if err := e.world.Restore(&s.snap); err != nil {
			return 0, errorf(ErrBadConfig, "", err, "Rewind(%d)", n)
		}
		r.head, r.kept = (r.head+len(r.slots)-i)%len(r.slots), r.kept-i
		return int(now - s.step), nil
	}
	return 0, errorf(ErrBadConfig, "", nil, "Rewind(%d) at step %d: the oldest snapshot kept is of step %d; keep more with SetRewind(count, every): they reach count·every steps back", n, now, r.oldest())
}

// oldest is the step of the oldest kept snapshot (0 if none).
func (r *rewinder) oldest() uint64 {
	if r.kept == 0 {
		return 0
	}
	return r.slot(r.kept - 1).step
}

// Restore puts the world back in the state of s, a snapshot of it taken
// between steps (ecs.World.Snapshot), and replaces the snapshots kept for
// Rewind, another timeline, with one of the restored world (when its step
// is due one). Executed only by the owner, between steps.
func (e *Engine) Restore(s *ecs.Snapshot) error {
	if err := e.enter("Restore"); err != nil {
		return err
	}
	defer e.busy.Store(false)
	if err := e.world.Restore(s); err != nil {
		return err
	}
	return e.restart()
}

// restart replaces the kept snapshots with one of the world just restored
// or loaded, when its step is due one, so that a rewind can come back to
// it. A failure stops the keeping, as in a step, and is returned.
// Executed only by the owner, between steps.
func (e *Engine) restart() error {
	e.rw.kept = 0
	if err := e.keep(); err != nil {
		e.rw = rewinder{}
		return errorf(ErrBadConfig, "", err, "keeping a snapshot for Rewind of the world restored at step %d; rewinding is off from here (SetRewind)", e.res.time.Step)
	}
	return nil
}

// Save writes the world's state to out (ecs.World.Save). Executed only
// by the owner, between steps.
func (e *Engine) Save(out io.Writer) error {
	if err := e.enter("Save"); err != nil {
		return err
	}
	defer e.busy.Store(false)
	return e.world.Save(out)
}

// Load replaces the world's state with the one saved in in
// (ecs.World.Load): the steps that follow give the worlds that followed
// the save. A file that cannot load leaves the world as it was. The
// snapshots kept for Rewind are replaced once it loaded, as by Restore.
// Executed only by the owner, between steps.
func (e *Engine) Load(in io.Reader) error {
	if err := e.enter("Load"); err != nil {
		return err
	}
	defer e.busy.Store(false)
	if err := e.world.Load(in); err != nil {
		return err
	}
	return e.restart()
}
