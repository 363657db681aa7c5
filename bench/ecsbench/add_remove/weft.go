package addremove

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

// toggle adds Velocity to every entity with Position that lacks it (add)
// or removes it from every one that has it (remove): its jobs record the
// commands, the step plays them back. A query needs a column, so it reads
// Position, which it does not use.
type toggle struct {
	name string
	add  bool
	pos  ecs.Reader[comps.Position]
	vel  ecs.Component[comps.Velocity]
	pass *engine.Pass
}

func (s *toggle) Name() string { return s.name }

func (s *toggle) Build(b *engine.Builder) error {
	d := b.Decl()
	s.pos = ecs.Read[comps.Position](d)
	b.Commands()
	s.vel = ecs.NewComponent[comps.Velocity](b.World())
	filter := ecs.With[comps.Velocity]()
	if s.add {
		filter = ecs.Without[comps.Velocity]()
	}
	s.pass = b.Chunks(s.name, ecs.NewQuery1(d, s.pos, filter), s.record)
	return nil
}

func (s *toggle) Schedule(f *engine.Frame) error { return f.Run(s.pass) }

func (s *toggle) record(c *ecs.Chunk) {
	for _, e := range c.Entities() {
		if s.add {
			s.vel.Add(c.Commands(), e, comps.Velocity{})
		} else {
			s.vel.Remove(c.Commands(), e)
		}
	}
}

// runWeft is runArk's loop as the systems add and remove: an op is two
// engine steps, the first adds Velocity to the n entities, the second
// removes it.
func runWeft(b *testing.B, n int, cfg engine.Config) {
	world := ecs.NewWorld(ecs.Options{})
	pos, vel := ecs.NewComponent[comps.Position](world), ecs.NewComponent[comps.Velocity](world)
	one := ecs.NewSpawner1[comps.Position](world)
	cmd := world.NewCommands()
	for range n {
		one.Spawn(cmd, comps.Position{})
	}
	weftrun.Apply(b, world, cmd)

	eng := weftrun.Start(b, world, cfg, &toggle{name: "add", add: true}, &toggle{name: "remove"})
	defer eng.Close()
	// As runArk adds and removes once before its loop.
	weftrun.Tick(b, eng)
	weftrun.Tick(b, eng)

	for b.Loop() {
		weftrun.Tick(b, eng)
		weftrun.Tick(b, eng)
	}

	if got := world.Count(pos); got != n {
		b.Fatalf("Expected %d entities, got %d", n, got)
	}
	if got := world.Count(pos, vel); got != 0 {
		b.Fatalf("Expected no Velocity, got %d", got)
	}
	if rec := eng.LastRecord(); rec.Commands != n || weftrun.Rows(eng, 1) != n {
		b.Fatalf("Expected %d removes in the last step, got %d commands over %d rows", n, rec.Commands, weftrun.Rows(eng, 1))
	}
}
