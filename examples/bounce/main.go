// Command bounce is the smallest game that embeds weft's overlay: balls
// that fall and bounce in a box, one system, a sprite per colour, and the
// profiler (F3) in the four lines marked "overlay:".
package main

import (
	"errors"
	"flag"
	"fmt"
	"image/color"
	"math/rand/v2"
	"os"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
	"github.com/weft-engine/weft/overlay" // overlay: the package
)

const screenW, screenH, balls = 960, 600, 5000

// Ball is where a ball is and where it goes; Tint picks its sprite.
type Ball struct{ X, Y, VX, VY float64 }
type Tint struct{ I int }

// Bounce moves the balls under gravity, off the box's walls, and counts.
type Bounce struct {
	balls ecs.Writer[Ball]
	pass  *engine.Pass
	hits  engine.Counter
}

func (s *Bounce) Name() string                   { return "bounce" }
func (s *Bounce) Schedule(f *engine.Frame) error { return f.Run(s.pass) }
func (s *Bounce) Build(b *engine.Builder) error {
	d := b.Decl()
	s.balls = ecs.Write[Ball](d)
	s.pass, s.hits = b.Chunks("move", ecs.NewQuery1(d, s.balls), s.move), b.Counter("hits")
	return nil
}

// move runs in a job, on one chunk of balls: no other job touches them.
func (s *Bounce) move(c *ecs.Chunk) {
	const dt, g = 1.0 / 60, 400
	bs, hits := s.balls.Column(c), 0
	for i := range bs {
		b := &bs[i]
		b.VY += g * dt
		b.X, b.Y = b.X+b.VX*dt, b.Y+b.VY*dt
		if b.X < 0 || b.X > screenW-8 {
			b.VX, b.X, hits = -b.VX, min(max(b.X, 0), screenW-8), hits+1
		}
		if b.Y > screenH-8 {
			b.VY, b.Y, hits = -b.VY*0.9, screenH-8, hits+1
		}
	}
	s.hits.Add(c.Worker(), int64(hits))
}

// game is the ebiten.Game: it steps the engine, draws the balls.
type game struct {
	e       *engine.Engine
	w       *ecs.World
	sprites [4]*ebiten.Image
	ov      *overlay.Overlay
	steps   int    // exit after this many steps (0: when closed)
	shot    string // where the last frame goes, with steps
}

func (g *game) Update() error {
	g.ov.Update() // overlay: its keys and the pointer, first
	if g.steps > 0 && g.e.Time().Step >= uint64(g.steps) {
		if g.shot == "" {
			return ebiten.Termination
		}
		return nil // the next Draw saves the last frame first
	}
	return g.e.Tick()
}

func (g *game) Draw(screen *ebiten.Image) {
	screen.Fill(color.NRGBA{0x18, 0x1c, 0x28, 0xff})
	var op ebiten.DrawImageOptions
	ents, _ := g.w.Entities()
	for en := range ents { // between steps the owner reads the world
		b, _ := ecs.Get[Ball](g.w, en)
		t, _ := ecs.Get[Tint](g.w, en)
		op.GeoM.SetElement(0, 2, b.X)
		op.GeoM.SetElement(1, 2, b.Y)
		screen.DrawImage(g.sprites[t.I], &op)
	}
	last := g.steps > 0 && g.e.Time().Step >= uint64(g.steps) && g.shot != ""
	if last {
		g.ov.Refresh() // the screenshot shows its own step's numbers
	}
	g.ov.Draw(screen) // overlay: last, over the game
	if last {
		if err := overlay.SaveScreen(screen, g.shot); err != nil {
			fmt.Fprintln(os.Stderr, "bounce:", err)
		}
		g.shot = ""
	}
}

func (g *game) Layout(int, int) (int, int) { return screenW, screenH }

// newGame makes the world of balls and the engine that moves them.
func newGame() (*game, error) {
	w := ecs.NewWorld(ecs.Options{})
	ball, tint := ecs.NewComponent[Ball](w), ecs.NewComponent[Tint](w)
	cmds, r := w.NewCommands(), rand.New(rand.NewPCG(1, 2))
	for range balls {
		b := cmds.Spawn()
		ball.Add(cmds, b, Ball{X: r.Float64() * screenW, Y: r.Float64() * screenH / 2, VX: r.NormFloat64() * 80})
		tint.Add(cmds, b, Tint{I: r.IntN(4)})
	}
	e, err := engine.New(w, engine.Config{}) // the zero Config: a worker for each spare CPU
	if err != nil {
		return nil, err
	}
	_, err = w.Apply(cmds)
	if err = errors.Join(err, e.Add(engine.Update, &Bounce{}), e.Build()); err != nil {
		return nil, errors.Join(err, e.Close())
	}
	g := &game{e: e, w: w, ov: overlay.New(e, overlay.Options{})} // overlay: made with the engine
	for i, c := range []color.NRGBA{{0xff, 0x70, 0x50, 0xff}, {0x50, 0xc0, 0xff, 0xff}, {0x80, 0xe0, 0x60, 0xff}, {0xf0, 0xd0, 0x40, 0xff}} {
		g.sprites[i] = ebiten.NewImage(6, 6)
		g.sprites[i].Fill(c)
	}
	return g, nil
}

func main() {
	g, err := newGame()
	if err == nil {
		flag.IntVar(&g.steps, "steps", 0, "exit after N steps (0: when closed)")
		flag.StringVar(&g.shot, "screenshot", "", "save the last frame as PNG to `file` (with -steps)")
		flag.Parse()
		err = errors.Join(ebiten.RunGame(g), g.e.Close())
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "bounce:", err)
		os.Exit(1)
	}
}
