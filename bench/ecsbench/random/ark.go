package random

import (
	"log"
	"math/rand/v2"
	"testing"

	"github.com/mlange-42/ark/ecs"
	"github.com/weft-engine/weft/bench/ecsbench/comps"
	"github.com/weft-engine/weft/bench/ecsbench/util"
)

func runArk(b *testing.B, n int) {
	world := ecs.NewWorld(1024)

	mapper := ecs.NewMap[comps.Position](world)
	entities := make([]ecs.Entity, 0, n)
	for range n {
		e := mapper.NewEntity(&comps.Position{})
		entities = append(entities, e)
	}
	rand.Shuffle(n, util.Swap(entities))

	sum := 0.0
	// Don't use b.Loop and callback, as we do not want to measure
	// the cost of calling the non-inlined callback.
	b.ResetTimer()
	for range b.N {
		for _, e := range entities {
			pos := mapper.Get(e)
			sum += pos.X
		}
	}
	b.StopTimer()
	if sum > 0 {
		log.Fatal("error")
	}
}
