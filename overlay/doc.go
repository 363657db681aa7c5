// Package overlay is the in-game profiler any Ebiten game on weft embeds:
// New with the engine, Update first in the game's Update, Draw last in
// its Draw. A whole game, the smallest there is, with the engine and a
// world, and the overlay in the lines marked "overlay:":
//
//	package main
//
//	import (
//		"log"
//
//		"github.com/hajimehoshi/ebiten/v2"
//
//		"github.com/weft-engine/weft/ecs"
//		"github.com/weft-engine/weft/engine"
//		"github.com/weft-engine/weft/overlay"
//	)
//
//	type game struct {
//		e  *engine.Engine
//		ov *overlay.Overlay // overlay: the game keeps it
//	}
//
//	func (g *game) Update() error {
//		if !g.ov.Update() { // overlay: first; true when the pointer is on it
//			g.input() // the clicks and the wheel are the game's
//		}
//		return g.e.Tick() // one fixed step of every system
//	}
//
//	func (g *game) input() {} // read the game's keys and pointer, set the step's inputs
//
//	func (g *game) Draw(screen *ebiten.Image) {
//		// draw the world: g.e.Snapshot(), or the world's entities
//		g.ov.Draw(screen) // overlay: last, over the game
//	}
//
//	func (g *game) Layout(w, h int) (int, int) { return w, h }
//
//	func main() {
//		w := ecs.NewWorld(ecs.Options{})
//		e, err := engine.New(w, engine.Config{}) // a worker for each spare CPU
//		if err != nil {
//			log.Fatal(err)
//		}
//		defer e.Close()
//		// register components, spawn entities, e.Add(stage, system) each system
//		if err := e.Build(); err != nil {
//			log.Fatal(err)
//		}
//		ebiten.SetWindowTitle("my game")
//		g := &game{e: e, ov: overlay.New(e, overlay.Options{})} // overlay: made with the engine
//		if err := ebiten.RunGame(g); err != nil {
//			log.Fatal(err)
//		}
//	}
//
// examples/bounce is the same with balls, a system and a click; the guide
// (docs/writing-a-system.md) writes systems. TestDocProgram compiles this
// program.
//
// F3 shows and hides it (Options.Toggle). It shows the frame (the steps,
// its own cost, GC, the rest), the step's quantiles, a graph of the last
// 400 steps, the systems with their markers and counters, the step time
// predicted for other pool sizes, and one step's timeline: a lane per
// participant, a box per job. Clicking a bar selects its step, and every
// panel then shows that step's values with the window's median beside;
// K holds the shown step as a baseline that the systems table compares
// with; T writes a Chrome trace. Inspect(e) follows an entity in an
// inspector panel, from step to step until released: its components with
// their values and the systems whose declared access reaches it, as
// Engine.Inspect describes them (the game picks the entity: the demo
// takes the body nearest the cursor on I).
//
// # Model
//
// The overlay is a list of panels, each a value of the one Panel type,
// docked at the top, in a left column or at the bottom; a game adds its
// own with Add, and a new built-in panel is one new file (panel_*.go).
// A few times a second, or when the view changes, the overlay lays every
// panel out onto a Canvas, which records what it draws (text boxes,
// rectangles, lines) as a picture: plain data, so that tests check that
// no text leaves the screen or overlaps other text without a display.
// The picture is then painted into a cached image that every frame
// blits; only what follows the cursor (the hovered box, its tooltip) is
// drawn each frame.
//
// Text fits by construction: a Canvas wraps or cuts ("...") every line
// at its panel's edge, a panel that does not fit the space left is left
// out of that repaint, and messages sit on bands of their own.
//
// The overlay reads the engine's timings between steps: every method is
// executed only by Ebiten's game goroutine, which is the engine's owner.
// Besides demo/, this is the only package that imports Ebiten.
package overlay
