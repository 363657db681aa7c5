// Package seek steers entities toward another entity's position: each seeker reads its target's Position through a lookup, wherever the target lives, and turns its Velocity toward it.
package seek

import (
	"math"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
	"github.com/weft-engine/weft/systems"
)

// Seeker chases Target: its velocity turns toward the target at Speed
// world units per second, a share Gain of the difference per second. A
// dead or stale target, or one without a Position, leaves the velocity
// as it is.
type Seeker struct {
	Target      ecs.Entity
	Speed, Gain float64
}

// System is the seek system: one chunk pass over the seekers. It reads
// Position through a lookup (the targets') and as a column (its own), and
// writes Velocity, so it runs after Position's writers and before
// Velocity's next readers; put it in a stage before physics.
type System struct {
	target ecs.LookupReader[systems.Position]
	seeker ecs.Reader[Seeker]
	pos    ecs.Reader[systems.Position]
	vel    ecs.Writer[systems.Velocity]
	time   ecs.ResReader[engine.Time]
	pass   *engine.Pass
}

// New makes the seek system.
func New() *System { return &System{} }

// Name is "seek".
func (s *System) Name() string { return "seek" }

// Build declares the access and the pass.
func (s *System) Build(b *engine.Builder) error {
	d := b.Decl()
	s.target = ecs.ReadLookup[systems.Position](d)
	s.seeker, s.pos, s.vel = ecs.Read[Seeker](d), ecs.Read[systems.Position](d), ecs.Write[systems.Velocity](d)
	s.time = ecs.ReadRes[engine.Time](d)
	s.pass = b.Chunks("steer", ecs.NewQuery3(d, s.seeker, s.pos, s.vel), s.steer)
	return nil
}

// Schedule starts the pass.
func (s *System) Schedule(f *engine.Frame) error { return f.Run(s.pass) }

// steer turns each seeker of chunk c toward its target. Executed by the
// job that owns c.
func (s *System) steer(c *ecs.Chunk) {
	dt := s.time.Get().DT
	sk, p, v := s.seeker.Column(c), s.pos.Column(c), s.vel.Column(c)
	for i := range sk {
		to, ok := s.target.Get(sk[i].Target)
		if !ok {
			continue
		}
		v[i] = Steer(p[i], v[i], to, sk[i].Speed, sk[i].Gain*dt)
	}
}

// Steer is velocity v of a body at p turned toward to: the desired
// velocity points at to with length speed, and v moves a share k (at most
// 1) of the way to it.
func Steer(p systems.Position, v systems.Velocity, to systems.Position, speed, k float64) systems.Velocity {
	dx, dy := to.X-p.X, to.Y-p.Y
	d := math.Hypot(dx, dy)
	if d < 1e-9 {
		return v
	}
	k = min(k, 1)
	wx, wy := dx/d*speed, dy/d*speed
	return systems.Velocity{X: v.X + (wx-v.X)*k, Y: v.Y + (wy-v.Y)*k}
}
