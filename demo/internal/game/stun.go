package game

import (
	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
	"github.com/weft-engine/weft/systems"
	"github.com/weft-engine/weft/systems/seek"
)

// Alert is an enableable component of the seekers: on while a seeker
// hunts, switched off while it is stunned, for Left more steps. A
// seeker near a landing, whose sparks fly at it, is stunned: drawn in
// stunnedColor, it stops where it is until it recovers. Switching it is
// a write from the stun system's jobs, not a structural change: the
// seeker stays in its table.
type Alert struct{ Left int32 }

// What a stun is.
const (
	stunSteps  = 90 // 1.5 s at 60 steps a second
	stunRadius = 40 // world units from a landing
)

// The seekers' colours: hunting, and stunned.
var (
	seekerColor  = engine.Color{R: 1, G: 0.25, B: 0.2, A: 1}
	stunnedColor = engine.Color{R: 0.3, G: 0.7, B: 1, A: 1}
)

// stun stuns the seekers near the last step's landings and counts the
// stunned down, from chunk jobs over the seekers: a stunned seeker's
// velocity is held at zero after seek steered it, so that it does not
// move; a seeker that recovers gets its colour back. It reads the
// landings in the order they were emitted and writes only its rows, so
// the result is the same for every worker count and batch size.
type stun struct {
	alert  ecs.EnabledWriter[Alert]
	left   ecs.Writer[Alert]
	pos    ecs.Reader[systems.Position]
	vel    ecs.Writer[systems.Velocity]
	look   ecs.Writer[systems.Look]
	landed ecs.EventReader[Landed]
	pass   *engine.Pass
}

func (s *stun) Name() string { return "stun" }

func (s *stun) Build(b *engine.Builder) error {
	d := b.Decl()
	s.alert, s.left = ecs.WriteEnabled[Alert](d), ecs.Write[Alert](d)
	s.pos, s.vel, s.look = ecs.Read[systems.Position](d), ecs.Write[systems.Velocity](d), ecs.Write[systems.Look](d)
	s.landed = ecs.ReadEvents[Landed](d)
	q := ecs.NewQuery4(d, s.left, s.pos, s.vel, s.look, ecs.With[seek.Seeker]())
	s.pass = b.Chunks("stun", q, s.chunk)
	return nil
}

func (s *stun) Schedule(f *engine.Frame) error { return f.Run(s.pass) }

// chunk runs as a job: the stunned rows count down (and recover), then
// the hunting rows near a landing are stunned.
func (s *stun) chunk(c *ecs.Chunk) {
	left, pos, vel, look := s.left.Column(c), s.pos.Column(c), s.vel.Column(c), s.look.Column(c)
	for _, i := range s.alert.Off(c) {
		if left[i].Left--; left[i].Left <= 0 {
			s.alert.Set(c, i, true)
			look[i].Color = seekerColor
			continue
		}
		vel[i] = systems.Velocity{}
	}
	events := s.landed.Events()
	if len(events) == 0 {
		return
	}
	for i := range s.alert.Each(c) {
		if !nearLanding(pos[i], events) {
			continue
		}
		s.alert.Set(c, i, false)
		left[i].Left = stunSteps
		vel[i] = systems.Velocity{}
	}
}

// stunLook draws the stunned seekers in stunnedColor, after anim, whose
// colour tweens would paint over it. It visits only the rows whose Alert
// is off.
type stunLook struct {
	alert ecs.EnabledReader[Alert]
	look  ecs.Writer[systems.Look]
	pass  *engine.Pass
}

func (s *stunLook) Name() string { return "stun-look" }

func (s *stunLook) Build(b *engine.Builder) error {
	d := b.Decl()
	s.alert, s.look = ecs.ReadEnabled[Alert](d), ecs.Write[systems.Look](d)
	s.pass = b.Chunks("tint", ecs.NewQuery1(d, s.look, ecs.With[Alert]()), func(c *ecs.Chunk) {
		look := s.look.Column(c)
		for _, i := range s.alert.Off(c) {
			look[i].Color = stunnedColor
		}
	})
	return nil
}

func (s *stunLook) Schedule(f *engine.Frame) error { return f.Run(s.pass) }

// nearLanding reports whether p is within stunRadius of a landing.
func nearLanding(p systems.Position, events []Landed) bool {
	for _, ev := range events {
		dx, dy := p.X-ev.X, p.Y-ev.Y
		if dx*dx+dy*dy <= stunRadius*stunRadius {
			return true
		}
	}
	return false
}

// Stunned is the number of seekers stunned now. Executed only by the
// owner, between steps.
func (g *Game) Stunned() (int, error) {
	seekers, err := g.w.Entities(ecs.NewComponent[Alert](g.w))
	if err != nil {
		return 0, err
	}
	n := 0
	for e := range seekers {
		on, err := ecs.IsEnabled[Alert](g.w, e)
		if err != nil {
			return 0, err
		}
		if !on {
			n++
		}
	}
	return n, nil
}
