// Command soak checks interaction-scene games (internal/interact) of new
// seeds for as long as asked, printing seeds per second and failures as
// it goes, and at the end the process's memory at start and end and the
// allocations per engine step after warm-up.
//
//	go run ./internal/interact/cmd/soak -for 30m [-seed 1] [-entities 20000]
//
// Each failure is printed shrunk, with the command that reproduces it;
// the exit status is 1 if any seed failed.
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/weft-engine/weft/internal/interact"
)

func main() {
	var (
		dur      = flag.Duration("for", time.Minute, "how long to run")
		first    = flag.Uint64("seed", uint64(time.Now().UnixNano()), "the first seed; the next ones follow it")
		entities = flag.Int("entities", 0, "entities of each game at its start (0: the generator's 40 to 300)")
		every    = flag.Duration("report", 10*time.Second, "how often to print progress")
	)
	flag.Parse()
	start := time.Now()
	rss0, heap0 := memory()
	fmt.Printf("soak: from seed %d for %v, entities %s; start: RSS %s, heap %s\n", *first, *dur, orDefault(*entities), mib(rss0), mib(heap0))
	var seeds, failed int
	next := start.Add(*every)
	for seed := *first; time.Since(start) < *dur; seed++ {
		g := interact.Generate(seed)
		if *entities > 0 {
			g.Entities = *entities
		}
		if err := interact.CheckGame(g); err != nil {
			failed++
			fmt.Printf("FAIL %v\n", err)
		}
		seeds++
		if now := time.Now(); now.After(next) {
			next = now.Add(*every)
			el := now.Sub(start).Seconds()
			fmt.Printf("soak: %d seeds in %.0f s (%.2f seeds/s), %d failed\n", seeds, el, float64(seeds)/el, failed)
		}
	}
	el := time.Since(start).Seconds()
	rss1, heap1 := memory()
	steps, mallocs := interact.StepAllocs()
	fmt.Printf("soak: %d seeds from %d in %.0f s (%.2f seeds/s), %d failed\n", seeds, *first, el, float64(seeds)/el, failed)
	fmt.Printf("soak: end: RSS %s, heap %s; allocations per engine step after warm-up: %.1f (%d steps)\n", mib(rss1), mib(heap1), float64(mallocs)/float64(max(steps, 1)), steps)
	if failed > 0 {
		os.Exit(1)
	}
}

// memory is the process's live heap and resident set after a GC that
// returns free memory to the OS: what the process holds, not the spans
// the runtime keeps for reuse.
func memory() (rss, heap uint64) {
	debug.FreeOSMemory()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	b, err := os.ReadFile("/proc/self/status")
	if err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmRSS:" {
				kb, _ := strconv.ParseUint(f[1], 10, 64)
				rss = kb << 10
			}
		}
	}
	return rss, m.HeapAlloc
}

func mib(b uint64) string { return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20)) }

func orDefault(n int) string {
	if n == 0 {
		return "as generated"
	}
	return strconv.Itoa(n)
}
