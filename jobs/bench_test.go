package jobs

import (
	"fmt"
	"testing"
)

// The pool's own micro-benchmarks; bench/ compares it with other executors.

// onEachPool runs f as a sub-benchmark on the serial executor and on the
// default pool.
func onEachPool(b *testing.B, f func(b *testing.B, p *Pool)) {
	for _, w := range []int{0, DefaultWorkers} {
		p, _ := New(Options{Workers: w})
		b.Run(fmt.Sprintf("workers=%d", p.Workers()), func(b *testing.B) {
			b.ReportAllocs()
			f(b, p)
		})
		p.Close()
	}
}

// inFrames runs b.N jobs made by schedule (given the previous job of the
// frame, zero Handle for the first) in frames of 4096, each ended by Reset.
func inFrames(b *testing.B, p *Pool, schedule func(prev Handle) (Handle, error)) {
	const frame = 4096
	for i := 0; i < b.N; i += frame {
		var prev Handle
		for range min(frame, b.N-i) {
			var err error
			if prev, err = schedule(prev); err != nil {
				b.Fatal(err)
			}
		}
		if err := p.Reset(); err != nil {
			b.Fatal(err)
		}
	}
}

func empty(*Ctx) {}

// BenchmarkEmptyJobs is the per-job cost of schedule + run + wait: frames
// of independent empty jobs, each ended by one Reset (which waits for all
// of them). One op is one job.
func BenchmarkEmptyJobs(b *testing.B) {
	onEachPool(b, func(b *testing.B, p *Pool) {
		inFrames(b, p, func(Handle) (Handle, error) { return p.Schedule(Job{Run: empty}) })
	})
}

// BenchmarkChainedJobs is the cost of a dependency edge: each job depends
// on the previous one of its frame. One op is one job.
func BenchmarkChainedJobs(b *testing.B) {
	onEachPool(b, func(b *testing.B, p *Pool) {
		inFrames(b, p, func(prev Handle) (Handle, error) {
			if prev == (Handle{}) {
				return p.Schedule(Job{Run: empty})
			}
			return p.Schedule(Job{Run: empty}, prev)
		})
	})
}

// BenchmarkParallelForOverhead is ParallelFor over empty chunks of one
// item: one op is one chunk.
func BenchmarkParallelForOverhead(b *testing.B) {
	onEachPool(b, func(b *testing.B, p *Pool) {
		h, err := p.ParallelFor(Job{Run: empty}, b.N, 1)
		if err != nil {
			b.Fatal(err)
		}
		if err := p.Wait(h); err != nil {
			b.Fatal(err)
		}
		_ = p.Reset()
	})
}
