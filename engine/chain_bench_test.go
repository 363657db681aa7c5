package engine_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
)

// spin busies the caller for about d.
func spin(d time.Duration) {
	for t := time.Now(); time.Since(t) < d; {
	}
}

// BenchmarkChunkChain is one step of two systems, b After a, each a chunk
// pass over the same 64 chunks. even: every chunk costs 20 to 80 µs.
// skewed: a's chunk 0 costs 2 ms, every other chunk 20 µs. chained: a and
// b conflict only on pos, so b's chunk k waits for a's chunk k alone
// (Config.ChainChunks). whole: the same without chaining.
func BenchmarkChunkChain(b *testing.B) {
	costs := map[string]func(sys string, chunk int) time.Duration{
		"even": func(_ string, k int) time.Duration { return time.Duration(20*(1+k%4)) * time.Microsecond },
		"skewed": func(sys string, k int) time.Duration {
			if sys == "a" && k == 0 {
				return 2 * time.Millisecond
			}
			return 20 * time.Microsecond
		},
	}
	for _, load := range []string{"even", "skewed"} {
		for _, mode := range []string{"chained", "whole"} {
			b.Run(fmt.Sprintf("%s/%s", load, mode), func(b *testing.B) {
				w := world(b, 64*64)
				e, err := engine.New(w, engine.Config{Workers: engine.DefaultWorkers, Batch: 64, NoChecks: true, ChainChunks: mode == "chained"})
				if err != nil {
					b.Fatal(err)
				}
				defer e.Close()
				sys := func(name string) *toy {
					var pass *engine.Pass
					return &toy{name: name,
						build: func(bl *engine.Builder) error {
							wr := ecs.Write[pos](bl.Decl())
							pass = bl.Chunks("p", ecs.NewQuery1(bl.Decl(), wr), func(c *ecs.Chunk) { spin(costs[load](name, c.Index())) })
							return nil
						},
						sched: func(f *engine.Frame) error { return f.Run(pass) }}
				}
				if err := errors.Join(e.Add(engine.Update, sys("a")), e.Add(engine.Update, sys("b"), engine.After("a")), e.Build()); err != nil {
					b.Fatal(err)
				}
				for range 20 {
					if err := e.Tick(); err != nil {
						b.Fatal(err)
					}
				}
				b.ResetTimer()
				for b.Loop() {
					if err := e.Tick(); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
