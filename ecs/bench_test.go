package ecs

import (
	"fmt"
	"testing"

	ark "github.com/mlange-42/ark/ecs"
	"github.com/weft-engine/weft/jobs"
	"github.com/weft-engine/weft/safety"
)

const (
	benchEntities = 1_000_000
	benchBatch    = 16384
	dt            = 1.0 / 60
)

// light is the kernel pos += vel*dt.
func light(p []pos, v []vel) {
	for i := range p {
		p[i].X += v[i].DX * dt
		p[i].Y += v[i].DY * dt
	}
}

// heavy is about 50 ns of dependent arithmetic per entity (16 rounds of a
// multiply-add chain on each axis), so that the pass is compute-bound.
func heavy(p []pos, v []vel) {
	for i := range p {
		x, y := p[i].X, p[i].Y
		for range 16 {
			x = x*0.999 + v[i].DX*dt
			y = y*0.999 + v[i].DY*dt
			x, y = x+y*1e-9, y-x*1e-9
		}
		p[i].X, p[i].Y = x, y
	}
}

func benchWorld(_ testing.TB, opts Options) *World {
	w := NewWorld(opts)
	NewComponent[pos](w)
	NewComponent[vel](w)
	ark.NewMap2[pos, vel](w.ark).NewBatchFn(benchEntities, func(e ark.Entity, p *pos, v *vel) {
		*p = pos{X: float64(e.ID())}
		*v = vel{DX: 1, DY: 2}
	})
	return w
}

// BenchmarkChunkIter is one pass of pos += vel*dt over 1,000,000 entities
// (one op = one pass): Ark's Next loop, Ark's NextTable loop, and weft's
// chunk jobs (batch 16384) on the serial executor and on 1 and 2 workers,
// with checks off (release) and on ("-checked": checksums of the read column).
func BenchmarkChunkIter(b *testing.B) { benchChunkIter(b, light) }

// BenchmarkChunkIterHeavy is BenchmarkChunkIter with ~50 ns of arithmetic
// per entity, where parallelism pays.
func BenchmarkChunkIterHeavy(b *testing.B) { benchChunkIter(b, heavy) }

// benchChunkIter runs every variant on one world, so that all of them
// walk the same memory: separate worlds differ by up to 25% on one
// machine for the same code (page placement).
func benchChunkIter(b *testing.B, kernel func([]pos, []vel)) {
	w := benchWorld(b, Options{})
	f := ark.NewFilter2[pos, vel](w.ark).Register()
	b.Run("ark-next", func(b *testing.B) {
		one := make([]pos, 1)
		onev := make([]vel, 1)
		for b.Loop() {
			q := f.Query()
			for q.Next() {
				p, v := q.Get()
				one[0], onev[0] = *p, *v
				kernel(one, onev)
				*p = one[0]
			}
		}
	})
	b.Run("ark-table", func(b *testing.B) {
		for b.Loop() {
			q := f.Query()
			for q.NextTable() {
				kernel(q.GetColumns())
			}
		}
	})
	for _, v := range []struct {
		name    string
		workers int
		checked bool
	}{{"weft-w0", 0, false}, {"weft-w1", 1, false}, {"weft-w2", 2, false}, {"weft-w0-checked", 0, true}, {"weft-w2-checked", 2, true}} {
		b.Run(v.name, func(b *testing.B) {
			if err := w.SetChecks(v.checked); err != nil {
				b.Fatal(err)
			}
			pool, err := jobs.New(jobs.Options{Workers: v.workers})
			if err != nil {
				b.Fatal(err)
			}
			defer pool.Close()
			tr := safety.NewTracker(pool, w.Registry(), safety.Options{NoChecks: !v.checked})
			d := w.System("integrate")
			p, vl := Write[pos](d), Read[vel](d)
			q := NewQuery2(d, p, vl)
			body := q.Job(func(c *Chunk) { kernel(p.Column(c), vl.Column(c)) })
			job := jobs.Job{Label: jobs.Label{Name: d.Name()}, Run: body}
			b.ReportAllocs()
			for b.Loop() {
				benchFrame(b, w, pool, func() (jobs.Handle, error) {
					n, err := q.Prepare(benchBatch)
					if err != nil {
						return jobs.Handle{}, err
					}
					return tr.ParallelFor(job, &d.access, n, 1)
				})
				tr.Reset()
			}
		})
	}
}

const benchCommands = 10_000

// BenchmarkCommands is the cost per command of recording into a Commands
// buffer and playing it back ("weft"), against Ark's batch operation
// ("ark-batch") and Ark's per-entity call ("ark-each"), for spawning an
// entity with two components, setting a component, and despawning.
// ns/cmd is the figure to compare.
func BenchmarkCommands(b *testing.B) {
	for _, op := range []string{"spawn", "set", "despawn"} {
		impls := []string{"ark-batch", "ark-each", "weft"}
		if op == "spawn" {
			impls = append(impls, "weft-add") // Spawn then Add per component, no Spawner
		}
		for _, impl := range impls {
			b.Run(fmt.Sprintf("%s/%s", op, impl), func(b *testing.B) { benchCommand(b, op, impl) })
		}
	}
}

func benchCommand(b *testing.B, op, impl string) {
	w := NewWorld(Options{})
	pc, vc := NewComponent[pos](w), NewComponent[vel](w)
	m2 := ark.NewMap2[pos, vel](w.ark)
	pm := ark.NewMap[pos](w.ark)
	f := ark.NewFilter2[pos, vel](w.ark).Register()
	ents := make([]ark.Entity, 0, benchCommands)
	populate := func() {
		ents = ents[:0]
		m2.NewBatchFn(benchCommands, func(e ark.Entity, p *pos, v *vel) { ents = append(ents, e) })
	}
	clearAll := func() { w.ark.RemoveEntities(f.Batch(), nil) }
	sp := NewSpawner2[pos, vel](w)
	buf := w.NewCommands()
	// warm up tables, the entity pool and the buffer
	populate()
	for _, e := range ents {
		pc.Set(buf, e, pos{})
		buf.Despawn(e)
		sp.Spawn(buf, pos{}, vel{})
		vc.Add(buf, buf.Spawn(), vel{})
	}
	w.Apply(buf)
	clearAll()
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		if op != "spawn" {
			populate()
		}
		b.StartTimer()
		switch op + "/" + impl {
		case "spawn/ark-batch":
			m2.NewBatchFn(benchCommands, func(e ark.Entity, p *pos, v *vel) { *p, *v = pos{X: 1}, vel{DX: 1} })
		case "spawn/ark-each":
			for range benchCommands {
				m2.NewEntity(&pos{X: 1}, &vel{DX: 1})
			}
		case "spawn/weft":
			for range benchCommands {
				sp.Spawn(buf, pos{X: 1}, vel{DX: 1})
			}
			w.Apply(buf)
		case "spawn/weft-add":
			for range benchCommands {
				e := buf.Spawn()
				pc.Add(buf, e, pos{X: 1})
				vc.Add(buf, e, vel{DX: 1})
			}
			w.Apply(buf)
		case "set/ark-batch":
			q := f.Query()
			for q.NextTable() {
				p, _ := q.GetColumns()
				for i := range p {
					p[i] = pos{X: 2}
				}
			}
		case "set/ark-each":
			for _, e := range ents {
				pm.Set(e, &pos{X: 2})
			}
		case "set/weft":
			for _, e := range ents {
				pc.Set(buf, e, pos{X: 2})
			}
			w.Apply(buf)
		case "despawn/ark-batch":
			w.ark.RemoveEntities(f.Batch(), nil)
		case "despawn/ark-each":
			for _, e := range ents {
				w.ark.RemoveEntity(e)
			}
		case "despawn/weft":
			for _, e := range ents {
				buf.Despawn(e)
			}
			w.Apply(buf)
		}
		b.StopTimer()
		clearAll()
		b.StartTimer()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*benchCommands), "ns/cmd")
}
