// Package overlay is the in-game profiler any Ebiten game on weft embeds:
//
//	ov := overlay.New(e, overlay.Options{}) // with the engine
//	ov.Update()                             // first in the game's Update
//	ov.Draw(screen)                         // last in the game's Draw
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
