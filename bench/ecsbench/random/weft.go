package random

// weft's side of the workload (not the suite's): see ../doc.go.

import (
	"math/rand/v2"
	"testing"

	"github.com/weft-engine/weft/bench/ecsbench/comps"
	"github.com/weft-engine/weft/bench/ecsbench/util"
	"github.com/weft-engine/weft/bench/ecsbench/weftrun"
	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
)

// Weft is weft's benchmarks of the workload, one per configuration.
func Weft() []util.Benchmark {
	return weftrun.Benches(func(b *testing.B, n int, cfg engine.Config) { RunWeft(b, n, cfg, 0) })
}

// lookup sums Position.X of the entities of its list, in shuffled order,
// through a lookup (docs/guide/04-lookups.md): a range pass over the
// system's own list (chapter 1, "Outputs that are not components"), each
// participant adding into its own partial sum, which Merge adds up.
type lookup struct {
	pos   ecs.LookupReader[comps.Position]
	ents  []ecs.Entity
	parts []float64 // by participant
	sum   float64
	pass  *engine.Pass
}

func (s *lookup) Name() string { return "lookup" }

func (s *lookup) Build(b *engine.Builder) error {
	s.pos = ecs.ReadLookup[comps.Position](b.Decl())
	s.pass = b.RangeWorker("get", s.get)
	return nil
}

func (s *lookup) Schedule(f *engine.Frame) error {
	if p := f.Participants(); len(s.parts) < p {
		s.parts = make([]float64, p)
	}
	clear(s.parts)
	return f.RunRange(s.pass, len(s.ents), f.Batch())
}

func (s *lookup) get(worker, lo, hi int) {
	sum := 0.0
	for _, e := range s.ents[lo:hi] {
		pos, _ := s.pos.Get(e)
		sum += pos.X
	}
	s.parts[worker] += sum
}

func (s *lookup) Merge(*engine.Frame) error {
	for _, v := range s.parts {
		s.sum += v
	}
	return nil
}

// spawnsPerBuffer bounds the spawns of one set-up buffer: a buffer's
// placeholders from the 262,144th (2^18, ecs/commands.go's maxSpawns) on
// all share one number, which Report.Spawned does not resolve (WEFT-E010).
const spawnsPerBuffer = 100_000

// RunWeft is runArk's world (n entities with Position{X: x}, their list
// shuffled), made by a command buffer, and its loop as the system lookup,
// one engine step an op. The suite's x is 0; the test's TestSameWork uses
// 1, so that the sum counts the lookups.
func RunWeft(b *testing.B, n int, cfg engine.Config, x float64) {
	world := ecs.NewWorld(ecs.Options{})
	one := ecs.NewSpawner1[comps.Position](world)
	entities := make([]ecs.Entity, 0, n)
	placeholders := make([]ecs.Entity, 0, spawnsPerBuffer)
	for len(entities) < n {
		cmd := world.NewCommands()
		placeholders = placeholders[:0]
		for range min(n-len(entities), spawnsPerBuffer) {
			placeholders = append(placeholders, one.Spawn(cmd, comps.Position{X: x}))
		}
		rep := weftrun.Apply(b, world, cmd)
		for _, p := range placeholders {
			e, err := rep.Spawned(p)
			if err != nil {
				b.Fatal(err)
			}
			entities = append(entities, e)
		}
	}
	rand.Shuffle(n, util.Swap(entities))

	sys := &lookup{ents: entities}
	eng := weftrun.Start(b, world, cfg, sys)
	defer eng.Close()
	b.ResetTimer()
	for range b.N {
		weftrun.Tick(b, eng)
	}
	b.StopTimer()
	if sys.sum != float64(n*b.N)*x {
		b.Fatalf("Expected sum %.2f, got %.2f", float64(n*b.N)*x, sys.sum)
	}
}
