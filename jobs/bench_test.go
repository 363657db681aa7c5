package jobs

import (
	"fmt"
	"testing"
)

// The pool's own micro-benchmarks; bench/ compares it with other executors.

// BenchmarkEmptyJobs is the per-job cost of schedule + run + wait: batches
// of independent empty jobs, then one Reset (which waits for all of them).
// One op is one job.
func BenchmarkEmptyJobs(b *testing.B) {
	for _, w := range []int{0, DefaultWorkers} {
		p, _ := New(Options{Workers: w})
		b.Run(fmt.Sprintf("workers=%d", p.Workers()), func(b *testing.B) {
			empty := func(*Ctx) {}
			b.ReportAllocs()
			const batch = 4096
			for i := 0; i < b.N; i += batch {
				for range min(batch, b.N-i) {
					if _, err := p.Schedule(Job{Run: empty}); err != nil {
						b.Fatal(err)
					}
				}
				if err := p.Reset(); err != nil {
					b.Fatal(err)
				}
			}
		})
		p.Close()
	}
}

// BenchmarkChainedJobs is the cost of a dependency edge: a chain of jobs,
// each depending on the previous one. One op is one job.
func BenchmarkChainedJobs(b *testing.B) {
	for _, w := range []int{0, DefaultWorkers} {
		p, _ := New(Options{Workers: w})
		b.Run(fmt.Sprintf("workers=%d", p.Workers()), func(b *testing.B) {
			empty := func(*Ctx) {}
			b.ReportAllocs()
			const batch = 4096
			for i := 0; i < b.N; i += batch {
				prev, _ := p.Schedule(Job{Run: empty})
				for range min(batch, b.N-i) - 1 {
					prev, _ = p.Schedule(Job{Run: empty}, prev)
				}
				if err := p.Reset(); err != nil {
					b.Fatal(err)
				}
			}
		})
		p.Close()
	}
}

// BenchmarkParallelForOverhead is ParallelFor over empty chunks: one op is
// one chunk.
func BenchmarkParallelForOverhead(b *testing.B) {
	for _, w := range []int{0, DefaultWorkers} {
		p, _ := New(Options{Workers: w})
		b.Run(fmt.Sprintf("workers=%d", p.Workers()), func(b *testing.B) {
			empty := func(*Ctx) {}
			b.ReportAllocs()
			h, _ := p.ParallelFor(Job{Run: empty}, b.N, 1)
			if err := p.Wait(h); err != nil {
				b.Fatal(err)
			}
			_ = p.Reset()
		})
		p.Close()
	}
}
