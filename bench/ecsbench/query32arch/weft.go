package query32arch

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

// runWeft is runArk's world (n entities with Position, Velocity and the
// components C1..C5 of the bits of their index: 32 tables), made by a
// command buffer, and its loop as the system weftrun.Move, one engine step
// an op.
func runWeft(b *testing.B, n int, cfg engine.Config) {
	world := ecs.NewWorld(ecs.Options{})
	pos := ecs.NewComponent[comps.Position](world)
	vel := ecs.NewComponent[comps.Velocity](world)
	extra := weftrun.Extras(world)[:5] // C1..C5
	cmd := world.NewCommands()
	for i := range n {
		e := cmd.Spawn()
		pos.Add(cmd, e, comps.Position{})
		vel.Add(cmd, e, comps.Velocity{})
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
