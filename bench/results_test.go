package bench

import (
	"errors"
	"slices"
	"testing"
)

// TestResults checks that every implementation computes what serial does:
// the W2 array (with a short last chunk), the W3 sum (which is wrong if a job
// runs before its dependencies) and the W4 result, in every form an
// implementation has, on small sizes.
func TestResults(t *testing.T) {
	const (
		n2     = 10_000 // not a multiple of the chunk
		chunk  = 1024
		passes = 3
		fibN   = 22
	)
	want2 := newVector(n2)
	var want3 dag
	if err := (serial{}).wideDAG(&want3, dagJobs); err != nil {
		t.Fatal(err)
	}
	for range passes {
		scale(want2.x)
	}
	want4 := fibSerial(fibN)

	for _, im := range impls {
		t.Run(im.name, func(t *testing.T) {
			for _, nested := range []bool{false, true} {
				s, err := im.open(nested)
				if errors.Is(err, errNoForm) {
					t.Skip(err) // pinned where CPUs cannot be fixed
				} else if err != nil {
					t.Fatal(err)
				}
				if nested {
					for _, f := range forkForms {
						got, err := s.fib(fibN, f)
						switch {
						case errors.Is(err, errNoForm): // pinned runs W2 and W3 only
						case err != nil || got != want4:
							t.Errorf("W4 %v fib(%d) = %d, %v; want %d", f, fibN, got, err, want4)
						}
					}
				} else {
					if err := s.emptyJobs(w1Batch); err != nil && !errors.Is(err, errNoForm) {
						t.Errorf("W1: %v", err)
					}
					v := newVector(n2)
					for range passes {
						if err := s.parallelFor(v, chunk); err != nil {
							t.Fatalf("W2: %v", err)
						}
					}
					if !slices.Equal(v.x, want2.x) {
						t.Errorf("W2: array differs from serial")
					}
					for _, f := range dagForms {
						var d dag
						err := s.wideDAG(&d, f)
						if !errors.Is(err, errNoForm) && (err != nil || d.sum != want3.sum) {
							t.Errorf("W3 %v sum = %d, %v; want %d", f, d.sum, err, want3.sum)
						}
					}
				}
				if err := s.close(); err != nil {
					t.Error(err)
				}
			}
		})
	}
}
