package ecsbench

import (
	"flag"
	"fmt"
	"testing"

	"github.com/weft-engine/weft/bench/ecsbench/random"
	"github.com/weft-engine/weft/bench/ecsbench/weftrun"
)

// BenchmarkSuite runs every workload's candidates at the suite's N:
// BenchmarkSuite/<workload>/<candidate>/N=<n>, each reporting ns/entity
// as the suite's runner computes it (time over ops × n).
func BenchmarkSuite(b *testing.B) {
	for _, w := range Workloads() {
		b.Run(w.Name, func(b *testing.B) {
			for _, c := range w.Benches {
				b.Run(c.Name, func(b *testing.B) {
					for _, n := range w.N {
						b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
							c.F(b, n)
							b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/entity")
						})
					}
				})
			}
		})
	}
}

// TestSameWork runs every candidate of every workload, the suite's and
// weft's, for three ops at small N through testing.Benchmark. The suite's
// candidates check themselves where the suite does (query2comp's sum of
// positions, random's sum, new_world's world); weft's check the same sums
// and more: the rows their system visited a step equal N (the fragmented
// queries visit only the matching tables), the entities there are after a
// create, a delete or an add and remove, and the commands played back. A
// failed check fails the benchmark, which testing.Benchmark answers with a
// zero result.
func TestSameWork(t *testing.T) {
	defer threeOps(t)()
	for _, w := range Workloads() {
		for _, c := range w.Benches {
			for _, n := range []int{1, 64, 1000} {
				if w.Name == "new_world" && n != 1 {
					continue
				}
				r := testing.Benchmark(func(b *testing.B) { c.F(b, n) })
				if r.N != 3 {
					t.Errorf("%s/%s/N=%d: ran %d ops, want 3 (a check failed)", w.Name, c.Name, n, r.N)
				}
			}
		}
	}
}

// TestLookupsCounted runs weft's random access with Position.X 1, so that
// its sum is the number of lookups that found their entity: N a step.
func TestLookupsCounted(t *testing.T) {
	defer threeOps(t)()
	for _, c := range weftrun.Configs {
		r := testing.Benchmark(func(b *testing.B) { random.RunWeft(b, 1000, c.Cfg, 1) })
		if r.N != 3 {
			t.Errorf("%s: ran %d ops, want 3 (the sum was not 1000 a step)", c.Name, r.N)
		}
	}
}

// threeOps makes testing.Benchmark run three ops (-test.benchtime 3x) and
// returns what restores the flag.
func threeOps(t *testing.T) func() {
	bt := flag.Lookup("test.benchtime")
	old := bt.Value.String()
	if err := bt.Value.Set("3x"); err != nil {
		t.Fatal(err)
	}
	return func() { _ = bt.Value.Set(old) }
}
