package main

import (
	"strings"
	"testing"
)

const input = `machine: box, Test CPU Model
goos: linux
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
	assertLines(t, table(t, input),
		"machine: box, Test CPU Model\n",
		"cpu: Test CPU, GOMAXPROCS: 2\n",
		"### W1EmptyJobs (median of 3)\n",
		"| weft | 60.0 | 50.0–70.0 | 0 | 60.0 |\n",
		"| impl | chunk | ns/op | min–max | allocs/op | speedup (serial ÷ impl) |\n",
		"| weft | 1024 | 1000000 | 1000000–1000000 | 0 | 2.00 |\n",
		"| weft | 16384 | 500000 | 500000–500000 | 0 | 4.00 |\n",
		"| serial | 16384 | 2000000 | 2000000–2000000 | 0 | 1.00 |\n",
		"| weft | 1500000 | 1500000–1500000 | 0 | 0.50 |\n",
		"| goroutines | 5000000 | 4000000–6000000 | 4 | 0.60 |\n")
}

// table is run's output for in.
func table(t *testing.T, in string) string {
	t.Helper()
	var out strings.Builder
	if err := run(strings.NewReader(in), &out, false); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

// assertLines reports each of wants that got lacks.
func assertLines(t *testing.T, got string, wants ...string) {
	t.Helper()
	for _, want := range wants {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
}

// TestFrameAndProcs: BenchmarkFrame's impl is its last part, and results
// at two GOMAXPROCS values get a table each.
func TestFrameAndProcs(t *testing.T) {
	in := `BenchmarkFrame/entities=50k/serial	30	8000000 ns/op	1 physics-ns/entity
BenchmarkFrame/entities=50k/parallel	30	8000000 ns/op
BenchmarkFrame/entities=50k/serial-2	30	8000000 ns/op
BenchmarkFrame/entities=50k/parallel-2	30	4000000 ns/op
BenchmarkFrame/entities=50k/parallel-2	30	5000000 ns/op
BenchmarkFrame/entities=50k/parallel-2	30	4400000 ns/op
`
	assertLines(t, table(t, in),
		"### Frame, GOMAXPROCS=1 (median of 1)\n",
		"### Frame, GOMAXPROCS=2 (median of 3)\n",
		"| impl | entities | ns/op | min–max | allocs/op | speedup (serial ÷ impl) |\n",
		"| parallel | 50k | 8000000 | 8000000–8000000 | - | 1.00 |\n",
		"| parallel | 50k | 4400000 | 4000000–5000000 | - | 1.82 |\n")
}

// TestFrameBatch: each batch against the fastest fixed batch, and the
// batch the adaptive one settled on.
func TestFrameBatch(t *testing.T) {
	in := `BenchmarkFrameBatch/entities=50k/batch=256-2	30	6000000 ns/op	256 batch
BenchmarkFrameBatch/entities=50k/batch=1024-2	30	5000000 ns/op	1024 batch
BenchmarkFrameBatch/entities=50k/batch=adaptive-2	30	5500000 ns/op	2048 batch
`
	assertLines(t, table(t, in),
		"| impl | entities | ns/op | min–max | allocs/op | impl ÷ best fixed batch |\n",
		"| batch=256 | 50k | 6000000 | 6000000–6000000 | - | 1.20 |\n",
		"| batch=1024 | 50k | 5000000 | 5000000–5000000 | - | 1.00 |\n",
		"| batch=adaptive | 50k | 5500000 | 5500000–5500000 | - | 1.10 (batch 2048) |\n")
}

func TestRunEmpty(t *testing.T) {
	if err := run(strings.NewReader("PASS\n"), new(strings.Builder), false); err == nil {
		t.Error("no error for input without results")
	}
}

// TestOwnBaseline: an impl <name>.<lang> is compared with serial.<lang>,
// the others with serial.
func TestOwnBaseline(t *testing.T) {
	in := `BenchmarkW4Fib/weft-2          	200	2000000 ns/op
BenchmarkW4Fib/serial-2        	200	4000000 ns/op
BenchmarkW4Fib/enkiTS.cpp-2    	200	 500000 ns/op
BenchmarkW4Fib/serial.cpp-2    	200	1000000 ns/op
BenchmarkW4Fib/taskflow.rs-2   	200	1000000 ns/op
`
	assertLines(t, table(t, in),
		"| weft | 2000000 | 2000000–2000000 | - | 2.00 |\n",
		"| enkiTS.cpp | 500000 | 500000–500000 | - | 2.00 |\n",
		"| taskflow.rs | 1000000 | 1000000–1000000 | - | 4.00 |\n")
}

// TestForms: W3's and W4's forms are a variant column, and each form's
// rows take their ratio from the one serial row, which has no form.
func TestForms(t *testing.T) {
	in := `BenchmarkW4Fib/weft/fork=2-2           	200	2000000 ns/op
BenchmarkW4Fib/weft/fork=1+inline-2    	200	1600000 ns/op
BenchmarkW4Fib/serial-2                	200	4000000 ns/op
BenchmarkW4Fib/enkiTS.cpp/fork=2-2     	200	 500000 ns/op
BenchmarkW4Fib/serial.cpp-2            	200	1000000 ns/op
`
	assertLines(t, table(t, in),
		"| impl | fork | ns/op | min–max | allocs/op | speedup (serial ÷ impl) |\n",
		"| weft | 2 | 2000000 | 2000000–2000000 | - | 2.00 |\n",
		"| weft | 1+inline | 1600000 | 1600000–1600000 | - | 2.50 |\n",
		"| serial |  | 4000000 | 4000000–4000000 | - | 1.00 |\n",
		"| enkiTS.cpp | 2 | 500000 | 500000–500000 | - | 2.00 |\n")
}

// TestMetrics: -metrics adds, per workload, the other metrics of each row
// with their median, min–max and the number of runs that reported them.
func TestMetrics(t *testing.T) {
	in := `BenchmarkFrame/entities=50k/parallel-2 	30	4000000 ns/op	80.0 physics-ns/entity	100 wait-µs/op	0 B/op	0 allocs/op
BenchmarkFrame/entities=50k/parallel-2 	30	4200000 ns/op	90.0 physics-ns/entity	300 wait-µs/op	0 B/op	0 allocs/op
BenchmarkFrame/entities=50k/parallel-2 	30	4100000 ns/op	85.0 physics-ns/entity	200 wait-µs/op	0 B/op	0 allocs/op
BenchmarkFrame/entities=50k/serial-2 	30	8000000 ns/op	84.0 physics-ns/entity	0 B/op	0 allocs/op
`
	var out strings.Builder
	if err := run(strings.NewReader(in), &out, true); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	assertLines(t, got,
		"#### Frame: other metrics\n",
		"| parallel | entities=50k | physics-ns/entity | 85.0 | 80.0–90.0 | 3 |\n",
		"| parallel | entities=50k | wait-µs/op | 200 | 100–300 | 3 |\n",
		"| serial | entities=50k | physics-ns/entity | 84.0 | 84.0–84.0 | 1 |\n")
	if strings.Contains(got, "| entities=50k | allocs/op |") || strings.Contains(got, "| entities=50k | B/op |") || strings.Contains(got, "| entities=50k | ns/op |") {
		t.Errorf("the main table's metrics repeated:\n%s", got)
	}
}
