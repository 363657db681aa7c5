// Command bounce is the smallest whole game on weft, written to be copied:
// balls that bounce in a box for ever, a click that kicks them, and the
// profiler overlay (F3 shows and hides it, F1 lists its keys).
//
// The recipe, in the order this file follows it:
//
//  1. Components are plain structs (Ball, Tint), registered on the world
//     with ecs.NewComponent; a resource (Kick) is a struct the world holds
//     once (ecs.AddResource), which the game sets between steps.
//  2. A system (Bounce) has a Name, a Build that declares what it reads
//     and writes and makes its passes, and a Schedule that runs them every
//     fixed step; a pass's function runs as jobs, one per chunk of
//     entities, on any worker.
//  3. newWorld makes the world, spawns the entities through a command
//     buffer, makes the engine (the zero engine.Config runs a worker for
//     each spare CPU; Config{Serial: true} runs every job on the calling
//     goroutine), adds the systems and builds; newGame makes the overlay
//     with the engine.
//  4. The ebiten.Game: Update calls the overlay's Update first (it reports
//     whether the pointer is on the overlay, and then the click is not the
//     game's), sets the step's inputs, and runs one engine step (Tick);
//     Draw draws the world and then the overlay, last; Layout keeps the
//     screen at 960×600, which main's window shows one pixel a pixel.
//  5. main titles and sizes the window, runs the game, and closes the
//     engine (its workers) at the end.
//
// The lines that embed the overlay are marked "overlay:". Run it with
// go run ./examples/bounce; -steps N -screenshot file saves the last frame
// of an N-step run.
package main

import (
	"errors"
	"flag"
	"fmt"
	"image/color"
	"math/rand/v2"
	"os"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
	"github.com/weft-engine/weft/overlay" // overlay: the package
)

const screenW, screenH, balls = 960, 600, 5000

// Ball is where a ball is and where it goes; Tint picks its sprite.
type Ball struct{ X, Y, VX, VY float64 }
type Tint struct{ I int }

// Kick is the step's click: the balls near it jump.
type Kick struct {
	On   bool
	X, Y float64
}

// Bounce moves the balls under gravity, off the box's walls without
// losing speed, kicks those near a click, and counts the bounces.
type Bounce struct {
	balls ecs.Writer[Ball]
	kick  ecs.ResReader[Kick]
	pass  *engine.Pass
	hits  engine.Counter
}

func (s *Bounce) Name() string                   { return "bounce" }
func (s *Bounce) Schedule(f *engine.Frame) error { return f.Run(s.pass) }
func (s *Bounce) Build(b *engine.Builder) error {
	d := b.Decl()
	s.balls, s.kick = ecs.Write[Ball](d), ecs.ReadRes[Kick](d)
	s.pass, s.hits = b.Chunks("move", ecs.NewQuery1(d, s.balls), s.move), b.Counter("hits")
	return nil
}

// move runs in a job, on one chunk of balls: no other job touches them.
func (s *Bounce) move(c *ecs.Chunk) {
	const dt, g, r = 1.0 / 60, 400, 3
	k, bs, hits := s.kick.Get(), s.balls.Column(c), 0
	for i := range bs {
		b := &bs[i]
		if dx, dy := b.X-k.X, b.Y-k.Y; k.On && dx*dx+dy*dy < 80*80 {
			b.VX, b.VY = b.VX+dx*4, -500
		}
		b.VY += g * dt
		b.X, b.Y = b.X+b.VX*dt, b.Y+b.VY*dt
		if b.X < r || b.X > screenW-r {
			b.VX, b.X, hits = -b.VX, min(max(b.X, r), screenW-r), hits+1
		}
		if b.Y > screenH-r { // the floor gives back what the fall took: they bounce for ever
			b.VY, b.Y, hits = -b.VY, screenH-r, hits+1
		}
	}
	s.hits.Add(c.Worker(), int64(hits))
}

// game is the ebiten.Game: it steps the engine, draws the balls.
type game struct {
	e       *engine.Engine
	w       *ecs.World
	kick    *Kick // the world's resource: set between steps
	sprites [4]*ebiten.Image
	ov      *overlay.Overlay // overlay: the game keeps it
	steps   int              // exit after this many steps (0: when closed)
	shot    string           // where the last frame goes, with steps
}

func (g *game) Update() error {
	onOverlay := g.ov.Update() // overlay: its keys and the pointer, first
	if g.steps > 0 && g.e.Time().Step >= uint64(g.steps) {
		if g.shot == "" {
			return ebiten.Termination
		}
		return nil // the next Draw saves the last frame first
	}
	x, y := ebiten.CursorPosition()
	*g.kick = Kick{On: !onOverlay && inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonLeft), X: float64(x), Y: float64(y)}
	return g.e.Tick() // one fixed step: every system's jobs, then the world is the game's again
}

func (g *game) Draw(screen *ebiten.Image) {
	screen.Fill(color.NRGBA{0x18, 0x1c, 0x28, 0xff})
	var op ebiten.DrawImageOptions
	ents, _ := g.w.Entities()
	for en := range ents { // between steps the owner reads the world
		b, _ := ecs.Get[Ball](g.w, en)
		t, _ := ecs.Get[Tint](g.w, en)
		op.GeoM.SetElement(0, 2, b.X-3)
		op.GeoM.SetElement(1, 2, b.Y-3)
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

// newWorld makes the world of balls, its Kick and the engine that moves
// them.
func newWorld() (*engine.Engine, *ecs.World, *Kick, error) {
	w := ecs.NewWorld(ecs.Options{})
	ball, tint := ecs.NewComponent[Ball](w), ecs.NewComponent[Tint](w)
	kick := &Kick{}
	cmds, r := w.NewCommands(), rand.New(rand.NewPCG(1, 2))
	for range balls {
		b := cmds.Spawn()
		ball.Add(cmds, b, Ball{X: 3 + r.Float64()*(screenW-6), Y: r.Float64() * screenH * 0.6, VX: r.NormFloat64() * 80, VY: r.NormFloat64() * 150})
		tint.Add(cmds, b, Tint{I: r.IntN(4)})
	}
	e, err := engine.New(w, engine.Config{}) // the zero Config: a worker for each spare CPU
	if err != nil {
		return nil, nil, nil, err
	}
	_, err = w.Apply(cmds)
	if err = errors.Join(err, ecs.AddResource(w, kick), e.Add(engine.Update, &Bounce{}), e.Build()); err != nil {
		return nil, nil, nil, errors.Join(err, e.Close())
	}
	return e, w, kick, nil
}

// newGame makes the game: the world, the overlay and the sprites.
func newGame() (*game, error) {
	e, w, kick, err := newWorld()
	if err != nil {
		return nil, err
	}
	g := &game{e: e, w: w, kick: kick, ov: overlay.New(e, overlay.Options{})} // overlay: made with the engine
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
		ebiten.SetWindowTitle("weft: bounce (F3 profiler, F1 keys, click kicks)")
		ebiten.SetWindowSize(screenW, screenH) // one pixel a pixel: the overlay's text at its size
		err = errors.Join(ebiten.RunGame(g), g.e.Close())
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "bounce:", err)
		os.Exit(1)
	}
}
