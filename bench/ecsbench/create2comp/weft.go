package create2comp

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

// request is how many entities spawn makes a step; one entity holds it.
type request struct{ N int }

// spawn makes request.N entities with Position and Velocity a step: its job
// records the spawns into its command buffer, and the step plays them back
// (one Ark batch, Spawner2's doc). It keeps the placeholders, as runArk
// keeps its entities.
type spawn struct {
	req      ecs.Reader[request]
	two      *ecs.Spawner2[comps.Position, comps.Velocity]
	entities []ecs.Entity
	pass     *engine.Pass
}

func (s *spawn) Name() string { return "spawn" }

func (s *spawn) Build(b *engine.Builder) error {
	d := b.Decl()
	s.req = ecs.Read[request](d)
	b.Commands()
	s.two = ecs.NewSpawner2[comps.Position, comps.Velocity](b.World())
	s.pass = b.Chunks("spawn", ecs.NewQuery1(d, s.req), s.spawn)
	return nil
}

func (s *spawn) Schedule(f *engine.Frame) error { return f.Run(s.pass) }

func (s *spawn) spawn(c *ecs.Chunk) {
	for _, r := range s.req.Column(c) {
		for range r.N {
			e := s.two.Spawn(c.Commands(), comps.Position{}, comps.Velocity{})
			s.entities = append(s.entities, e)
		}
	}
}

// runWeft is runArk's loop as the system spawn, one engine step an op; the
// untimed clean-up despawns the step's entities through a command buffer.
func runWeft(b *testing.B, n int, cfg engine.Config) {
	world := ecs.NewWorld(ecs.Options{})
	pos, vel := ecs.NewComponent[comps.Position](world), ecs.NewComponent[comps.Velocity](world)
	req := ecs.NewComponent[request](world)
	cmd := world.NewCommands()
	req.Add(cmd, cmd.Spawn(), request{N: n})
	weftrun.Apply(b, world, cmd)

	sys := &spawn{entities: make([]ecs.Entity, 0, n)}
	eng := weftrun.Start(b, world, cfg, sys)
	defer eng.Close()
	cleanup := func() {
		if got := world.Count(pos, vel); got != n {
			b.Fatalf("Expected %d entities, got %d", n, got)
		}
		ents, err := world.Entities(pos, vel)
		if err != nil {
			b.Fatal(err)
		}
		cmd := world.NewCommands()
		for e := range ents {
			cmd.Despawn(e)
		}
		weftrun.Apply(b, world, cmd)
		sys.entities = sys.entities[:0]
	}
	// As runArk makes and removes n entities before its loop.
	weftrun.Tick(b, eng)
	cleanup()

	for b.Loop() {
		weftrun.Tick(b, eng)
		b.StopTimer()
		cleanup()
		b.StartTimer()
	}
}
