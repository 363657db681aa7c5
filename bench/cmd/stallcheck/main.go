// Command stallcheck measures how much of each CPU the machine takes away
// from a process that wants all of it. On every CPU it runs a goroutine
// pinned there (bench/internal/pin) that reads the clock in a tight loop
// for -for; a gap between two readings longer than -min is time the
// thread did not run: the guest kernel's interrupts and other tasks, or,
// on a virtual machine, the host running something else on that vCPU's
// core, which the guest may not see (its accounting can charge that time
// to the thread). It prints, per CPU, the gaps by
// length, the share of the time they took and the longest.
//
// A frame on two participants loses more to such stalls than a serial
// one: a participant stalled inside a job holds the pass's end for the
// other, so two CPUs' stalls both lengthen the parallel step, where the
// serial step loses only its own CPU's. Run it beside a benchmark's
// figures to tell the machine's share from the code's:
//
//	go run ./cmd/stallcheck -for 5s
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

// bounds are the upper ends of the gap classes printed, the last open.
var bounds = []time.Duration{100 * time.Microsecond, 500 * time.Microsecond, time.Millisecond, 3 * time.Millisecond}

// stalls is one CPU's record: the gaps counted per class of bounds (one
// more for the longer ones), their sum, the longest, and the time watched.
type stalls struct {
	count    []int
	lost     time.Duration
	longest  time.Duration
	duration time.Duration
	pinErr   error
}

func main() {
	dur := flag.Duration("for", 5*time.Second, "how long each CPU's loop runs")
	minGap := flag.Duration("min", 20*time.Microsecond, "the shortest gap that counts as a stall")
	flag.Parse()
	if *dur <= 0 || *minGap <= 0 || *minGap >= bounds[0] {
		fmt.Fprintf(os.Stderr, "stallcheck: -for must be positive and -min between 0 and %v\n", bounds[0])
		os.Exit(2)
	}
	cpus := runtime.NumCPU()
	runtime.GOMAXPROCS(cpus)
	res := make([]stalls, cpus)
	var wg sync.WaitGroup
	for c := range cpus {
		wg.Add(1)
		go func() {
			defer wg.Done()
			undo, err := pin.CPU(c)
			defer undo()
			res[c] = watch(time.Now, *dur, *minGap)
			res[c].pinErr = err
		}()
	}
	wg.Wait()
	for c, r := range res {
		fmt.Print(report(c, r, *minGap))
	}
}

// watch reads clock until dur has passed and records the gaps between
// readings of at least minGap, and the time it watched (dur and the last
// gap's overrun). Executed by one goroutine for its CPU.
func watch(clock func() time.Time, dur, minGap time.Duration) stalls {
	s := stalls{count: make([]int, len(bounds)+1)}
	start := clock()
	last := start
	for {
		now := clock()
		if g := now.Sub(last); g >= minGap {
			s.lost += g
			s.longest = max(s.longest, g)
			k := 0
			for k < len(bounds) && g >= bounds[k] {
				k++
			}
			s.count[k]++
		}
		last = now
		if s.duration = now.Sub(start); s.duration >= dur {
			return s
		}
	}
}

// report is one CPU's line; minGap is the shortest gap counted.
func report(cpu int, s stalls, minGap time.Duration) string {
	line := fmt.Sprintf("cpu %d: lost %.1f%% of %v, longest %v; gaps", cpu, 100*s.lost.Seconds()/s.duration.Seconds(), s.duration.Round(time.Millisecond), s.longest.Round(time.Microsecond))
	lo := minGap.String()
	for k, n := range s.count {
		if k < len(bounds) {
			line += fmt.Sprintf(" %s-%s %d", lo, bounds[k], n)
			lo = bounds[k].String()
		} else {
			line += fmt.Sprintf(" over %s %d", lo, n)
		}
	}
	if s.pinErr != nil {
		line += " (not pinned: " + s.pinErr.Error() + ")"
	}
	return line + "\n"
}
