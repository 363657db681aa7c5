package game

import (
	"math"

	"github.com/weft-engine/weft/engine"
)

// Input is one frame of the player's input as plain data, filled by the
// window (from Ebiten) or by a test.
type Input struct {
	Left, Right, Up, Down bool    // pan keys held
	DragX, DragY          float64 // cursor movement while dragging, in screen pixels
	Wheel                 float64 // wheel steps this frame; up zooms in
	MouseX, MouseY        float64 // cursor, in screen pixels
	Click                 bool    // spawn a burst at the cursor
}

// The camera's limits and speeds.
const (
	PanSpeed  = 12   // screen pixels per frame while a pan key is held
	ZoomStep  = 1.1  // zoom factor per wheel step
	MinZoom   = 0.25 // screen pixels per world unit
	MaxZoom   = 8
	BurstSize = 200 // bodies per click
)

// ApplyInput pans and zooms cam: the pan keys and dragging move the view
// (a drag moves the world with the cursor), the wheel zooms about the
// cursor, keeping the world point under it in place.
func ApplyInput(in Input, cam *engine.Camera) {
	if cam.Zoom <= 0 {
		cam.Zoom = 1
	}
	var dx, dy float64
	if in.Left {
		dx -= PanSpeed
	}
	if in.Right {
		dx += PanSpeed
	}
	if in.Up {
		dy -= PanSpeed
	}
	if in.Down {
		dy += PanSpeed
	}
	dx, dy = dx-in.DragX, dy-in.DragY
	cam.X += dx / cam.Zoom
	cam.Y += dy / cam.Zoom
	if in.Wheel != 0 {
		wx, wy := cam.ToWorld(in.MouseX, in.MouseY)
		cam.Zoom = min(max(cam.Zoom*math.Pow(ZoomStep, in.Wheel), MinZoom), MaxZoom)
		// Put (wx, wy) back under the cursor.
		nx, ny := cam.ToWorld(in.MouseX, in.MouseY)
		cam.X += wx - nx
		cam.Y += wy - ny
	}
}

// HandleInput applies in to the game's camera, keeps the camera's centre
// inside the world, and spawns a burst at the cursor on a click.
func (g *Game) HandleInput(in Input) {
	cam := g.eng.Camera()
	ApplyInput(in, cam)
	cam.X = min(max(cam.X, 0), g.Width)
	cam.Y = min(max(cam.Y, 0), g.Height)
	if in.Click {
		x, y := cam.ToWorld(in.MouseX, in.MouseY)
		g.SpawnBurst(x, y, BurstSize)
	}
}
