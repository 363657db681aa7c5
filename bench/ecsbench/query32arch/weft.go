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
	c1, c2, c3 := ecs.NewComponent[comps.C1](world), ecs.NewComponent[comps.C2](world), ecs.NewComponent[comps.C3](world)
	c4, c5 := ecs.NewComponent[comps.C4](world), ecs.NewComponent[comps.C5](world)
	extra := []func(*ecs.Commands, ecs.Entity){
		func(cmd *ecs.Commands, e ecs.Entity) { c1.Add(cmd, e, comps.C1{}) },
		func(cmd *ecs.Commands, e ecs.Entity) { c2.Add(cmd, e, comps.C2{}) },
		func(cmd *ecs.Commands, e ecs.Entity) { c3.Add(cmd, e, comps.C3{}) },
		func(cmd *ecs.Commands, e ecs.Entity) { c4.Add(cmd, e, comps.C4{}) },
		func(cmd *ecs.Commands, e ecs.Entity) { c5.Add(cmd, e, comps.C5{}) },
	}
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

	eng := weftrun.Start(b, world, cfg, &weftrun.Move{})
	defer eng.Close()
	for b.Loop() {
		weftrun.Tick(b, eng)
	}

	if rows := weftrun.Rows(eng, 0); rows != n {
		b.Fatalf("Expected %d rows a step, got %d", n, rows)
	}
	if sum := weftrun.SumMoved(b, world); sum != 0 {
		b.Fatalf("Expected sum 0, got %.2f", sum)
	}
}
