package main

import (
	"strings"
	"testing"
)

const input = `goos: linux
cpu: Test CPU
BenchmarkW1EmptyJobs/weft-2         	1000000	        50.0 ns/op	       0 B/op	       0 allocs/op
BenchmarkW1EmptyJobs/weft-2         	1000000	        70.0 ns/op	       0 B/op	       0 allocs/op
BenchmarkW1EmptyJobs/weft-2         	1000000	        60.0 ns/op	       0 B/op	       0 allocs/op
BenchmarkW2ParallelFor/weft/chunk=1024-2   	 200	   1000000 ns/op	 0 B/op	 0 allocs/op
BenchmarkW2ParallelFor/weft/chunk=16384-2  	 200	    500000 ns/op	 0 B/op	 0 allocs/op
BenchmarkW2ParallelFor/serial/chunk=1024-2 	 200	   2000000 ns/op	 0 B/op	 0 allocs/op
BenchmarkW2ParallelFor/serial/chunk=16384-2	 200	   2000000 ns/op	 0 B/op	 0 allocs/op
BenchmarkW3WideDAG/weft-2           	     200	   1500000 ns/op	 0 B/op	 0 allocs/op
BenchmarkW3WideDAG/serial-2         	     200	   3000000 ns/op	 0 B/op	 0 allocs/op
BenchmarkW4Fib/goroutines-2         	     200	   4000000 ns/op	 100 B/op	 3 allocs/op
BenchmarkW4Fib/goroutines-2         	     200	   6000000 ns/op	 100 B/op	 5 allocs/op
BenchmarkW4Fib/serial-2             	     200	   3000000 ns/op	 0 B/op	 0 allocs/op
PASS
`

func TestRun(t *testing.T) {
	var out strings.Builder
	if err := run(strings.NewReader(input), &out); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{
		"cpu: Test CPU, GOMAXPROCS: 2\n",
		"### W1EmptyJobs (median of 3)\n",
		"| weft | 60.0 | 0 | 60.0 |\n",
		"| impl | chunk | ns/op | allocs/op | speedup (serial ÷ impl) |\n",
		"| weft | 1024 | 1000000 | 0 | 2.00 |\n",
		"| weft | 16384 | 500000 | 0 | 4.00 |\n",
		"| serial | 16384 | 2000000 | 0 | 1.00 |\n",
		"| weft | 1500000 | 0 | 0.50 |\n",
		"| goroutines | 5000000 | 4 | 0.60 |\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
}

func TestRunEmpty(t *testing.T) {
	if err := run(strings.NewReader("PASS\n"), new(strings.Builder)); err == nil {
		t.Error("no error for input without results")
	}
}
