package netplay_test

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
	"github.com/weft-engine/weft/netplay"
)

// The test game: bodies in a box, each steered by the player it belongs
// to (its entity id modulo the players), and a shot of new bodies when a
// player fires. Small, so that thousands of steps and their rollbacks run
// in a test's time.

type Pad struct {
	DX, DY int8
	Fire   bool
}

type Body struct{ X, Y, VX, VY float64 }

const boxW, boxH = 400.0, 300.0

type steer struct {
	body ecs.Writer[Body]
	in   ecs.ResReader[netplay.Inputs[Pad]]
	pass *engine.Pass
}

func (s *steer) Name() string                   { return "steer" }
func (s *steer) Schedule(f *engine.Frame) error { return f.Run(s.pass) }
func (s *steer) Build(b *engine.Builder) error {
	d := b.Decl()
	s.body, s.in = ecs.Write[Body](d), ecs.ReadRes[netplay.Inputs[Pad]](d)
	s.pass = b.Chunks("push", ecs.NewQuery1(d, s.body), s.chunk)
	return nil
}

func (s *steer) chunk(c *ecs.Chunk) {
	in := s.in.Get()
	bs, es := s.body.Column(c), c.Entities()
	for i := range bs {
		p := int(es[i].ID()) % netplay.MaxPlayers
		if in.Status[p] != netplay.Playing {
			continue
		}
		bs[i].VX += float64(in.In[p].DX) * 2
		bs[i].VY += float64(in.In[p].DY) * 2
	}
}

type move struct {
	body ecs.Writer[Body]
	pass *engine.Pass
}

func (s *move) Name() string                   { return "move" }
func (s *move) Schedule(f *engine.Frame) error { return f.Run(s.pass) }
func (s *move) Build(b *engine.Builder) error {
	d := b.Decl()
	s.body = ecs.Write[Body](d)
	s.pass = b.Chunks("move", ecs.NewQuery1(d, s.body), s.chunk)
	return nil
}

func (s *move) chunk(c *ecs.Chunk) {
	bs := s.body.Column(c)
	for i := range bs {
		b := &bs[i]
		b.VX, b.VY = b.VX*0.99, b.VY*0.99+0.5
		b.X, b.Y = b.X+b.VX/60, b.Y+b.VY/60
		if b.X < 0 || b.X > boxW {
			b.VX, b.X = -b.VX, min(max(b.X, 0), boxW)
		}
		if b.Y < 0 || b.Y > boxH {
			b.VY, b.Y = -b.VY*0.9, min(max(b.Y, 0), boxH)
		}
	}
}

// fire spawns a body for each player that fires, on the owner.
type fire struct {
	in   *netplay.Inputs[Pad]
	body ecs.Component[Body]
	cmd  *ecs.Commands
}

func (f *fire) Name() string { return "fire" }
func (f *fire) Run(w *ecs.World, t engine.Time) error {
	for p := range netplay.MaxPlayers {
		if f.in.Status[p] == netplay.Playing && f.in.In[p].Fire {
			e := f.cmd.Spawn()
			f.body.Add(f.cmd, e, Body{X: 50 + 100*float64(p), Y: 20, VX: float64(t.Step%7) - 3, VY: 10})
		}
	}
	_, err := w.Apply(f.cmd)
	return err
}

type testGame struct {
	w    *ecs.World
	e    *engine.Engine
	in   *netplay.Inputs[Pad]
	body ecs.Component[Body]
}

func (g *testGame) Engine() *engine.Engine  { return g.e }
func (g *testGame) Tick() error             { return g.e.Tick() }
func (g *testGame) Digest() (uint64, error) { return g.w.Hash(g.body) }

// newTestGame makes the test game with n bodies on workers (0: serial),
// and more systems if given.
func newTestGame(t testing.TB, n, workers int, more ...engine.System) *testGame {
	w := ecs.NewWorld(ecs.Options{})
	g := &testGame{w: w, in: &netplay.Inputs[Pad]{}, body: ecs.NewComponent[Body](w)}
	cmd := w.NewCommands()
	for i := range n {
		e := cmd.Spawn()
		g.body.Add(cmd, e, Body{X: float64(i*37%400) + 0.5, Y: float64(i*53%300) + 0.5, VX: float64(i%11) - 5, VY: float64(i%7) - 3})
	}
	_, err := w.Apply(cmd)
	require.NoError(t, err)
	g.e, err = engine.New(w, engine.Config{Workers: workers, Serial: workers == 0, Batch: 64})
	require.NoError(t, err)
	err = errors.Join(ecs.AddResource(w, g.in),
		g.e.AddExclusive(engine.PreUpdate, &fire{in: g.in, body: g.body, cmd: w.NewCommands()}),
		g.e.Add(engine.Update, &steer{}), g.e.Add(engine.Update, &move{}, engine.After("steer")))
	for _, s := range more {
		err = errors.Join(err, g.e.Add(engine.PostUpdate, s))
	}
	require.NoError(t, errors.Join(err, g.e.Build()))
	t.Cleanup(func() { g.e.Close() })
	return g
}

// padFor is player p's input in step f: it changes every few steps, so
// that predictions are sometimes wrong, and fires now and then.
func padFor(seed uint64, p, f int) Pad {
	h := mix(seed ^ mix(uint64(p)<<32|uint64(f/6)))
	return Pad{DX: int8(h%3) - 1, DY: int8(h/3%3) - 1, Fire: (f+7*p)%97 == 0}
}

// mix is SplitMix64's finaliser.
func mix(x uint64) uint64 {
	x += 0x9E3779B97F4A7C15
	x = (x ^ x>>30) * 0xBF58476D1CE4E5B9
	x = (x ^ x>>27) * 0x94D049BB133111EB
	return x ^ x>>31
}

const stepDur = time.Second / 60
