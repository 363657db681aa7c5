package query2comp

// weft's side of the workload (not the suite's): see ../doc.go.

import (
	"testing"

	"github.com/weft-engine/weft/bench/ecsbench/comps"
	"github.com/weft-engine/weft/bench/ecsbench/util"
	"github.com/weft-engine/weft/bench/ecsbench/weftrun"
	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
)

// Weft is weft's benchmarks of the workload, one per configuration.
func Weft() []util.Benchmark { return weftrun.Benches(runWeft) }

// runWeft is runArk's world (n*10 entities with Position alone, n with
// Position and Velocity{1, 1}), made by a command buffer, and its loop as
// the system weftrun.Move, one engine step an op.
func runWeft(b *testing.B, n int, cfg engine.Config) {
	world := ecs.NewWorld(ecs.Options{})
	one := ecs.NewSpawner1[comps.Position](world)
	two := ecs.NewSpawner2[comps.Position, comps.Velocity](world)
	cmd := world.NewCommands()
	for range n * 10 {
		one.Spawn(cmd, comps.Position{})
	}
	for range n {
		two.Spawn(cmd, comps.Position{}, comps.Velocity{X: 1, Y: 1})
	}
	weftrun.Apply(b, world, cmd)

	weftrun.RunMove(b, world, cfg, n, float64(n*2))
}
