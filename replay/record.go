package replay

import (
	"io"
	"time"

	"github.com/fxamacker/cbor/v2"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
)

// Sim is what a recording is made from and played into: an engine and the
// game around it. Its methods are executed only by the owner.
type Sim interface {
	Engine() *engine.Engine
	// Tick runs one fixed step: the game applies its owner-side
	// commands (those Do recorded), then calls Engine.Tick.
	Tick() error
	// Digest is the world's digest after a step: ecs.World.Digest of
	// the components that make the game's state.
	Digest() (uint64, error)
	// Do carries out a recorded owner-side action again (decode it with
	// Decode): the same commands as when it was recorded.
	Do(action []byte) error
	// Resources are the resources the owner sets between steps, besides
	// the engine's Input and Camera, which are always recorded.
	Resources() []Resource
}

// Resource is a resource that the owner sets between steps, recorded by
// value before every step and set again before the step when played.
type Resource struct {
	Name string
	save func() ([]byte, error)
	load func([]byte) error
}

// Track makes res, a resource of plain data, a Resource named name.
func Track[T any](name string, res *T) Resource {
	return Resource{Name: name,
		save: func() ([]byte, error) { return encMode.Marshal(res) },
		load: func(b []byte) error { return decMode.Unmarshal(b, res) },
	}
}

// Recorder writes what enters each fixed step of a Sim, and the hashes
// and digests each leaves, to a replay file. It is the engine's step
// hook while it records. Every method is executed only by the owner,
// between steps.
type Recorder struct {
	sim    Sim
	enc    *cbor.Encoder
	res    []Resource
	step   Step
	frame  uint64
	dt     time.Duration
	framed bool   // a Frame call started the current frame
	steps  uint64 // recorded so far: the engine's step before the next
	head   Header
	wrote  bool // the header
	err    error
	closed bool
}

// NewRecorder starts recording s into w (meta is the game's own
// description of the run, such as its seed and scene, for Recording.Meta):
// it turns the engine's digests on and becomes its step hook; the header
// is written with the first step. Make it before the game's first step
// (after one, WEFT-R005), and Close it after the last.
func NewRecorder(w io.Writer, s Sim, meta any) (*Recorder, error) {
	m, err := encMode.Marshal(meta)
	if err != nil {
		return nil, errorf(ErrMisuse, err, "encoding the recording's meta %T; pass plain data", meta)
	}
	e := s.Engine()
	if n := e.Time().Step; n != 0 {
		return nil, errorf(ErrMisuse, nil, "NewRecorder after %d steps: a recording is played from the game's start, made again from its Meta; make the recorder before the first step", n)
	}
	if err := e.SetDigests(ecs.DigestOn); err != nil {
		return nil, errorf(ErrMisuse, err, "NewRecorder during a step; make it between steps")
	}
	r := &Recorder{sim: s, enc: encMode.NewEncoder(w), res: s.Resources(), frame: ^uint64(0)}
	r.head = Header{Magic: Magic, Version: Version, FixedStep: int64(fixedStep(e)), Meta: m}
	for _, x := range r.res {
		r.head.Resources = append(r.head.Resources, x.Name)
	}
	e.SetStepHook(r)
	return r, nil
}

// header writes the header once, when the systems with digests are
// known: after the first step, or at Close.
func (r *Recorder) header(e *engine.Engine) {
	if r.wrote {
		return
	}
	r.wrote = true
	for _, d := range e.Digests() {
		r.head.Systems = append(r.head.Systems, d.System)
	}
	r.keep(seal(&r.head, &r.head.Check))
	r.keep(r.enc.Encode(r.head))
}

// Frame starts a frame: the steps of the next Engine.Step call, which
// advances the game by dt of real time. A player shows them together, as
// they were. Without Frame, every step is a frame of its own.
func (r *Recorder) Frame(dt time.Duration) {
	r.frame++
	r.dt, r.framed = dt, true
}

// Do records an owner-side action (plain data: a burst at a point, an
// order given) into the next step; the player hands it to Sim.Do before
// that step. Call it where the game carries the action out.
func (r *Recorder) Do(action any) error {
	if r.closed {
		return errorf(ErrMisuse, nil, "Recorder.Do after Close")
	}
	b, err := encMode.Marshal(action)
	if err != nil {
		r.keep(err)
		return errorf(ErrMisuse, err, "encoding the action %T; record plain data", action)
	}
	r.step.Actions = append(r.step.Actions, b)
	return nil
}

// BeforeStep keeps what the owner set for the step (engine.StepHook).
func (r *Recorder) BeforeStep(e *engine.Engine) {
	s := &r.step
	if n := e.Time().Step; n != r.steps {
		r.keep(errorf(ErrMisuse, nil, "the engine went from step %d back to step %d while recording (Rewind or Restore): a recording holds one run from its start; stop recording before rewinding", r.steps, n))
	}
	r.steps++
	if !r.framed {
		r.frame++
	}
	s.Frame, s.FrameDT = r.frame, int64(r.dt)
	r.dt, r.framed = 0, false
	s.Input, s.Camera = *e.Input(), *e.Camera()
	s.Resources = s.Resources[:0]
	for _, x := range r.res {
		b, err := x.save()
		r.keep(err)
		s.Resources = append(s.Resources, b)
	}
}

// AfterStep writes the step with its hash and digests (engine.StepHook).
func (r *Recorder) AfterStep(e *engine.Engine, err error) {
	s := &r.step
	s.Failed = err != nil
	h, herr := r.sim.Digest()
	r.keep(herr)
	s.Hash = h
	s.Digests = s.Digests[:0]
	for _, d := range e.Digests() {
		s.Digests = append(s.Digests, d.Sum)
	}
	r.header(e)
	r.keep(seal(s, &s.Check))
	r.keep(r.enc.Encode(s))
	s.Actions = s.Actions[:0]
}

// keep records the first error, for Close.
func (r *Recorder) keep(err error) {
	if err != nil && r.err == nil {
		r.err = err
	}
}

// Close stops recording: the engine's hook is removed, its digests are
// turned off, and the first error met while recording, if any, is
// returned. It does not close the writer.
func (r *Recorder) Close() error {
	if r.closed {
		return nil
	}
	r.closed = true
	e := r.sim.Engine()
	e.SetStepHook(nil)
	r.header(e)
	r.keep(e.SetDigests(ecs.DigestOff))
	if r.err != nil {
		return errorf(ErrMisuse, r.err, "recording failed")
	}
	return nil
}

func fixedStep(e *engine.Engine) time.Duration {
	return time.Duration(e.Time().DT * float64(time.Second))
}
