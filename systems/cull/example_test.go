package cull_test

import (
	"fmt"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
	"github.com/weft-engine/weft/systems"
	"github.com/weft-engine/weft/systems/cull"
)

// The camera sees three of four sprites; the draw list has them by layer,
// then sort key.
func Example() {
	w := ecs.NewWorld(ecs.Options{})
	pos, spr, look := ecs.NewComponent[systems.Position](w), ecs.NewComponent[systems.Sprite](w), ecs.NewComponent[systems.Look](w)
	setup := w.NewCommands()
	for i, s := range []systems.Sprite{{Layer: 1, Sort: 5}, {Layer: 0, Sort: 9}, {Layer: 1, Sort: 2}, {Layer: 0, Sort: 1}} {
		e := setup.Spawn()
		pos.Add(setup, e, systems.Position{X: float64(i) * 40, Y: 10}) // the last is at x 120
		s.Frame, s.Extent = int32(i), 4
		spr.Add(setup, e, s)
		look.Add(setup, e, systems.Look{Scale: 1})
	}
	if _, err := w.Apply(setup); err != nil {
		panic(err)
	}
	eng, _ := engine.New(w, engine.Config{Workers: 1, Batch: 2})
	defer eng.Close()
	*eng.Camera() = engine.Camera{X: 50, Y: 10, W: 100, H: 100, Zoom: 1} // sees x 0..100
	if err := eng.Add(engine.PreRender, cull.New()); err != nil {
		panic(err)
	}
	if err := eng.Build(); err != nil {
		panic(err)
	}
	if err := eng.Tick(); err != nil {
		panic(err)
	}
	for _, it := range eng.Snapshot().Items {
		fmt.Printf("frame %d layer %d sort %d x %.0f\n", it.Frame, it.Layer, it.Sort, it.X)
	}
	// Output:
	// frame 1 layer 0 sort 9 x 40
	// frame 2 layer 1 sort 2 x 80
	// frame 0 layer 1 sort 5 x 0
}
