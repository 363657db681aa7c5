package newworld

// weft's side of the workload (not the suite's): see ../doc.go.

import (
	"testing"

	"github.com/weft-engine/weft/bench/ecsbench/util"
	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
)

// Weft is weft's benchmarks of the workload: a world alone, and a world
// with a built engine (default Config, no system), closed again.
func Weft() []util.Benchmark {
	return []util.Benchmark{
		{Name: "weft", F: runWeft},
		{Name: "weft (world + engine)", F: runWeftEngine},
	}
}

func runWeft(b *testing.B, n int) {
	var world *ecs.World
	for b.Loop() {
		world = ecs.NewWorld(ecs.Options{})
	}
	if world.Count() != 0 {
		b.Fatal("Expected an empty world")
	}
}

func runWeftEngine(b *testing.B, n int) {
	var world *ecs.World
	for b.Loop() {
		world = ecs.NewWorld(ecs.Options{})
		eng, err := engine.New(world, engine.Config{})
		if err != nil {
			b.Fatal(err)
		}
		if err := eng.Build(); err != nil {
			b.Fatal(err)
		}
		if err := eng.Close(); err != nil {
			b.Fatal(err)
		}
	}
	if world.Count() != 0 {
		b.Fatal("Expected an empty world")
	}
}
