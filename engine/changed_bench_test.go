package engine_test

import (
	"errors"
	"testing"
	"time"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
)

// BenchmarkChangedStep is one step of a real engine (1 worker + owner,
// batch 256 as in ecs's BenchmarkChanged, checks off) over 100,000
// entities: "write" writes pos in the chunks that hold the first 1% of
// the rows, and "read" After it runs vel.X = pos.X/2 over its query. (A
// write marks its whole chunk: with the adaptive batch, of 8,192 rows
// here, writing 1% of the rows would mark 8%.) Four engines take turns,
// one step each, so that load on the machine falls on all alike: "all"
// reads every row, "1%" and "0%" read with Changed(pos) (the writer
// writing 1% of the rows, or none), "none" has no reader. ns/step per
// engine; the read pass's cost is a configuration's step minus none's.
func BenchmarkChangedStep(b *testing.B) {
	const rows = 100_000
	configs := []struct {
		name            string
		reader, changed bool
		written         int
	}{{"all", true, false, rows / 100}, {"1%", true, true, rows / 100}, {"0%", true, true, 0}, {"none", false, false, rows / 100}}
	engines := make([]*engine.Engine, len(configs))
	for i, c := range configs {
		e, err := engine.New(world(b, rows), engine.Config{Workers: 1, Batch: 256, NoChecks: true})
		if err != nil {
			b.Fatal(err)
		}
		defer e.Close()
		errs := []error{e.Add(engine.Update, changedWriter(c.written))}
		if c.reader {
			errs = append(errs, e.Add(engine.Update, changedReader(c.changed), engine.After("write")))
		}
		if err := errors.Join(append(errs, e.Build())...); err != nil {
			b.Fatal(err)
		}
		for range 50 { // the batch settles
			if err := e.Tick(); err != nil {
				b.Fatal(err)
			}
		}
		engines[i] = e
	}
	spent := make([]time.Duration, len(configs))
	for b.Loop() {
		for i, e := range engines {
			t := time.Now()
			if err := e.Tick(); err != nil {
				b.Fatal(err)
			}
			spent[i] += time.Since(t)
		}
	}
	for i, c := range configs {
		b.ReportMetric(float64(spent[i].Nanoseconds())/float64(b.N), c.name+"-ns/step")
	}
}

// changedWriter writes pos in the chunks that hold any of the first
// written rows (entity IDs follow the rows in world).
func changedWriter(written int) *toy {
	var pass *engine.Pass
	return &toy{name: "write",
		build: func(b *engine.Builder) error {
			p := ecs.Write[pos](b.Decl())
			pass = b.Chunks("p", ecs.NewQuery1(b.Decl(), p), func(c *ecs.Chunk) {
				if int(c.Entities()[0].ID()) < written {
					p.Column(c)[0].X++
				}
			})
			return nil
		},
		sched: func(f *engine.Frame) error { return f.Run(pass) }}
}

// changedReader runs vel.X = pos.X/2 over every row, or with
// Changed(pos) over the rows written since its last step.
func changedReader(changed bool) *toy {
	var pass *engine.Pass
	return &toy{name: "read",
		build: func(b *engine.Builder) error {
			d := b.Decl()
			p, v := ecs.Read[pos](d), ecs.Write[vel](d)
			var filters []ecs.Filter
			if changed {
				filters = append(filters, ecs.Changed(p))
			}
			pass = b.Chunks("p", ecs.NewQuery2(d, p, v, filters...), func(c *ecs.Chunk) {
				ps, vs := p.Column(c), v.Column(c)
				for i := range ps {
					vs[i].X = ps[i].X * 0.5
				}
			})
			return nil
		},
		sched: func(f *engine.Frame) error { return f.Run(pass) }}
}
