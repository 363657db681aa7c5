package engine

// Time is the simulation clock, an ecs resource: systems declare
// ecs.ReadRes[engine.Time] and read it in their jobs. The engine writes it
// on the owner before each fixed step.
type Time struct {
	Step    uint64  // fixed steps run so far, this one included
	DT      float64 // the fixed step, in seconds
	Elapsed float64 // simulated seconds at the end of this step: Step·DT
	Alpha   float64 // after Step: the unsimulated fraction of a step, for interpolation
}

// Input is the player's input as plain data, an ecs resource. The game
// fills it (from Ebiten or anything else) before Step; key codes are the
// game's own.
type Input struct {
	Down, Pressed  [4]uint64 // key bitsets: held, and went down this frame
	MouseX, MouseY float64   // cursor in screen pixels
	Buttons        uint8     // mouse buttons held, bit i for button i
	Clicked        uint8     // mouse buttons that went down this frame
	Wheel          float64
}

// Key reports whether key k (0..255) is held.
func (in *Input) Key(k int) bool { return k >= 0 && k < 256 && in.Down[k>>6]&(1<<(k&63)) != 0 }

// SetKey records whether key k (0..255) is held.
func (in *Input) SetKey(k int, down bool) {
	if k < 0 || k >= 256 {
		return
	}
	if down {
		in.Down[k>>6] |= 1 << (k & 63)
	} else {
		in.Down[k>>6] &^= 1 << (k & 63)
	}
}

// Camera is the view, an ecs resource: a centre in world units, a
// viewport in screen pixels and a zoom (screen pixels per world unit).
type Camera struct {
	X, Y float64
	W, H float64
	Zoom float64
}

// Rect is the world rectangle the camera sees.
func (c Camera) Rect() (minX, minY, maxX, maxY float64) {
	z := c.Zoom
	if z <= 0 {
		z = 1
	}
	hw, hh := c.W/(2*z), c.H/(2*z)
	return c.X - hw, c.Y - hh, c.X + hw, c.Y + hh
}

// ToWorld maps a screen point to world coordinates.
func (c Camera) ToWorld(sx, sy float64) (x, y float64) {
	minX, minY, _, _ := c.Rect()
	z := c.Zoom
	if z <= 0 {
		z = 1
	}
	return minX + sx/z, minY + sy/z
}
