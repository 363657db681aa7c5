// Package systems holds the component types that the built-in systems (physics, anim, cull, in its subpackages) share.
package systems

import "github.com/weft-engine/weft/engine"

// Position is an entity's centre in world units.
type Position struct{ X, Y float64 }

// Velocity is in world units per second.
type Velocity struct{ X, Y float64 }

// Body makes an entity a circle that collides.
type Body struct {
	Radius      float64
	Restitution float64 // share of speed kept when bouncing off the world bounds
}

// Sprite is what to draw: a frame of a sprite sheet, and the draw order.
type Sprite struct {
	Sheet, Frame int32
	Layer, Sort  int32
	Extent       float64 // half size at scale 1, in world units, for culling
}

// Look is how a sprite is drawn.
type Look struct {
	Scale    float64
	Rotation float64
	Color    engine.Color
}
