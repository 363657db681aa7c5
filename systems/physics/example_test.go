package physics_test

import (
	"fmt"

	ark "github.com/mlange-42/ark/ecs"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
	"github.com/weft-engine/weft/systems"
	"github.com/weft-engine/weft/systems/physics"
)

// Two overlapping bodies push each other apart; a falling one bounces off
// the floor.
func Example() {
	w := ecs.NewWorld(ecs.Options{})
	pos, vel, body := ecs.NewComponent[systems.Position](w), ecs.NewComponent[systems.Velocity](w), ecs.NewComponent[systems.Body](w)
	setup := w.NewCommands()
	for _, p := range []systems.Position{{X: 10, Y: 50}, {X: 13, Y: 50}, {X: 50, Y: 97}} {
		e := setup.Spawn()
		pos.Add(setup, e, p)
		vel.Add(setup, e, systems.Velocity{Y: 100 * float64(int(p.X)/50)}) // the third falls fast
		body.Add(setup, e, systems.Body{Radius: 2, Restitution: 0.5})
	}
	if _, err := w.Apply(setup); err != nil {
		panic(err)
	}
	eng, _ := engine.New(w, engine.Config{Workers: 1})
	defer eng.Close()
	if err := eng.Add(engine.Update, physics.New(physics.Config{MaxX: 100, MaxY: 100, CellSize: 4})); err != nil {
		panic(err)
	}
	if err := eng.Build(); err != nil {
		panic(err)
	}
	if err := eng.Tick(); err != nil {
		panic(err)
	}
	q := ark.NewFilter2[systems.Position, systems.Velocity](w.Ark()).Query()
	for q.Next() {
		p, v := q.Get()
		fmt.Printf("x %.2f y %.2f  vx %+.2f vy %+.2f\n", p.X, p.Y, v.X, v.Y)
	}
	// Output:
	// x 9.49 y 50.00  vx -0.67 vy +0.00
	// x 13.51 y 50.00  vx +0.67 vy +0.00
	// x 50.00 y 98.00  vx +0.00 vy -50.00
}
