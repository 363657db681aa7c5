package delete2comp

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

// despawn despawns every entity with Position and Velocity: its jobs record
// a despawn per row in their command buffers, and the step plays them
// back. A query needs a column, so it reads Position, which it does not use.
type despawn struct {
	pos  ecs.Reader[comps.Position]
	pass *engine.Pass
}

func (s *despawn) Name() string { return "despawn" }

func (s *despawn) Build(b *engine.Builder) error {
	d := b.Decl()
	s.pos = ecs.Read[comps.Position](d)
	b.Commands()
	s.pass = b.Chunks("despawn", ecs.NewQuery1(d, s.pos, ecs.With[comps.Velocity]()), s.despawn)
	return nil
}

func (s *despawn) Schedule(f *engine.Frame) error { return f.Run(s.pass) }

func (s *despawn) despawn(c *ecs.Chunk) {
	for _, e := range c.Entities() {
		c.Commands().Despawn(e)
	}
}

// runWeft is runArk's loop as the system despawn, one engine step an op;
// the untimed set-up spawns n entities through a command buffer.
func runWeft(b *testing.B, n int, cfg engine.Config) {
	world := ecs.NewWorld(ecs.Options{})
	pos, vel := ecs.NewComponent[comps.Position](world), ecs.NewComponent[comps.Velocity](world)
	two := ecs.NewSpawner2[comps.Position, comps.Velocity](world)
	refill := func() {
		cmd := world.NewCommands()
		for range n {
			two.Spawn(cmd, comps.Position{}, comps.Velocity{})
		}
		weftrun.Apply(b, world, cmd)
	}
	refill()

	eng := weftrun.Start(b, world, cfg, &despawn{})
	defer eng.Close()
	for b.Loop() {
		weftrun.Tick(b, eng)
		b.StopTimer()
		if got := world.Count(pos, vel); got != 0 {
			b.Fatalf("Expected 0 entities, got %d", got)
		}
		if rows := weftrun.Rows(eng, 0); rows != n {
			b.Fatalf("Expected %d rows a step, got %d", n, rows)
		}
		refill()
		b.StartTimer()
	}
}
