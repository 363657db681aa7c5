package ecs

import (
	"math/rand/v2"
	"testing"
	"time"

	ark "github.com/mlange-42/ark/ecs"
	"github.com/weft-engine/weft/jobs"
	"github.com/weft-engine/weft/safety"
)

// BenchmarkEnabled is one pass of vel = f(pos) over 100,000 rows (one op
// = one pass, batch 256, one worker and the owner): "all" ranges over the
// column, the others over EnabledReader[pos].On with every row on
// ("on-all") or half of them off, drawn at random ("half"). Only the pass
// is timed: ns/pass is the figure. Compare half with all: the pass that
// skips the rows that are off should cost at most 0.6 of it.
func BenchmarkEnabled(b *testing.B) {
	for _, v := range []struct {
		name    string
		filter  bool
		offRate float64
	}{{"all", false, 0}, {"on-all", true, 0}, {"half", true, 0.5}} {
		b.Run(v.name, func(b *testing.B) { benchEnabled(b, v.filter, v.offRate) })
	}
}

func benchEnabled(b *testing.B, filter bool, offRate float64) {
	w := NewWorld(Options{NoChecks: true})
	NewComponent[pos](w)
	NewComponent[vel](w)
	ark.NewMap2[pos, vel](w.ark).NewBatchFn(changedEntities, func(e ark.Entity, p *pos, v *vel) {
		*p = pos{X: float64(e.ID())}
	})
	pool, err := jobs.New(jobs.Options{Workers: 1})
	if err != nil {
		b.Fatal(err)
	}
	defer pool.Close()
	tr := safety.NewTracker(pool, w.Registry(), safety.Options{NoChecks: true})
	rd := w.System("read")
	rp, rv := Read[pos](rd), Write[vel](rd)
	on := ReadEnabled[pos](rd)
	rng := rand.New(rand.NewPCG(1, 2))
	for e := range must(w.Entities()) {
		if rng.Float64() < offRate {
			if err := SetEnabled[pos](w, e, false); err != nil {
				b.Fatal(err)
			}
		}
	}
	rq := NewQuery2(rd, rp, rv)
	body := func(c *Chunk) {
		p, v := rp.Column(c), rv.Column(c)
		for i := range p {
			v[i].DX = p[i].X * 0.5
		}
	}
	if filter {
		body = func(c *Chunk) {
			p, v := rp.Column(c), rv.Column(c)
			for _, i := range on.On(c) {
				v[i].DX = p[i].X * 0.5
			}
		}
	}
	job := jobs.Job{Label: jobs.Label{Name: "read"}, Run: rq.Job(body)}
	frame := func() {
		benchFrame(b, w, pool, func() (jobs.Handle, error) {
			n, err := rq.Prepare(changedBatch)
			if err != nil {
				return jobs.Handle{}, err
			}
			return tr.ParallelFor(job, rd.Access(), n, 1)
		})
		tr.Reset()
	}
	frame()
	b.ReportAllocs()
	var pass time.Duration
	for b.Loop() {
		t := time.Now()
		frame()
		pass += time.Since(t)
	}
	b.ReportMetric(float64(pass.Nanoseconds())/float64(b.N), "ns/pass")
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
