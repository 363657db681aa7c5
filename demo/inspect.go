package main

import (
	"image/color"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
	"github.com/weft-engine/weft/systems"
)

// inspectKeys: I makes the overlay's inspector follow the body nearest
// the cursor, Shift+I releases it. Executed only by the game goroutine,
// between steps (World.Entities is the owner's).
func (w *window) inspectKeys() {
	if !pressed(ebiten.KeyI) {
		return
	}
	if ebiten.IsKeyPressed(ebiten.KeyShift) {
		w.ov.Inspect(ecs.Entity{})
		return
	}
	e := w.g.Engine()
	mx, my := ebiten.CursorPosition()
	x, y := e.Camera().ToWorld(float64(mx), float64(my))
	if ent, ok := pick(e.World(), e.Snapshot(), x, y); ok {
		w.ov.Inspect(ent)
	}
}

// pick is the living entity of the drawn item nearest the world point
// (x, y) in snap; ok is false when nothing is drawn. Executed only by the
// owner, between steps.
func pick(wd *ecs.World, snap *engine.Snapshot, x, y float64) (ecs.Entity, bool) {
	best, key := -1.0, uint64(0)
	for _, it := range snap.Items {
		if d := (it.X-x)*(it.X-x) + (it.Y-y)*(it.Y-y); best < 0 || d < best {
			best, key = d, it.Entity
		}
	}
	if best < 0 {
		return ecs.Entity{}, false
	}
	seq, err := wd.Entities()
	if err != nil {
		return ecs.Entity{}, false
	}
	for e := range seq {
		if uint64(e.ID())<<32|uint64(e.Gen()) == key {
			return e, true
		}
	}
	return ecs.Entity{}, false
}

// drawInspected rings the body the overlay's inspector follows, where it
// is in the world, so that the panel's numbers have a place on screen.
// Executed only by Draw, between steps.
func (w *window) drawInspected(screen *ebiten.Image) {
	en := w.ov.Inspected()
	if en.IsZero() {
		return
	}
	e := w.g.Engine()
	p, err := ecs.Get[systems.Position](e.World(), en)
	if err != nil {
		return // gone, or no position: the panel says which
	}
	cam := *e.Camera()
	x, y := toScreen(cam, p.X, p.Y)
	r := float32(max(10, 6*cam.Zoom))
	vector.StrokeCircle(screen, float32(x), float32(y), r, 2, color.Black, true)
	vector.StrokeCircle(screen, float32(x), float32(y), r+2, 2, color.RGBA{0xff, 0xf0, 0x40, 0xff}, true)
}

// toScreen maps a world point to the screen: Camera.ToWorld's inverse.
func toScreen(cam engine.Camera, x, y float64) (sx, sy float64) {
	minX, minY, _, _ := cam.Rect()
	z := cam.Zoom
	if z <= 0 {
		z = 1
	}
	return (x - minX) * z, (y - minY) * z
}
