package main

import "testing"

func TestCheck(t *testing.T) {
	for _, c := range []struct {
		threads int
		loop    string
		ok      bool
	}{{1, "tput", true}, {2, "lat", true}, {0, "tput", false}, {3, "lat", false}, {1, "mem", false}, {2, "w2", true}} {
		if err := check(c.threads, c.loop); (err == nil) != c.ok {
			t.Errorf("check(%d, %q) = %v", c.threads, c.loop, err)
		}
	}
}

// TestLoops: the loops compute what they say (a changed loop would measure
// something else).
func TestLoops(t *testing.T) {
	x := uint64(88172645463325252)
	x ^= x << 13
	x ^= x >> 7
	x ^= x << 17
	if got := latency(1); got != x {
		t.Errorf("latency(1) = %d, want %d", got, x)
	}
	want := 0.0
	for i := range 8 {
		want += float64(i)/10*1.0000001 + 0.5
	}
	if got := throughput(1); got != want {
		t.Errorf("throughput(1) = %v, want %v", got, want)
	}
	v := newVector(10)
	if parts := split(v, 2); len(parts[0]) != 5 || len(parts[1]) != 5 || &parts[1][0] != &v[5] {
		t.Errorf("split(10 items, 2) = parts of %d and %d items", len(parts[0]), len(parts[1]))
	}
	want32 := float32(3) / 1000 // v[3], computed as newVector does, in float32 at run time
	for range 2 {
		want32 = want32*1.0001 + 0.5
	}
	if got := passes(v[3:], 2); got != want32 {
		t.Errorf("passes(x[3:], 2) = %v, want %v", got, want)
	}
}
