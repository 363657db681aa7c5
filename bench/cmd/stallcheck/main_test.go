package main

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// TestWatch: a clock that jumps by given steps gives the gaps watch must
// count, in their classes, with the time lost and the longest.
func TestWatch(t *testing.T) {
	steps := []time.Duration{time.Microsecond, 50 * time.Microsecond, time.Microsecond, 2 * time.Millisecond, 10 * time.Millisecond}
	now := time.Unix(0, 0)
	i := 0
	clock := func() time.Time {
		if i > 0 {
			now = now.Add(steps[(i-1)%len(steps)])
		}
		i++
		return now
	}
	s := watch(clock, 12*time.Millisecond, 20*time.Microsecond)
	if want := []int{1, 0, 0, 1, 1}; !slices.Equal(s.count, want) {
		t.Errorf("counts %v, want %v", s.count, want)
	}
	if want := 50*time.Microsecond + 2*time.Millisecond + 10*time.Millisecond; s.lost != want {
		t.Errorf("lost %v, want %v", s.lost, want)
	}
	if s.longest != 10*time.Millisecond {
		t.Errorf("longest %v, want 10ms", s.longest)
	}
	if want := 12052 * time.Microsecond; s.duration != want {
		t.Errorf("watched %v, want %v (to the reading that passed the deadline)", s.duration, want)
	}
	line := report(1, s, 20*time.Microsecond)
	for _, want := range []string{"cpu 1:", "lost 100.0% of 12ms", "longest 10ms", "20µs-100µs 1", "1ms-3ms 1", "over 3ms 1"} {
		if !strings.Contains(line, want) {
			t.Errorf("report %q lacks %q", line, want)
		}
	}
}
