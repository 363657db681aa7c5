package engine_test

import (
	"testing"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
)

// BenchmarkLookupChecks is one step of a system that reads, through a
// read lookup, the pos of each of 20,000 entities from its chunk jobs
// (one op = one step), with checks off and on: in checked mode each Get
// asks the engine which system runs the caller (the access seam).
func BenchmarkLookupChecks(b *testing.B) {
	for _, mode := range []string{"off", "on"} {
		b.Run("checks="+mode, func(b *testing.B) {
			e, err := engine.New(world(b, 20_000), engine.Config{Workers: 1, Batch: 1024, NoChecks: mode == "off"})
			if err != nil {
				b.Fatal(err)
			}
			defer e.Close()
			var pass *engine.Pass
			var sink float64
			sys := &toy{name: "seek",
				build: func(bd *engine.Builder) error {
					d := bd.Decl()
					look := ecs.ReadLookup[pos](d)
					pass = bd.Chunks("seek", ecs.NewQuery1(d, ecs.Read[vel](d)), func(c *ecs.Chunk) {
						s := 0.0
						for _, en := range c.Entities() {
							p, _ := look.Get(en)
							s += p.X
						}
						if s < 0 {
							sink = s
						}
					})
					return nil
				},
				sched: func(f *engine.Frame) error { return f.Run(pass) }}
			if err := e.Add(engine.Update, sys); err != nil {
				b.Fatal(err)
			}
			if err := e.Build(); err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if err := e.Tick(); err != nil {
					b.Fatal(err)
				}
			}
			_ = sink
		})
	}
}
