package jobs

import (
	"fmt"
	"testing"
)

// The pool's own micro-benchmarks; bench/ compares it with other executors.

// onEachPool runs f as a sub-benchmark on the serial executor and on the
// default pool, made on the sub-benchmark's goroutine: only a pool's owner
// may Reset it.
func onEachPool(b *testing.B, f func(b *testing.B, p *Pool)) {
	for _, w := range []int{0, DefaultWorkers} {
		n, _ := ResolveWorkers(w)
		b.Run(fmt.Sprintf("workers=%d", n), func(b *testing.B) {
			p, err := New(Options{Workers: w})
			if err != nil {
				b.Fatal(err)
			}
			defer p.Close()
			warm(b, p)
			b.ReportAllocs()
			b.ResetTimer()
			f(b, p)
		})
	}
}

// warm runs a frame as large as inFrames', each job after the one
// before, so that the timed frames find p's arenas grown. Executed by p's
// owner.
func warm(b *testing.B, p *Pool) {
	prev, err := p.Schedule(Job{Run: empty})
	for range frame - 1 {
		if err != nil {
			b.Fatal(err)
		}
		prev, err = p.Schedule(Job{Run: empty}, prev)
	}
	if err != nil {
		b.Fatal(err)
	}
	if err := p.Reset(); err != nil {
		b.Fatal(err)
	}
}

// frame is the jobs of one frame of inFrames.
const frame = 4096

// inFrames runs b.N jobs made by schedule (given the previous job of the
// frame, zero Handle for the first) in frames of 4096, each ended by Reset.
func inFrames(b *testing.B, p *Pool, schedule func(prev Handle) (Handle, error)) {
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
		if err := p.Reset(); err != nil {
			b.Fatal(err)
		}
	})
}

// wideWidth is the middle jobs of BenchmarkWideFrame: bench/'s W3 graph
// with empty bodies, so that only the pool's cost is timed.
const wideWidth = 1000

// BenchmarkWideFrame is a frame of a root, wideWidth empty jobs after it
// and a join after them, then Reset: scheduled job by job
// (form=schedule), or run from a Plan built once (form=plan). One op is
// one frame.
func BenchmarkWideFrame(b *testing.B) {
	b.Run("form=schedule", func(b *testing.B) {
		mids := make([]Handle, wideWidth)
		onEachPool(b, func(b *testing.B, p *Pool) {
			for range b.N {
				root, _ := p.Schedule(Job{Run: empty})
				for i := range mids {
					mids[i], _ = p.Schedule(Job{Run: empty, Lo: i}, root)
				}
				join, _ := p.Schedule(Job{Run: empty}, mids...)
				wideFrame(b, p, join)
			}
		})
	})
	b.Run("form=plan", func(b *testing.B) {
		onEachPool(b, func(b *testing.B, p *Pool) {
			pl := p.NewPlan()
			root, _ := pl.Add(Job{Run: empty})
			mids := make([]PlanJob, wideWidth)
			for i := range mids {
				mids[i], _ = pl.Add(Job{Run: empty, Lo: i}, root)
			}
			join, _ := pl.Add(Job{Run: empty}, mids...)
			if err := pl.Build(); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for range b.N {
				run, err := p.Run(pl)
				if err != nil {
					b.Fatal(err)
				}
				wideFrame(b, p, run.Handle(join))
			}
		})
	})
}

// wideFrame waits for join and ends the frame. Executed by p's owner.
func wideFrame(b *testing.B, p *Pool, join Handle) {
	if err := p.Wait(join); err != nil {
		b.Fatal(err)
	}
	if err := p.Reset(); err != nil {
		b.Fatal(err)
	}
}
