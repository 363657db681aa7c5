package game

import (
	"math"
	"math/rand/v2"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
	"github.com/weft-engine/weft/systems"
	"github.com/weft-engine/weft/systems/anim"
)

// Spark marks the sparks, which live a moment and are not replaced.
type Spark struct{}

// Landed is the event of a body hitting the floor hard.
type Landed struct {
	X, Y, Speed float64
}

// Sparks are spawned for each landing, at most this many a step.
const (
	sparksPerLanding = 4
	maxSparks        = 64
	landingSpeed     = 30  // world units/s: slower hits do not count
	minLandingRadius = 1.5 // sparks are smaller: they never land
)

// landing emits a Landed event for every body that bounced off the floor
// in this step's physics: physics leaves it exactly on the floor, moving
// up fast.
type landing struct {
	floor  float64
	pos    ecs.Reader[systems.Position]
	vel    ecs.Reader[systems.Velocity]
	body   ecs.Reader[systems.Body]
	landed ecs.Emitter[Landed]
	pass   *engine.Pass
}

func (s *landing) Name() string { return "landing" }

func (s *landing) Build(b *engine.Builder) error {
	d := b.Decl()
	s.pos, s.vel, s.body = ecs.Read[systems.Position](d), ecs.Read[systems.Velocity](d), ecs.Read[systems.Body](d)
	s.landed = ecs.Emit[Landed](d)
	s.pass = b.Chunks("detect", ecs.NewQuery3(d, s.pos, s.vel, s.body), s.chunk)
	return nil
}

func (s *landing) Schedule(f *engine.Frame) error { return f.Run(s.pass) }

// chunk runs as a job: it emits into its chunk's own event buffer.
func (s *landing) chunk(c *ecs.Chunk) {
	pos, vel, body := s.pos.Column(c), s.vel.Column(c), s.body.Column(c)
	for i := range pos {
		r := body[i].Radius
		if r >= minLandingRadius && pos[i].Y == s.floor-r && -vel[i].Y > landingSpeed {
			s.landed.Emit(c, Landed{X: pos[i].X, Y: s.floor, Speed: -vel[i].Y})
		}
	}
}

// sparks reads the step's Landed events and spawns short-lived sparks at
// each, from one job into its system's command buffer. Seeds come from
// (step, event number), so the sparks are the same for every worker count.
type sparks struct {
	c      *comps
	tag    ecs.Component[Spark]
	d      *ecs.Decl
	landed ecs.EventReader[Landed]
	time   ecs.ResReader[engine.Time]
	pass   *engine.Pass
	buf    *ecs.Commands
	src    *rand.PCG
	rng    *rand.Rand

	Last, Total int // landings read: the last step, and since the start
}

func newSparks(w *ecs.World, c *comps) *sparks {
	src := rand.NewPCG(0, 0)
	return &sparks{c: c, tag: ecs.NewComponent[Spark](w), src: src, rng: rand.New(src)}
}

func (s *sparks) Name() string { return "sparks" }

func (s *sparks) Build(b *engine.Builder) error {
	s.d = b.Decl()
	s.landed = ecs.ReadEvents[Landed](s.d)
	s.time = ecs.ReadRes[engine.Time](s.d)
	b.Commands()
	s.pass = b.Range("spawn", s.spawn)
	return nil
}

// Schedule hands the job its buffer (made on the owner) and starts it.
func (s *sparks) Schedule(f *engine.Frame) error {
	s.buf = s.d.Commands(0)
	return f.RunRange(s.pass, 1, 1)
}

// spawn runs as one job, after every emitter of Landed.
func (s *sparks) spawn(lo, hi int) {
	step := s.time.Get().Step
	n := 0
	for k, ev := range s.landed.Events() {
		s.src.Seed(step, uint64(k))
		for range sparksPerLanding {
			if n == maxSparks {
				return
			}
			n++
			s.spark(ev)
		}
	}
}

// spark records one spark flying up from ev.
func (s *sparks) spark(ev Landed) {
	r, c, b := s.rng, s.c, s.buf
	a := math.Pi + r.Float64()*math.Pi // upwards: y grows downwards
	v := ev.Speed * (0.4 + r.Float64()*0.6)
	span := 0.4 + r.Float64()*0.5
	e := b.Spawn()
	c.pos.Add(b, e, systems.Position{X: ev.X, Y: ev.Y - 1})
	c.vel.Add(b, e, systems.Velocity{X: v * math.Cos(a), Y: v * math.Sin(a)})
	c.body.Add(b, e, systems.Body{Radius: 0.6, Restitution: 0.3})
	c.fading(b, e, 0.6, 0.5, [4]float64{1, 0.8, 0.2, 1}, [4]float64{1, 0.2, 0, 0}, span)
	s.tag.Add(b, e, Spark{})
}

// fading gives the spawned entity e a sprite of extent and scale whose
// colour goes linearly from one to to over span seconds, when it
// expires: a spark, a puff. Called by the job or observer that records
// into b.
func (c *comps) fading(b *ecs.Commands, e ecs.Entity, extent, scale float64, from, to [4]float64, span float64) {
	c.spr.Add(b, e, systems.Sprite{Sheet: 0, Layer: sheets, Extent: extent})
	c.look.Add(b, e, systems.Look{Scale: scale, Color: engine.Color{R: float32(from[0]), G: float32(from[1]), B: float32(from[2]), A: float32(from[3])}})
	c.tween.Add(b, e, anim.Tween{Prop: anim.TweenColor, Ease: anim.Linear, Repeat: anim.Once, From: from, To: to, Duration: span})
	c.life.Add(b, e, Life{Span: span})
}

// Merge counts the landings.
func (s *sparks) Merge(f *engine.Frame) error {
	s.Last = len(s.landed.Events())
	s.Total += s.Last
	return nil
}
