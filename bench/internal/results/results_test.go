package results

import (
	"slices"
	"strings"
	"testing"
)

func TestParseFile(t *testing.T) {
	s, err := ParseFile("testdata/results.txt")
	if err != nil {
		t.Fatal(err)
	}
	if s.CPU != "AMD EPYC" || s.Procs != "2" {
		t.Errorf("cpu %q, procs %q; want AMD EPYC, 2", s.CPU, s.Procs)
	}
	var names []string
	for _, b := range s.Benchmarks {
		names = append(names, b.Name)
	}
	want := []string{
		"W1EmptyJobs/weft", "W1EmptyJobs/serial", "W1EmptyJobs/ants",
		"W2ParallelFor/weft/chunk=1024", "W2ParallelFor/weft/chunk=16384",
		"W2ParallelFor/serial/chunk=1024", "W2ParallelFor/serial/chunk=16384",
		"W3WideDAG/weft", "W3WideDAG/serial",
		"W4Fib/weft", "W4Fib/serial", "W4Fib/chanpool",
	}
	if !slices.Equal(names, want) {
		t.Errorf("names\n%q\nwant\n%q", names, want)
	}

	b := s.Lookup("W2ParallelFor/weft/chunk=16384")
	if b == nil {
		t.Fatal("no W2ParallelFor/weft/chunk=16384")
	}
	if !slices.Equal(b.Parts, []string{"W2ParallelFor", "weft", "chunk=16384"}) {
		t.Errorf("parts %q", b.Parts)
	}
	if got := b.NsPerOp(); !slices.Equal(got, []float64{1071987, 1104056, 1090854}) {
		t.Errorf("ns/op %v", got)
	}
	if got := b.Metrics["B/op"]; !slices.Equal(got, []float64{2, 0, 0}) {
		t.Errorf("B/op %v", got)
	}
	if got := s.Lookup("W4Fib/chanpool").Metrics["allocs/op"]; !slices.Equal(got, []float64{6384, 6384, 6384}) {
		t.Errorf("allocs/op %v", got)
	}
}

func TestParseCustomMetrics(t *testing.T) {
	s, err := ParseFile("testdata/frame.txt")
	if err != nil {
		t.Fatal(err)
	}
	b := s.Lookup("Frame/entities=50k/parallel")
	if b == nil {
		t.Fatal("no Frame/entities=50k/parallel")
	}
	if got := b.NsPerOp(); !slices.Equal(got, []float64{8137257, 8950982}) {
		t.Errorf("ns/op %v", got)
	}
	if got := b.Metrics["physics-ns/entity"]; !slices.Equal(got, []float64{197.6, 197.6}) {
		t.Errorf("physics-ns/entity %v", got)
	}
	if len(s.Benchmarks) != 4 {
		t.Errorf("%d benchmarks, want 4", len(s.Benchmarks))
	}
}

func TestParseSkips(t *testing.T) {
	in := `BenchmarkX logged a line
BenchmarkX 	 10	 abc ns/op
BenchmarkX 	 10	 5 B/op	 1 allocs/op
BenchmarkY-8 	 10	 5 ns/op
`
	s, err := Parse(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Benchmarks) != 1 || s.Benchmarks[0].Name != "Y" || s.Procs != "8" {
		t.Errorf("got %+v, procs %q; want only Y with procs 8", s.Benchmarks, s.Procs)
	}
}

func TestMedian(t *testing.T) {
	for _, c := range []struct {
		in   []float64
		want float64
	}{
		{[]float64{3}, 3},
		{[]float64{5, 1, 3}, 3},
		{[]float64{4, 1, 3, 2}, 2.5},
	} {
		if got := Median(c.in); got != c.want {
			t.Errorf("Median(%v) = %v, want %v", c.in, got, c.want)
		}
	}
}
