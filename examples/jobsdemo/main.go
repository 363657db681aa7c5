// Command jobsdemo runs a small particle frame on the jobs pool, serial and
// parallel, prints per-frame timings and writes a Chrome trace of one frame.
package main

import (
	"flag"
	"fmt"
	"math"
	"os"
	"slices"
	"time"

	"github.com/weft-engine/weft/jobs"
)

type particles struct {
	x, v []float32
	sum  []float64 // per-chunk partial sums, merged in chunk order
}

func integrate(c *jobs.Ctx) {
	p := c.Data().(*particles)
	lo, hi := c.Range()
	for i := lo; i < hi; i++ {
		p.v[i] = p.v[i]*0.999 - 0.01
		p.x[i] += p.v[i] * (1.0 / 60)
		if p.x[i] < 0 {
			p.x[i], p.v[i] = -p.x[i], -p.v[i]
		}
	}
}

func energy(c *jobs.Ctx) {
	p := c.Data().(*particles)
	lo, hi := c.Range()
	s := 0.0
	for i := lo; i < hi; i++ {
		s += float64(p.v[i]*p.v[i]) + math.Sqrt(float64(p.x[i]))
	}
	p.sum[c.Label().Chunk] = s
}

func main() {
	n := flag.Int("n", 1_000_000, "particles")
	frames := flag.Int("frames", 120, "frames per run")
	batch := flag.Int("batch", 16384, "items per chunk")
	tracePath := flag.String("trace", "jobsdemo-trace.json", "Chrome trace of the last parallel frame (open in Perfetto)")
	flag.Parse()

	for _, workers := range []int{0, jobs.DefaultWorkers} {
		pool, err := jobs.New(jobs.Options{Workers: workers})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		p := &particles{x: make([]float32, *n), v: make([]float32, *n), sum: make([]float64, (*n+*batch-1) / *batch)}
		for i := range p.x {
			p.x[i], p.v[i] = float32(i%1000), float32(i%7)
		}
		var times []time.Duration
		var total float64
		for f := range *frames {
			pool.SetTracing(f == *frames-1)
			start := time.Now()
			a, _ := pool.ParallelFor(jobs.Job{Label: jobs.Label{Name: "integrate"}, Run: integrate, Data: p}, *n, *batch)
			b, _ := pool.ParallelFor(jobs.Job{Label: jobs.Label{Name: "energy"}, Run: energy, Data: p}, *n, *batch, a)
			if err := pool.Wait(b); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			total = 0
			for _, s := range p.sum { // owner-side merge, in chunk order: the same sum for any worker count
				total += s
			}
			times = append(times, time.Since(start))
			_ = pool.Reset()
		}
		slices.Sort(times)
		fmt.Printf("workers=%d  frame p50 %v  p99 %v  energy %.6e\n", pool.Workers(), times[len(times)/2], times[len(times)*99/100], total)
		if workers != 0 {
			events, _ := pool.ReadTrace(nil)
			f, err := os.Create(*tracePath)
			if err == nil {
				err = jobs.WriteChromeTrace(f, events)
				f.Close()
			}
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			fmt.Printf("trace of the last frame (%d events): %s — open it in https://ui.perfetto.dev\n", len(events), *tracePath)
		}
		_ = pool.Close()
	}
}
