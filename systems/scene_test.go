package systems_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
	"github.com/weft-engine/weft/profile"
	"github.com/weft-engine/weft/systems"
	"github.com/weft-engine/weft/systems/anim"
	"github.com/weft-engine/weft/systems/cull"
	"github.com/weft-engine/weft/systems/physics"
)

// scene is the test and benchmark world: n bodies at constant density,
// a camera of 1280×720 on its centre, the three systems, and optionally a
// churn system that despawns and respawns about 1% of the bodies a step.
type scene struct {
	w    *ecs.World
	eng  *engine.Engine
	prof *profile.Profiler // the steps' timings
	phys *physics.System
	cull *cull.System
}

type comps struct {
	pos   ecs.Component[systems.Position]
	vel   ecs.Component[systems.Velocity]
	body  ecs.Component[systems.Body]
	spr   ecs.Component[systems.Sprite]
	look  ecs.Component[systems.Look]
	anim  ecs.Component[anim.Animation]
	tween ecs.Component[anim.Tween]
	side  float64
}

func newComps(w *ecs.World, side float64) *comps {
	return &comps{ecs.NewComponent[systems.Position](w), ecs.NewComponent[systems.Velocity](w), ecs.NewComponent[systems.Body](w),
		ecs.NewComponent[systems.Sprite](w), ecs.NewComponent[systems.Look](w), ecs.NewComponent[anim.Animation](w), ecs.NewComponent[anim.Tween](w), side}
}

// spawn records one body whose properties come from r.
func (c *comps) spawn(b *ecs.Commands, r *rand.Rand) {
	e := b.Spawn()
	rad := 1.5 + r.Float64()*2 // at most 3.5: cells of 7 hold every touching pair's neighbour
	c.pos.Add(b, e, systems.Position{X: r.Float64() * c.side, Y: r.Float64() * c.side})
	c.vel.Add(b, e, systems.Velocity{X: r.NormFloat64() * 20, Y: r.NormFloat64() * 20})
	c.body.Add(b, e, systems.Body{Radius: rad, Restitution: 0.8})
	c.spr.Add(b, e, systems.Sprite{Sheet: int32(r.IntN(2)), Layer: int32(r.IntN(3)), Sort: int32(r.IntN(1000)), Extent: rad})
	c.look.Add(b, e, systems.Look{Scale: 1, Color: engine.Color{R: 1, G: 1, B: 1, A: 1}})
	switch r.IntN(4) {
	case 0:
		c.anim.Add(b, e, anim.Animation{First: 0, Frames: 8, FPS: 12})
	case 1:
		c.tween.Add(b, e, anim.Tween{Prop: anim.TweenScale, Ease: anim.Ease(r.IntN(10)), Repeat: anim.PingPong, From: [4]float64{1}, To: [4]float64{1.5}, Duration: 0.5 + r.Float64()})
	case 2:
		c.tween.Add(b, e, anim.Tween{Prop: anim.TweenColor, Ease: anim.CubicInOut, Repeat: anim.Once, From: [4]float64{1, 1, 1, 0}, To: [4]float64{1, 0.5, 0.2, 1}, Duration: r.Float64() * 2})
	}
}

// gravity is the scene's: tests pile bodies up under it (many contacts);
// benchmarks run without it, at a steady, uniform density.
func newScene(t testing.TB, n int, cfg engine.Config, churn bool) *scene {
	return newSceneG(t, n, cfg, churn, 8)
}

func newSceneG(t testing.TB, n int, cfg engine.Config, churn bool, gravity float64) *scene {
	w := ecs.NewWorld(ecs.Options{})
	side := math.Sqrt(float64(n)) * 8
	c := newComps(w, side)
	setup := w.NewCommands()
	r := rand.New(rand.NewPCG(1, 2))
	for range n {
		c.spawn(setup, r)
	}
	_, err := w.Apply(setup)
	require.NoError(t, err)
	eng, err := engine.New(w, cfg)
	require.NoError(t, err)
	t.Cleanup(func() { eng.Close() })
	*eng.Camera() = engine.Camera{X: side / 2, Y: side / 2, W: 1280, H: 720, Zoom: 1}
	s := &scene{w: w, eng: eng, phys: physics.New(physics.Config{Gravity: gravity, Damping: 0.05, CellSize: 7, MaxX: side, MaxY: side}), cull: cull.New()}
	if churn {
		require.NoError(t, eng.Add(engine.PreUpdate, &churner{c: c}))
	}
	require.NoError(t, eng.Add(engine.Update, s.phys))
	require.NoError(t, eng.Add(engine.Update, anim.New(), engine.After("physics")))
	require.NoError(t, eng.Add(engine.PreRender, s.cull))
	require.NoError(t, eng.Build())
	s.prof = profile.New(eng, profile.Options{})
	return s
}

// churner despawns about 1% of the bodies each step and spawns as many,
// chosen and shaped by a hash of (entity, step): the same for every run.
type churner struct {
	c    *comps
	pos  ecs.Reader[systems.Position]
	time ecs.ResReader[engine.Time]
	pass *engine.Pass
}

func (s *churner) Name() string { return "churn" }

func (s *churner) Build(b *engine.Builder) error {
	d := b.Decl()
	s.pos, s.time = ecs.Read[systems.Position](d), ecs.ReadRes[engine.Time](d)
	b.Commands()
	s.pass = b.Chunks("churn", ecs.NewQuery1(d, s.pos), func(c *ecs.Chunk) {
		step := s.time.Get().Step
		for _, e := range c.Entities() {
			h := uint64(e.ID())*0x9E3779B97F4A7C15 ^ step*0xBF58476D1CE4E5B9
			if h%100 != 0 {
				continue
			}
			b := c.Commands()
			b.Despawn(e)
			s.c.spawn(b, rand.New(rand.NewPCG(h, step)))
		}
	})
	return nil
}

func (s *churner) Schedule(f *engine.Frame) error { return f.Run(s.pass) }

// hash is a digest of every body (ecs.World.Hash) and of the published
// draw list.
func (s *scene) hash(t testing.TB) uint64 {
	w := s.w
	world, err := w.Hash(ecs.NewComponent[systems.Position](w), ecs.NewComponent[systems.Velocity](w),
		ecs.NewComponent[systems.Sprite](w), ecs.NewComponent[systems.Look](w))
	require.NoError(t, err)
	h := world
	for _, it := range s.eng.Snapshot().Items { // FNV-style mixing of the draw list
		h = (h ^ it.Entity) * 0x100000001b3
		h = (h ^ math.Float64bits(it.X)) * 0x100000001b3
	}
	return h
}
