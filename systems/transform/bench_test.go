package transform_test

import (
	"testing"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
	"github.com/weft-engine/weft/systems/transform"
)

// BenchmarkPropagate is one step of the propagation system alone over
// 100,000 entities in trees of 256 whose depths run from 1 to 8 links
// (forest), checks off, batch 1024: serial is the serial executor
// (Workers 0), workers=N a pool of N workers and the owner (workers=1 is
// two threads, one per core of a 2-core machine). One op is one
// propagation of every World.
func BenchmarkPropagate(b *testing.B) {
	for _, mode := range []struct {
		name    string
		workers int
	}{{"serial", 0}, {"workers=1", 1}, {"workers=2", 2}} {
		b.Run("entities=100k/"+mode.name, func(b *testing.B) {
			w := ecs.NewWorld(ecs.Options{NoChecks: true})
			forest(b, w, 100_000)
			e, err := engine.New(w, engine.Config{Workers: mode.workers, Serial: mode.workers == 0, Batch: 1024, NoChecks: true})
			if err != nil {
				b.Fatal(err)
			}
			defer e.Close()
			if err := e.Add(engine.PostUpdate, transform.New()); err != nil {
				b.Fatal(err)
			}
			if err := e.Build(); err != nil {
				b.Fatal(err)
			}
			for range 20 {
				if err := e.Tick(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				if err := e.Tick(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
