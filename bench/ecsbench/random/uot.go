package random

import (
	"log"
	"math/rand/v2"
	"testing"

	"github.com/unitoftime/ecs"
	"github.com/weft-engine/weft/bench/ecsbench/comps"
	"github.com/weft-engine/weft/bench/ecsbench/util"
)

func runUot(b *testing.B, n int) {
	world := ecs.NewWorld()

	entities := make([]ecs.Id, 0, n)
	for i := 0; i < n; i++ {
		id := world.NewId()
		ecs.Write(world, id,
			ecs.C(comps.Position{}),
			ecs.C(comps.Velocity{}),
		)
		entities = append(entities, id)
	}
	rand.Shuffle(n, util.Swap(entities))

	sum := 0.0
	// Don't use b.Loop and callback, as we do not want to measure
	// the cost of calling the non-inlined callback.
	b.ResetTimer()
	for range b.N {
		for _, e := range entities {
			pos := ecs.ReadPtr[comps.Position](world, e)
			sum += pos.X
		}
	}
	b.StopTimer()
	if sum > 0 {
		log.Fatal("error")
	}
}
