package random

import (
	"log"
	"math/rand/v2"
	"testing"

	ecs "github.com/marioolofo/go-gameengine-ecs"
	"github.com/weft-engine/weft/bench/ecsbench/comps"
	"github.com/weft-engine/weft/bench/ecsbench/util"
)

// Component IDs
const (
	positionComponentID ecs.ComponentID = iota
	velocityComponentID
)

func runGGEcs(b *testing.B, n int) {
	world := ecs.NewWorld(1024)
	world.Register(ecs.NewComponentRegistry[comps.Position](positionComponentID))

	entities := make([]ecs.EntityID, 0, n)
	for i := 0; i < n; i++ {
		e := world.NewEntity(positionComponentID)
		entities = append(entities, e)
	}
	rand.Shuffle(n, util.Swap(entities))

	sum := 0.0
	// Don't use b.Loop and callback, as we do not want to measure
	// the cost of calling the non-inlined callback.
	b.ResetTimer()
	for range b.N {
		for _, e := range entities {
			pos := (*comps.Position)(world.Component(e, positionComponentID))
			sum += pos.X
		}
	}
	b.StopTimer()
	if sum > 0 {
		log.Fatal("error")
	}
}
