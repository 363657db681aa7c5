package main

import (
	"github.com/hajimehoshi/ebiten/v2"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
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
