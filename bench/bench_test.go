package bench

import (
	"errors"
	"fmt"
	"testing"
)

// BenchmarkW1EmptyJobs: b.N independent empty jobs scheduled from the
// benchmark goroutine, in batches of w1Batch each followed by one wait. One
// op is one job, so ns/op is the cost per job; use -benchtime=1000000x.
func BenchmarkW1EmptyJobs(b *testing.B) {
	forImpls(b, false, w1Batch, func(s system, n int) error {
		for ; n > 0; n -= w1Batch {
			if err := s.emptyJobs(min(n, w1Batch)); err != nil {
				return err
			}
		}
		return nil
	})
}

// BenchmarkW2ParallelFor: x[i] = x[i]*1.0001 + 0.5 over w2Len float32 in
// chunks of c items. One op is one pass.
func BenchmarkW2ParallelFor(b *testing.B) {
	v := newVector(w2Len)
	for _, im := range impls {
		b.Run(im.name, func(b *testing.B) {
			for _, chunk := range w2Chunks {
				b.Run(fmt.Sprintf("chunk=%d", chunk), func(b *testing.B) {
					measure(b, im, false, 1, ops(func(s system) error { return s.parallelFor(v, chunk) }))
				})
			}
		})
	}
}

// BenchmarkW3WideDAG: a root job, w3Width middle jobs of about 2 µs that
// depend on it, and a join depending on all of them. One op is one graph.
// A scheduler runs it in each dagForm.
func BenchmarkW3WideDAG(b *testing.B) {
	var d dag
	for _, im := range impls {
		b.Run(im.name, func(b *testing.B) {
			forms(b, im, dagForms, func(b *testing.B, f dagForm) {
				measure(b, im, false, 1, ops(func(s system) error { return s.wideDAG(&d, f) }))
			})
		})
	}
}

// BenchmarkW4Fib: fib(w4N) by fork-join, each call with n >= fibCutoff
// forking (a scheduler: in each forkForm) and joining its children. One op
// is one fib(w4N).
func BenchmarkW4Fib(b *testing.B) {
	for _, im := range impls {
		b.Run(im.name, func(b *testing.B) {
			forms(b, im, forkForms, func(b *testing.B, f forkForm) {
				measure(b, im, true, 1, func(s system, n int) error {
					var got int64
					for range n {
						var err error
						if got, err = s.fib(w4N, f); err != nil {
							return err
						}
					}
					if got != w4Want {
						return fmt.Errorf("fib(%d) = %d, want %d", w4N, got, w4Want)
					}
					return nil
				})
			})
		})
	}
}

// forms runs do for each form of a scheduler, as a sub-benchmark of b named
// by the form, and for a baseline (serial, pinned) once, in b itself with
// the first form, which it ignores.
func forms[F fmt.Stringer](b *testing.B, im impl, fs []F, do func(*testing.B, F)) {
	if !im.scheduler {
		do(b, fs[0])
		return
	}
	for _, f := range fs {
		b.Run(f.String(), func(b *testing.B) { do(b, f) })
	}
}

// A run performs n ops of a workload on s.
type run func(s system, n int) error

// ops makes the run that calls op n times.
func ops(op func(system) error) run {
	return func(s system, n int) error {
		for range n {
			if err := op(s); err != nil {
				return err
			}
		}
		return nil
	}
}

// forImpls makes every implementation a sub-benchmark <impl> of b (see
// measure).
func forImpls(b *testing.B, nested bool, warm int, r run) {
	for _, im := range impls {
		b.Run(im.name, func(b *testing.B) { measure(b, im, nested, warm, r) })
	}
}

// measure opens a system of im (nested as for impl.open), warms it up with
// warm untimed ops, so that pools have started their goroutines and weft its
// arena, then times b.N ops with allocations reported. The system is closed
// outside the timed region. A workload or form the system does not run,
// or a system that cannot run here (errNoForm), is skipped.
func measure(b *testing.B, im impl, nested bool, warm int, r run) {
	s, err := im.open(nested)
	if errors.Is(err, errNoForm) {
		b.Skip(err)
	} else if err != nil {
		b.Fatal(err)
	}
	defer func() {
		if err := s.close(); err != nil {
			b.Error(err)
		}
	}()
	if err := r(s, warm); errors.Is(err, errNoForm) {
		b.Skip(err)
	} else if err != nil {
		b.Fatal(err)
	}
	m, metered := s.(meter)
	if metered {
		m.begin()
	}
	b.ReportAllocs()
	b.ResetTimer()
	err = r(s, b.N)
	b.StopTimer()
	if err != nil {
		b.Fatal(err)
	}
	if metered {
		m.report(b)
	}
}

// A meter is a system that reports its own counters over the timed ops as
// extra benchmark metrics (per op), so that a slow process shows why.
type meter interface {
	begin()              // before the timed ops
	report(b *testing.B) // after them
}
