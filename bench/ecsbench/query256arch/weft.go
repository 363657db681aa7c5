package query256arch

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

// runWeft is runArk's world (n entities with Position and Velocity, and
// n*4 with Position and the components C1..C8 of the bits of their index,
// in 256 tables that the query does not match), made by a command buffer,
// and its loop as the system weftrun.Move, one engine step an op.
func runWeft(b *testing.B, n int, cfg engine.Config) {
	world := ecs.NewWorld(ecs.Options{})
	pos := ecs.NewComponent[comps.Position](world)
	_ = ecs.NewComponent[comps.Velocity](world)
	extra := weftrun.Extras(world) // C1..C8
	two := ecs.NewSpawner2[comps.Position, comps.Velocity](world)
	cmd := world.NewCommands()
	for range n {
		two.Spawn(cmd, comps.Position{}, comps.Velocity{})
	}
	for i := range n * 4 {
		e := cmd.Spawn()
		pos.Add(cmd, e, comps.Position{})
		for j, add := range extra {
			m := 1 << j
			if i&m == m {
				add(cmd, e)
			}
		}
	}
	weftrun.Apply(b, world, cmd)

	weftrun.RunMove(b, world, cfg, n, 0)
}
