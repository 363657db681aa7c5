package addremove

import (
	"testing"

	ecs "github.com/marioolofo/go-gameengine-ecs"
	"github.com/weft-engine/weft/bench/ecsbench/comps"
)

// Component IDs
const (
	PositionComponentID ecs.ComponentID = iota
	VelocityComponentID
)

func runGGEcs(b *testing.B, n int) {
	world := ecs.NewWorld(1024)
	world.Register(ecs.NewComponentRegistry[comps.Position](PositionComponentID))
	world.Register(ecs.NewComponentRegistry[comps.Velocity](VelocityComponentID))

	entities := make([]ecs.EntityID, 0, n)
	for i := 0; i < n; i++ {
		entities = append(entities, world.NewEntity(PositionComponentID))
	}

	// Iterate once for more fairness
	for _, e := range entities {
		world.AddComponent(e, VelocityComponentID)
	}
	for _, e := range entities {
		world.RemComponent(e, VelocityComponentID)
	}

	for b.Loop() {
		for _, e := range entities {
			world.AddComponent(e, VelocityComponentID)
		}
		for _, e := range entities {
			world.RemComponent(e, VelocityComponentID)
		}
	}
}
