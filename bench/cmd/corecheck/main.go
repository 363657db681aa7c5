// Command corecheck tells how much a second core of this machine adds to
// two kinds of loop: throughput-bound (eight independent multiply-add
// chains, like W2's kernel) and latency-bound (one xorshift chain, like
// W3's). It runs the loop on -threads goroutines, each locked to its own
// OS thread, with GOMAXPROCS 2, and prints the wall time. Where two
// threads take as long as one, the cores are whole; where they take
// longer, the two share something: two vCPUs that are SMT siblings of one
// physical core show it in the throughput-bound loop and hardly in the
// latency-bound one.
//
// The third loop, w2, is W2's pass itself with no scheduler: its 16 MB
// array is divided between the threads, each scaling its part in place
// with W2's kernel, pass after pass. Here the work is fixed, not the work
// per thread: one thread's time over two threads' is the most any
// scheduler can gain on W2 on this machine (2 where the cores and the
// memory behind them are whole). Run each configuration as its own process:
//
//	go build -o corecheck ./cmd/corecheck
//	for r in $(seq 9); do for c in "1 tput" "2 tput" "1 lat" "2 lat" "1 w2" "2 w2"; do
//		set -- $c; ./corecheck -threads $1 -loop $2; done; done
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"sync"
	"time"

	"github.com/weft-engine/weft/bench/internal/pin"
)

func main() {
	threads := flag.Int("threads", 1, "goroutines running the loop at once (1 or 2)")
	loop := flag.String("loop", "tput", "tput (throughput-bound), lat (latency-bound) or w2 (W2's pass divided between the threads)")
	flag.Parse()
	if err := check(*threads, *loop); err != nil {
		fmt.Fprintln(os.Stderr, "corecheck:", err)
		os.Exit(2)
	}
	runtime.GOMAXPROCS(2)
	var parts [][]float32
	if *loop == "w2" {
		parts = split(newVector(w2Len), *threads) // allocated and touched before the clock starts
	}
	sinks := make([]uint64, *threads)
	var wg sync.WaitGroup
	t0 := time.Now()
	for t := range *threads {
		wg.Add(1)
		go func() {
			defer wg.Done()
			undo, err := pin.CPU(t)
			defer undo()
			if err != nil {
				fmt.Fprintln(os.Stderr, "corecheck:", err) // still locked to a thread: measure all the same
			}
			switch *loop {
			case "tput":
				sinks[t] = uint64(throughput(50_000_000))
			case "lat":
				sinks[t] = latency(400_000_000)
			default:
				sinks[t] = uint64(passes(parts[t], w2Passes))
			}
		}()
	}
	wg.Wait()
	fmt.Printf("loop %s threads %d: %.3f s (%d)\n", *loop, *threads, time.Since(t0).Seconds(), sinks[0]%10)
}

// check refuses what main cannot run.
func check(threads int, loop string) error {
	if threads < 1 || threads > 2 || (loop != "tput" && loop != "lat" && loop != "w2") {
		return fmt.Errorf("-threads %d -loop %q: -threads must be 1 or 2, -loop tput, lat or w2", threads, loop)
	}
	return nil
}

// throughput runs eight independent multiply-add chains n times: the CPU
// can overlap them, so its issue width is the limit.
func throughput(n int) float64 {
	var a [8]float64
	for i := range a {
		a[i] = float64(i) / 10
	}
	for range n {
		for k := range a {
			a[k] = a[k]*1.0000001 + 0.5
		}
	}
	s := 0.0
	for _, v := range a {
		s += v
	}
	return s
}

// latency runs one xorshift64 chain n rounds: each round needs the last,
// so the latency of its instructions is the limit.
func latency(n int) uint64 {
	x := uint64(88172645463325252)
	for range n {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
	}
	return x
}

// w2Len is the length of W2's array (bench/workloads_test.go's w2Len: 16 MB
// of float32) and w2Passes how many passes w2 makes over it, about half a
// second on one thread.
const (
	w2Len    = 4_000_000
	w2Passes = 200
)

// newVector returns W2's array with W2's initial values.
func newVector(n int) []float32 {
	x := make([]float32, n)
	for i := range x {
		x[i] = float32(i%1000) / 1000
	}
	return x
}

// split divides x into n contiguous parts of nearly equal length.
func split(x []float32, n int) [][]float32 {
	parts := make([][]float32, n)
	for i := range n {
		parts[i] = x[len(x)*i/n : len(x)*(i+1)/n]
	}
	return parts
}

// passes applies W2's kernel to x n times and returns x[0], so that the
// work cannot be dropped.
func passes(x []float32, n int) float32 {
	for range n {
		for i := range x {
			x[i] = x[i]*1.0001 + 0.5
		}
	}
	return x[0]
}
