// Command gstates reads `go tool trace -d=parsed` output on stdin and
// prints, for each goroutine named by -g (or the six that ran longest), how
// long it spent in each state (Running, Runnable, Waiting, ...) and how
// often it changed state, and how long each P was idle. It shows, for
// example, a worker that is runnable most of the time while a P is idle:
//
//	GOMAXPROCS=2 ./bench.test -test.run XXX -test.bench W1EmptyJobs/weft \
//		-test.benchtime 200000x -test.trace w1.trace
//	go tool trace -d=parsed w1.trace | go run ./cmd/gstates
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strconv"
)

// transition matches a goroutine's (GoID) or a P's (ProcID) state change.
var transition = regexp.MustCompile(`StateTransition Time=(\d+) (GoID|ProcID)=(\d+) (\w+)->(\w+)`)

// spans sums the time each subject spent in each state.
type spans struct {
	since map[string]int64            // subject -> time of its last change
	state map[string]string           // subject -> its state since then
	total map[string]map[string]int64 // subject -> state -> ns
	moves map[string]int              // subject -> state changes
}

func main() {
	gs := flag.String("g", "", "goroutine ids, space-separated (default: the six that ran longest)")
	flag.Parse()
	if err := run(os.Stdin, os.Stdout, *gs); err != nil {
		fmt.Fprintln(os.Stderr, "gstates:", err)
		os.Exit(1)
	}
}

func run(in io.Reader, out io.Writer, gs string) error {
	s := spans{map[string]int64{}, map[string]string{}, map[string]map[string]int64{}, map[string]int{}}
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		m := transition.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		t, _ := strconv.ParseInt(m[1], 10, 64)
		kind := "G"
		if m[2] == "ProcID" {
			kind = "P"
		}
		s.move(kind+m[3], t, m[5])
	}
	if err := sc.Err(); err != nil {
		return err
	}
	for _, subject := range s.pick(gs) {
		fmt.Fprintf(out, "%s:", subject)
		for _, st := range []string{"Running", "Runnable", "Waiting", "Syscall", "Idle"} {
			if ns, ok := s.total[subject][st]; ok {
				fmt.Fprintf(out, " %s %.1f ms", st, float64(ns)/1e6)
			}
		}
		fmt.Fprintf(out, "; %d changes\n", s.moves[subject])
	}
	return nil
}

// move records that subject entered state at t.
func (s *spans) move(subject string, t int64, state string) {
	if prev, ok := s.state[subject]; ok {
		if s.total[subject] == nil {
			s.total[subject] = map[string]int64{}
		}
		s.total[subject][prev] += t - s.since[subject]
	}
	s.since[subject], s.state[subject] = t, state
	s.moves[subject]++
}

// pick lists the goroutines asked for (or the six that ran longest), then
// every P.
func (s *spans) pick(gs string) []string {
	var goroutines, ps []string
	for subject := range s.total {
		if subject[0] == 'P' {
			ps = append(ps, subject)
		} else {
			goroutines = append(goroutines, subject)
		}
	}
	if gs != "" {
		goroutines = nil
		for _, g := range regexp.MustCompile(`\d+`).FindAllString(gs, -1) {
			goroutines = append(goroutines, "G"+g)
		}
	} else {
		slices.SortFunc(goroutines, func(a, b string) int {
			return int(s.total[b]["Running"] - s.total[a]["Running"])
		})
		goroutines = goroutines[:min(6, len(goroutines))]
	}
	slices.Sort(ps)
	return append(goroutines, ps...)
}
