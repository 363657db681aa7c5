// Command corecheck tells how much a second core of this machine adds to
// two kinds of loop: throughput-bound (eight independent multiply-add
// chains, like W2's kernel) and latency-bound (one xorshift chain, like
// W3's). It runs the loop on -threads goroutines, each locked to its own
// OS thread, with GOMAXPROCS 2, and prints the wall time. Where two
// threads take as long as one, the cores are whole; where they take
// longer, the two share something: two vCPUs that are SMT siblings of one
// physical core show it in the throughput-bound loop and hardly in the
// latency-bound one. Run each configuration as its own process:
//
//	go build -o corecheck ./cmd/corecheck
//	for r in $(seq 9); do for c in "1 tput" "2 tput" "1 lat" "2 lat"; do
//		set -- $c; ./corecheck -threads $1 -loop $2; done; done
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"sync"
	"time"
)

func main() {
	threads := flag.Int("threads", 1, "goroutines running the loop at once (1 or 2)")
	loop := flag.String("loop", "tput", "tput (throughput-bound) or lat (latency-bound)")
	flag.Parse()
	if err := check(*threads, *loop); err != nil {
		fmt.Fprintln(os.Stderr, "corecheck:", err)
		os.Exit(2)
	}
	runtime.GOMAXPROCS(2)
	sinks := make([]uint64, *threads)
	var wg sync.WaitGroup
	t0 := time.Now()
	for t := range *threads {
		wg.Add(1)
		go func() {
			defer wg.Done()
			runtime.LockOSThread()
			if *loop == "tput" {
				sinks[t] = uint64(throughput(50_000_000))
			} else {
				sinks[t] = latency(400_000_000)
			}
		}()
	}
	wg.Wait()
	fmt.Printf("loop %s threads %d: %.3f s (%d)\n", *loop, *threads, time.Since(t0).Seconds(), sinks[0]%10)
}

// check refuses what main cannot run.
func check(threads int, loop string) error {
	if threads < 1 || threads > 2 || (loop != "tput" && loop != "lat") {
		return fmt.Errorf("-threads %d -loop %q: -threads must be 1 or 2, -loop tput or lat", threads, loop)
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
