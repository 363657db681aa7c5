package ecs

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	ark "github.com/mlange-42/ark/ecs"
	"github.com/weft-engine/weft/jobs"
	"github.com/weft-engine/weft/safety"
)

// BenchmarkEnabled is one pass of vel = f(pos) over 100,000 rows (one op
// = one pass, batch 256), on one worker and the owner ("W1") and on the
// owner alone ("W0": the work without a worker's scheduling, which on a
// busy machine can outweigh a light pass). "all" ranges over the
// column; "empty/none" visits nothing (the frame and its chunks alone,
// the part every variant pays); the others visit the rows where
// EnabledReader[pos] says pos is on, through On ("on"), Each ("each") or
// Runs ("runs"), with every row on ("on-all"), half of them off drawn at
// random row by row ("half"), or half of them off in runs of 64 rows
// ("blocks"). The kernel is "cheap" (a multiply) or "heavy" (a square root, a division
// and a few products: the weight of a steering rule).
// Only the pass is timed: ns/pass is the figure. Compare each with "all"
// of the same kernel: a pass that skips the rows that are off should
// cost at most 0.6 of it.
func BenchmarkEnabled(b *testing.B) {
	for _, workers := range []int{1, 0} {
		for _, k := range []string{"cheap", "heavy"} {
			benchEnabledKernel(b, workers, k)
		}
	}
}

// benchEnabledKernel runs BenchmarkEnabled's variants of one kernel.
func benchEnabledKernel(b *testing.B, workers int, k string) {
	for _, v := range []struct {
		name, visit string
		off         func(i int, rng *rand.Rand) bool
	}{
		{"all", "", nil},
		{"empty", "none", nil},
		{"on-all", "on", nil},
		{"on-all", "each", nil},
		{"half", "on", halfRandom},
		{"half", "each", halfRandom},
		{"half", "runs", halfRandom},
		{"blocks", "on", halfBlocks},
		{"blocks", "each", halfBlocks},
		{"blocks", "runs", halfBlocks},
	} {
		if k == "heavy" && v.visit == "none" {
			continue // no kernel: the same as cheap's
		}
		name := fmt.Sprintf("W%d/%s/%s", workers, k, v.name)
		if v.visit != "" {
			name += "/" + v.visit
		}
		b.Run(name, func(b *testing.B) { benchEnabled(b, workers, k == "heavy", v.visit, v.off) })
	}
}

// heavyKernel is the weight of a steering rule: a length, a division and
// a few products, without branches that depend on the value.
func heavyKernel(x float64) float64 {
	d := math.Sqrt(x*x + 1)
	return (x*0.25 + 1) / d * (x*x*0.001 + x*0.01 + 1)
}

func halfRandom(_ int, rng *rand.Rand) bool { return rng.Float64() < 0.5 }
func halfBlocks(i int, _ *rand.Rand) bool   { return i/64%2 == 1 }

func benchEnabled(b *testing.B, workers int, heavy bool, visit string, off func(int, *rand.Rand) bool) {
	w := NewWorld(Options{NoChecks: true})
	NewComponent[pos](w)
	NewComponent[vel](w)
	ark.NewMap2[pos, vel](w.ark).NewBatchFn(changedEntities, func(e ark.Entity, p *pos, v *vel) {
		*p = pos{X: float64(e.ID())}
	})
	pool, err := jobs.New(jobs.Options{Workers: workers})
	if err != nil {
		b.Fatal(err)
	}
	defer pool.Close()
	tr := safety.NewTracker(pool, w.Registry(), safety.Options{NoChecks: true})
	rd := w.System("read")
	rp, rv := Read[pos](rd), Write[vel](rd)
	on := ReadEnabled[pos](rd)
	rng := rand.New(rand.NewPCG(1, 2))
	i := 0
	for e := range must(w.Entities()) {
		if off != nil && off(i, rng) {
			if err := SetEnabled[pos](w, e, false); err != nil {
				b.Fatal(err)
			}
		}
		i++
	}
	rq := NewQuery2(rd, rp, rv)
	body := enabledBodies(rp, rv, on)[visit]
	if heavy {
		body = enabledHeavy(rp, rv, on)[visit]
	}
	job := jobs.Job{Label: jobs.Label{Name: "read"}, Run: rq.Job(body)}
	frame := func() {
		benchFrame(b, w, pool, func() (jobs.Handle, error) {
			n, err := rq.Prepare(changedBatch)
			if err != nil {
				return jobs.Handle{}, err
			}
			return tr.ParallelFor(job, &rd.access, n, 1)
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

// enabledBodies are the cheap kernel's passes, by how they visit rows.
// Not inlined: a closure of a function inlined into another is compiled
// again there without Each inlined into it (Each then allocates).
//
//go:noinline
func enabledBodies(rp Reader[pos], rv Writer[vel], on EnabledReader[pos]) map[string]func(c *Chunk) {
	return map[string]func(c *Chunk){
		"none": func(*Chunk) {}, // the frame and its chunks without work: the fixed part
		"": func(c *Chunk) {
			p, v := rp.Column(c), rv.Column(c)
			for i := range p {
				v[i].DX = p[i].X * 0.5
			}
		},
		"on": func(c *Chunk) {
			p, v := rp.Column(c), rv.Column(c)
			for _, i := range on.On(c) {
				v[i].DX = p[i].X * 0.5
			}
		},
		"each": func(c *Chunk) {
			p, v := rp.Column(c), rv.Column(c)
			for i := range on.Each(c) {
				v[i].DX = p[i].X * 0.5
			}
		},
		"runs": func(c *Chunk) {
			p, v := rp.Column(c), rv.Column(c)
			for _, r := range on.Runs(c) {
				for i := r.Start; i < r.End; i++ {
					v[i].DX = p[i].X * 0.5
				}
			}
		},
	}
}

// enabledHeavy are the heavy kernel's passes, by how they visit rows.
// Not inlined, as enabledBodies.
//
//go:noinline
func enabledHeavy(rp Reader[pos], rv Writer[vel], on EnabledReader[pos]) map[string]func(c *Chunk) {
	return map[string]func(c *Chunk){
		"": func(c *Chunk) {
			p, v := rp.Column(c), rv.Column(c)
			for i := range p {
				v[i].DX = heavyKernel(p[i].X)
			}
		},
		"on": func(c *Chunk) {
			p, v := rp.Column(c), rv.Column(c)
			for _, i := range on.On(c) {
				v[i].DX = heavyKernel(p[i].X)
			}
		},
		"each": func(c *Chunk) {
			p, v := rp.Column(c), rv.Column(c)
			for i := range on.Each(c) {
				v[i].DX = heavyKernel(p[i].X)
			}
		},
		"runs": func(c *Chunk) {
			p, v := rp.Column(c), rv.Column(c)
			for _, r := range on.Runs(c) {
				for i := r.Start; i < r.End; i++ {
					v[i].DX = heavyKernel(p[i].X)
				}
			}
		},
	}
}

// BenchmarkEnabledPlain is BenchmarkEnabled's pass without weft: plain
// Go slices of the same 100,000 rows, every row ("all") or the on rows of
// "half" through an index of them built before the timer starts
// ("index": no cost of finding them at all), with the same kernels. It
// bounds what any way of skipping off rows can gain with each kernel.
func BenchmarkEnabledPlain(b *testing.B) {
	p, v := make([]pos, changedEntities), make([]vel, changedEntities)
	rng := rand.New(rand.NewPCG(1, 2))
	var on []int32
	for i := range p {
		p[i] = pos{X: float64(i)}
		if !halfRandom(i, rng) {
			on = append(on, int32(i))
		}
	}
	for name, pass := range map[string]func(){
		"cheap/all":        func() { plainCheap(p, v) },
		"cheap/half/index": func() { plainCheapAt(p, v, on) },
		"heavy/all":        func() { plainHeavy(p, v) },
		"heavy/half/index": func() { plainHeavyAt(p, v, on) },
	} {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				pass()
			}
		})
	}
}

// The plain passes, each a loop of its own, kept out of line as
// BenchmarkEnabled's bodies are.

//go:noinline
func plainCheap(p []pos, v []vel) {
	for i := range p {
		v[i].DX = p[i].X * 0.5
	}
}

//go:noinline
func plainCheapAt(p []pos, v []vel, on []int32) {
	for _, i := range on {
		v[i].DX = p[i].X * 0.5
	}
}

//go:noinline
func plainHeavy(p []pos, v []vel) {
	for i := range p {
		v[i].DX = heavyKernel(p[i].X)
	}
}

//go:noinline
func plainHeavyAt(p []pos, v []vel, on []int32) {
	for _, i := range on {
		v[i].DX = heavyKernel(p[i].X)
	}
}
