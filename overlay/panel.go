package overlay

import (
	"image"

	"github.com/hajimehoshi/ebiten/v2"
)

// Dock is where a panel sits: panels of a dock stack in the order they
// were added.
type Dock int

const (
	Top    Dock = iota // across the screen, from the top down
	Left               // a column on the left, under the top panels
	Bottom             // across the screen, from the bottom up
)

// Panel is one part of the overlay: the frame and step lines, the graph,
// the systems table, the timeline, and any panel a game adds with
// Overlay.Add are all values of this type, so that a new panel is one new
// file. Its functions are executed only by Ebiten's game goroutine.
type Panel struct {
	Name string
	Dock Dock
	// Layout draws the panel on c at each repaint (a few times a second,
	// or when the view changes) and returns the height it used. A panel
	// taller than c.H is left out of that repaint.
	Layout func(c *Canvas) int
	// Input, if set, takes the pointer over the panel, in the panel's
	// coordinates, and reports whether it used it (the game then ignores
	// that click or wheel).
	Input func(p Pointer) bool
	// Draw, if set, draws on the screen every frame, over the repainted
	// picture: what follows the cursor. r is the panel's area.
	Draw func(screen *ebiten.Image, r image.Rectangle, mx, my int)
}

// Pointer is the mouse over a panel this frame.
type Pointer struct {
	X, Y       int     // in the panel's coordinates
	Wheel      float64 // up is positive
	Click      bool    // the left button went down this frame
	Held       bool    // the left button is down
	RightClick bool    // the right button went down this frame
}

// placed is a panel with its area at the last layout (empty: left out).
type placed struct {
	Panel
	r image.Rectangle
}
