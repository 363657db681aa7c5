package create2comp

import (
	"testing"

	"github.com/mlange-42/arche/ecs"
	"github.com/weft-engine/weft/bench/ecsbench/comps"
)

func runArche(b *testing.B, n int) {
	world := ecs.NewWorld(1024)

	posID := ecs.ComponentID[comps.Position](&world)
	velID := ecs.ComponentID[comps.Velocity](&world)
	ids := []ecs.ID{posID, velID}

	ecs.NewBuilder(&world, ids...).NewBatch(n)
	world.Batch().RemoveEntities(ecs.All(ids...))

	entities := make([]ecs.Entity, 0, n)

	for b.Loop() {
		for range n {
			e := world.NewEntity(ids...)
			// Just for fairness, because the others need to do that, too.
			entities = append(entities, e)
		}
		b.StopTimer()

		if n < 64 {
			// Speed up cleanup for low entity counts
			for i := len(entities) - 1; i >= 0; i-- {
				world.RemoveEntity(entities[i])
			}
		} else {
			world.Batch().RemoveEntities(ecs.All(ids...))
		}

		entities = entities[:0]
		b.StartTimer()
	}
}

func runArcheBatched(b *testing.B, n int) {
	world := ecs.NewWorld(1024)

	posID := ecs.ComponentID[comps.Position](&world)
	velID := ecs.ComponentID[comps.Velocity](&world)
	ids := []ecs.ID{posID, velID}

	ecs.NewBuilder(&world, ids...).NewBatch(n)
	world.Batch().RemoveEntities(ecs.All(ids...))

	for b.Loop() {
		ecs.NewBuilder(&world, ids...).NewBatch(n)
		b.StopTimer()
		world.Batch().RemoveEntities(ecs.All(ids...))
		b.StartTimer()
	}
}
