package replay

import (
	"slices"
	"time"

	"github.com/weft-engine/weft/ecs"
)

// Player plays a recording into a Sim step by step: before each step it
// sets what was recorded (Input, Camera, the tracked resources, the
// owner's actions), runs it, and checks the step's world hash and the
// systems' digests against the recording. Every method is executed only
// by the owner, between steps.
type Player struct {
	rec  *Recording
	sim  Sim
	res  []Resource
	next int // the index of the next step
}

// NewPlayer prepares to play rec into s, which must be the game that
// recorded it, freshly made from the recording's Meta: the same systems,
// fixed step and tracked resources (else WEFT-R003). It turns the engine's
// digests on, unless they capture already. The worker count and batch
// size may be any.
func NewPlayer(rec *Recording, s Sim) (*Player, error) {
	e := s.Engine()
	h := &rec.Header
	p := &Player{rec: rec, sim: s, res: s.Resources()}
	switch {
	case time.Duration(h.FixedStep) != fixedStep(e):
		return nil, errorf(ErrMismatch, nil, "the recording's fixed step is %v, the engine's %v; make the engine with the recording's (engine.Config.FixedStep)", time.Duration(h.FixedStep), fixedStep(e))
	case !slices.Equal(h.Resources, names(p.res)):
		return nil, errorf(ErrMismatch, nil, "the recording tracks the resources %q, the game %q; play it into the game that recorded it", h.Resources, names(p.res))
	}
	if err := e.SetDigests(ecs.DigestOn); err != nil {
		return nil, errorf(ErrMisuse, err, "NewPlayer during a step; make it between steps")
	}
	return p, nil
}

func names(rs []Resource) []string {
	var n []string
	for _, r := range rs {
		n = append(n, r.Name)
	}
	return n
}

// Len is the number of recorded steps; Done reports whether all ran.
func (p *Player) Len() int { return len(p.rec.Steps) }

// Done reports whether every recorded step has been played.
func (p *Player) Done() bool { return p.next >= len(p.rec.Steps) }

// Played is the number of steps played so far.
func (p *Player) Played() int { return p.next }

// Step plays the next recorded step. A step whose world hash or digests
// differ from the recording's answers WEFT-R004 with a Divergence naming
// the step and the first system (in the order the systems ran) whose writes differ;
// the Sim is then one step past the divergence. After the last step it
// answers WEFT-R005.
func (p *Player) Step() error {
	if p.Done() {
		return errorf(ErrMisuse, nil, "Player.Step after the last of %d steps; check Done", len(p.rec.Steps))
	}
	want := &p.rec.Steps[p.next]
	hash, failed, err := p.play()
	if err != nil {
		return err
	}
	if d := p.compare(want, hash); d != nil {
		return d.err()
	}
	if failed != want.Failed {
		return errorf(ErrDiverged, nil, "step %d failed=%v when played, failed=%v when recorded; its world hash and digests agree: a system's error depends on something besides its inputs", p.next, failed, want.Failed)
	}
	return nil
}

// Frame plays the steps of the next recorded frame (the steps one
// Engine.Step call ran when recording), as a window shows them, and
// returns how many it played and the frame's real time when recorded.
func (p *Player) Frame() (int, time.Duration, error) {
	if p.Done() {
		return 0, 0, nil
	}
	f, dt := p.rec.Steps[p.next].Frame, time.Duration(p.rec.Steps[p.next].FrameDT)
	n := 0
	for !p.Done() && p.rec.Steps[p.next].Frame == f {
		n++
		if err := p.Step(); err != nil {
			return n, dt, err
		}
	}
	return n, dt, nil
}

// play runs the next step with what entered it when it was recorded, and
// returns its world hash and whether it failed. Its first step checks
// that the game has the recorded systems.
func (p *Player) play() (hash uint64, failed bool, err error) {
	s := &p.rec.Steps[p.next]
	p.next++
	if err := p.prepare(s); err != nil {
		return 0, false, err
	}
	failed = p.sim.Tick() != nil
	if p.next == 1 {
		if err := p.checkSystems(); err != nil {
			return 0, failed, err
		}
	}
	hash, err = p.sim.Digest()
	if err != nil {
		return 0, failed, errorf(ErrMismatch, err, "hashing the world after step %d", p.next)
	}
	return hash, failed, nil
}

// checkSystems refuses a game whose systems are not the recorded ones,
// whose digests would be compared with another system's.
func (p *Player) checkSystems() error {
	var got []string
	for _, d := range p.sim.Engine().Digests() {
		got = append(got, d.System)
	}
	if want := p.rec.Header.Systems; len(p.rec.Steps[0].Digests) > 0 && !slices.Equal(want, got) {
		return errorf(ErrMismatch, nil, "the recording's systems are %q, the game's %q; play it into the game that recorded it", want, got)
	}
	return nil
}

// prepare sets what entered the step when it was recorded.
func (p *Player) prepare(s *Step) error {
	e := p.sim.Engine()
	*e.Input(), *e.Camera() = s.Input, s.Camera
	for i, r := range p.res {
		if err := r.load(s.Resources[i]); err != nil {
			return errorf(ErrBadFile, err, "step %d: resource %q does not decode", p.next, r.Name)
		}
	}
	for _, a := range s.Actions {
		if err := p.sim.Do(a); err != nil {
			return errorf(ErrMismatch, err, "step %d: the game refused a recorded action", p.next)
		}
	}
	return nil
}

// compare is the divergence of the played step from the recorded one,
// or nil.
func (p *Player) compare(want *Step, hash uint64) *Divergence {
	d := &Divergence{Step: uint64(p.next), WantHash: want.Hash, GotHash: hash}
	got := p.sim.Engine().Digests()
	for i, sum := range want.Digests {
		if i < len(got) && got[i].Sum != sum {
			d.System = got[i].System
			return d
		}
	}
	if hash != want.Hash {
		return d
	}
	return nil
}

// Verify plays every step of rec into s and returns the first divergence
// (WEFT-R004), or nil when every step's hash and digests agree.
func Verify(rec *Recording, s Sim) error {
	p, err := NewPlayer(rec, s)
	if err != nil {
		return err
	}
	for !p.Done() {
		if err := p.Step(); err != nil {
			return err
		}
	}
	return nil
}
