// Command fireworks is a particle toy on weft, built as examples/bounce
// is, with four systems and an event: rockets rise (fly moves every body
// under gravity); at the top of its flight a rocket bursts (fuse emits a
// Burst event from its chunk jobs and despawns the rocket through its
// chunk's command buffer) into a ring of sparks (explode reads the step's
// events, in the order emitted, and spawns the sparks from one job) that
// fall and fade (fade despawns the burnt-out ones). A click launches a
// rocket; F3 shows the overlay; -steps N -screenshot file saves the last
// frame of an N-step run.
package main

import (
	"errors"
	"flag"
	"fmt"
	"image/color"
	"math"
	"math/rand/v2"
	"os"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
	"github.com/weft-engine/weft/overlay"
)

// The screen, gravity (pixels/s²), sparks a burst, steps between rockets.
const screenW, screenH, gravity, ring, launchEvery = 960, 600, 120, 180, 12

// The components: where a rocket or a spark is and goes, a rocket's
// colour (hues[Hue]), a spark fading out over Life seconds; and the event
// of a rocket bursting at (X, Y).
type (
	Body   struct{ X, Y, VX, VY float64 }
	Rocket struct{ Hue float64 }
	Spark  struct{ Age, Life, Hue float64 }
	Burst  struct{ X, Y, Hue float64 }
)

// hues are the bursts' colours; a rocket is drawn white (the last).
var hues = [...]color.NRGBA{{0xff, 0x50, 0x40, 0xff}, {0xff, 0xc0, 0x30, 0xff}, {0x60, 0xf0, 0x70, 0xff}, {0x40, 0xc0, 0xff, 0xff}, {0xc0, 0x70, 0xff, 0xff}, {0xff, 0xff, 0xff, 0xff}}

// fly moves every body under gravity.
type fly struct {
	body ecs.Writer[Body]
	pass *engine.Pass
}

func (s *fly) Name() string                   { return "fly" }
func (s *fly) Schedule(f *engine.Frame) error { return f.Run(s.pass) }
func (s *fly) Build(b *engine.Builder) error {
	d := b.Decl()
	s.body = ecs.Write[Body](d)
	s.pass = b.Chunks("move", ecs.NewQuery1(d, s.body), func(c *ecs.Chunk) {
		for i, bs := 0, s.body.Column(c); i < len(bs); i++ {
			bs[i].VY += gravity / 60
			bs[i].X, bs[i].Y = bs[i].X+bs[i].VX/60, bs[i].Y+bs[i].VY/60
		}
	})
	return nil
}

// fuse bursts the rockets that stopped rising.
type fuse struct {
	body   ecs.Reader[Body]
	rocket ecs.Reader[Rocket]
	burst  ecs.Emitter[Burst]
	pass   *engine.Pass
}

func (s *fuse) Name() string                   { return "fuse" }
func (s *fuse) Schedule(f *engine.Frame) error { return f.Run(s.pass) }
func (s *fuse) Build(b *engine.Builder) error {
	d := b.Decl()
	s.body, s.rocket, s.burst = ecs.Read[Body](d), ecs.Read[Rocket](d), ecs.Emit[Burst](d)
	b.Commands()
	s.pass = b.Chunks("light", ecs.NewQuery2(d, s.body, s.rocket), func(c *ecs.Chunk) {
		bs, rs, ents := s.body.Column(c), s.rocket.Column(c), c.Entities()
		for i := range bs {
			if bs[i].VY >= 0 { // the top of its flight
				s.burst.Emit(c, Burst{X: bs[i].X, Y: bs[i].Y, Hue: rs[i].Hue})
				c.Commands().Despawn(ents[i])
			}
		}
	})
	return nil
}

// explode spawns a ring of sparks at each burst.
type explode struct {
	d      *ecs.Decl
	bursts ecs.EventReader[Burst]
	body   ecs.Component[Body]
	spark  ecs.Component[Spark]
	pass   *engine.Pass
	buf    *ecs.Commands
}

func (s *explode) Name() string { return "explode" }
func (s *explode) Build(b *engine.Builder) error {
	s.d = b.Decl()
	s.bursts = ecs.ReadEvents[Burst](s.d)
	s.body, s.spark = ecs.NewComponent[Body](b.World()), ecs.NewComponent[Spark](b.World())
	b.Commands()
	s.pass = b.Range("spawn", func(int, int) { // one job, after every emitter of Burst
		for k, ev := range s.bursts.Events() {
			r := rand.New(rand.NewPCG(math.Float64bits(ev.X), math.Float64bits(ev.Y)+uint64(k)))
			for i := range ring {
				a, v := 2*math.Pi*float64(i)/ring, 30+r.Float64()*70
				e := s.buf.Spawn()
				s.body.Add(s.buf, e, Body{X: ev.X, Y: ev.Y, VX: v * math.Cos(a), VY: v * math.Sin(a)})
				s.spark.Add(s.buf, e, Spark{Life: 1.2 + r.Float64(), Hue: ev.Hue})
			}
		}
	})
	return nil
}

func (s *explode) Schedule(f *engine.Frame) error {
	s.buf = s.d.Commands(0) // made on the owner, for the job
	return f.RunRange(s.pass, 1, 1)
}

// fade ages the sparks and despawns the burnt-out ones.
type fade struct {
	spark ecs.Writer[Spark]
	pass  *engine.Pass
}

func (s *fade) Name() string                   { return "fade" }
func (s *fade) Schedule(f *engine.Frame) error { return f.Run(s.pass) }
func (s *fade) Build(b *engine.Builder) error {
	d := b.Decl()
	s.spark = ecs.Write[Spark](d)
	b.Commands()
	s.pass = b.Chunks("age", ecs.NewQuery1(d, s.spark), func(c *ecs.Chunk) {
		sp, ents := s.spark.Column(c), c.Entities()
		for i := range sp {
			if sp[i].Age += 1.0 / 60; sp[i].Age > sp[i].Life {
				c.Commands().Despawn(ents[i])
			}
		}
	})
	return nil
}

// game is the ebiten.Game: it launches rockets, steps, draws.
type game struct {
	e      *engine.Engine
	dot    *ebiten.Image
	ov     *overlay.Overlay
	steps  int    // exit after this many steps (0: when closed)
	shot   string // where the last frame goes, with steps
	launch func(x float64) error
}

func (g *game) Update() error {
	onOverlay := g.ov.Update()
	if g.steps > 0 && g.e.Time().Step >= uint64(g.steps) {
		if g.shot == "" {
			return ebiten.Termination
		}
		return nil // the next Draw saves the last frame first
	}
	var err error
	if x, _ := ebiten.CursorPosition(); !onOverlay && inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonLeft) {
		err = g.launch(float64(x)) // not a click on the overlay
	}
	if g.e.Time().Step%launchEvery == 0 {
		err = errors.Join(err, g.launch(80+rand.Float64()*(screenW-160)))
	}
	return errors.Join(err, g.e.Tick())
}

func (g *game) Draw(screen *ebiten.Image) {
	screen.Fill(color.NRGBA{0x08, 0x0a, 0x18, 0xff})
	w := g.e.World()
	ents, _ := w.Entities()
	for en := range ents { // between steps the owner reads the world
		b, _ := ecs.Get[Body](w, en)
		c, alpha := hues[len(hues)-1], float32(1)
		if s, err := ecs.Get[Spark](w, en); err == nil {
			c, alpha = hues[int(s.Hue)], float32(1-s.Age/s.Life)
		}
		var op ebiten.DrawImageOptions
		op.GeoM.Translate(b.X-1.5, b.Y-1.5)
		op.ColorScale.ScaleWithColor(c)
		op.ColorScale.ScaleAlpha(alpha)
		screen.DrawImage(g.dot, &op)
	}
	last := g.steps > 0 && g.e.Time().Step >= uint64(g.steps) && g.shot != ""
	if last {
		g.ov.Refresh() // the screenshot shows its own step's numbers
	}
	g.ov.Draw(screen)
	if last {
		if err := overlay.SaveScreen(screen, g.shot); err != nil {
			fmt.Fprintln(os.Stderr, "fireworks:", err)
		}
		g.shot = ""
	}
}

func (g *game) Layout(int, int) (int, int) { return screenW, screenH }

// newWorld makes the world, the engine with the four systems, and the
// function that launches a rocket from x on the ground, between steps.
func newWorld() (*engine.Engine, func(x float64) error, error) {
	w := ecs.NewWorld(ecs.Options{})
	body, rocket := ecs.NewComponent[Body](w), ecs.NewComponent[Rocket](w)
	e, err := engine.New(w, engine.Config{})
	if err != nil {
		return nil, nil, err
	}
	err = errors.Join(e.Add(engine.Update, &fly{}), e.Add(engine.Update, &fuse{}, engine.After("fly")),
		e.Add(engine.PostUpdate, &explode{}), e.Add(engine.PostUpdate, &fade{}), e.Build())
	if err != nil {
		return nil, nil, errors.Join(err, e.Close())
	}
	r, cmds := rand.New(rand.NewPCG(3, 4)), w.NewCommands()
	launch := func(x float64) error {
		en := cmds.Spawn()
		body.Add(cmds, en, Body{X: x, Y: screenH, VX: r.NormFloat64() * 20, VY: -260 - r.Float64()*80})
		rocket.Add(cmds, en, Rocket{Hue: float64(r.IntN(len(hues) - 1))})
		_, err := w.Apply(cmds) // between steps: the rocket flies from the next step
		return err
	}
	return e, launch, nil
}

func main() {
	e, launch, err := newWorld()
	if err == nil {
		g := &game{e: e, launch: launch, dot: ebiten.NewImage(3, 3), ov: overlay.New(e, overlay.Options{})}
		g.dot.Fill(color.White)
		flag.IntVar(&g.steps, "steps", 0, "exit after N steps (0: when closed)")
		flag.StringVar(&g.shot, "screenshot", "", "save the last frame as PNG to `file` (with -steps)")
		flag.Parse()
		ebiten.SetWindowTitle("weft: fireworks (click launches, F3 profiler, F1 keys)")
		ebiten.SetWindowSize(screenW, screenH)
		err = errors.Join(ebiten.RunGame(g), e.Close())
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "fireworks:", err)
		os.Exit(1)
	}
}
