package ecs

import (
	"testing"
	"time"

	ark "github.com/mlange-42/ark/ecs"
	"github.com/weft-engine/weft/jobs"
	"github.com/weft-engine/weft/safety"
)

const (
	changedEntities = 100_000
	changedBatch    = 256
)

// BenchmarkChanged is one pass of vel = f(pos) over 100,000 entities (one
// op = one pass, batch 256, one worker and the owner): "all" without a
// filter, "1%" and "100%" with Changed(pos) after a frame that wrote pos
// through a Writer in the first 1% (1,000 rows) or all of the rows. The
// writing frame runs in each op but only the pass is timed: ns/pass is
// the figure. Compare 1% with all: the filtered pass should cost at most
// 5% of it; "0%" is the frame's fixed cost with nothing to visit.
func BenchmarkChanged(b *testing.B) {
	for _, v := range []struct {
		name    string
		filter  bool
		written int
	}{{"all", false, 0}, {"0%", true, 0}, {"1%", true, changedEntities / 100}, {"100%", true, changedEntities}} {
		b.Run(v.name, func(b *testing.B) { benchChanged(b, v.filter, v.written) })
	}
}

func benchChanged(b *testing.B, filter bool, written int) {
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

	wd := w.System("write")
	wp := Write[pos](wd)
	wq := NewQuery1(wd, wp)
	wjob := jobs.Job{Label: jobs.Label{Name: "write"}, Run: wq.Job(func(c *Chunk) {
		if c.start < written {
			wp.Column(c)[0].X++
		}
	})}
	rd := w.System("read")
	rp, rv := Read[pos](rd), Write[vel](rd)
	var filters []Filter
	if filter {
		filters = append(filters, Changed(rp))
	}
	rq := NewQuery2(rd, rp, rv, filters...)
	rjob := jobs.Job{Label: jobs.Label{Name: "read"}, Run: rq.Job(func(c *Chunk) {
		p, v := rp.Column(c), rv.Column(c)
		for i := range p {
			v[i].DX = p[i].X * 0.5
		}
	})}
	frame := func(q interface{ Prepare(int) (int, error) }, d *Decl, job jobs.Job) {
		benchFrame(b, w, pool, func() (jobs.Handle, error) {
			n, err := q.Prepare(changedBatch)
			if err != nil {
				return jobs.Handle{}, err
			}
			return tr.ParallelFor(job, &d.access, n, 1)
		})
		tr.Reset()
	}
	frame(rq, rd, rjob) // the first pass sees every row
	b.ReportAllocs()
	var pass time.Duration
	for b.Loop() {
		frame(wq, wd, wjob)
		t := time.Now()
		frame(rq, rd, rjob)
		pass += time.Since(t)
	}
	b.ReportMetric(float64(pass.Nanoseconds())/float64(b.N), "ns/pass")
}

// BenchmarkEvents is the cost per event of emitting events from chunk
// jobs (10 per row of 10,000 rows, batch 256, one worker and the owner)
// and reading them once from every chunk job of a reader: ns/event.
func BenchmarkEvents(b *testing.B) {
	const rows, per = 10_000, 10
	w := NewWorld(Options{NoChecks: true})
	NewComponent[pos](w)
	ark.NewMap1[pos](w.ark).NewBatchFn(rows, nil)
	pool, err := jobs.New(jobs.Options{Workers: 1})
	if err != nil {
		b.Fatal(err)
	}
	defer pool.Close()
	type hit struct {
		E ark.Entity
		K int
	}
	wd := w.System("emit")
	em := Emit[hit](wd)
	wq := NewQuery1(wd, Read[pos](wd))
	wjob := jobs.Job{Label: jobs.Label{Name: "emit"}, Run: wq.Job(func(c *Chunk) {
		for _, e := range c.Entities() {
			for k := range per {
				em.Emit(c, hit{e, k})
			}
		}
	})}
	rd := w.System("read")
	er := ReadEvents[hit](rd)
	rq := NewQuery1(rd, Read[pos](rd))
	sums := make([]int, rows)
	rjob := jobs.Job{Label: jobs.Label{Name: "read"}, Run: rq.Job(func(c *Chunk) {
		s := 0
		for _, h := range er.Events() {
			s += h.K
		}
		sums[c.Index()] = s
	})}
	g := worldSeam{w}
	step := func() {
		g.StartStep()
		benchFrame(b, w, pool, func() (jobs.Handle, error) {
			n, _ := wq.Prepare(changedBatch)
			h, err := pool.ParallelFor(wjob, n, 1)
			if err != nil {
				return h, err
			}
			n, _ = rq.Prepare(changedBatch)
			return pool.ParallelFor(rjob, n, 1, h)
		})
	}
	step()
	step()
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		step()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*rows*per), "ns/event")
}

// benchFrame runs one frame of w: schedule (which returns the handle to
// wait for), wait, end the frame, reset the pool.
func benchFrame(b *testing.B, w *World, pool *jobs.Pool, schedule func() (jobs.Handle, error)) {
	if err := w.BeginFrame(); err != nil {
		b.Fatal(err)
	}
	h, err := schedule()
	if err == nil {
		err = pool.Wait(h)
	}
	if err != nil {
		b.Fatal(err)
	}
	if _, err := w.EndFrame(); err != nil {
		b.Fatal(err)
	}
	if err := pool.Reset(); err != nil {
		b.Fatal(err)
	}
}
