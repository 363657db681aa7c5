// Command headless runs the demo's simulation without a window and prints
// where each step's time went:
//
//	go run ./demo/headless -frames N [-entities M] [-workers W] [-batch B] [-json] [-trace file]
//
// It runs N fixed steps and prints the engine's timing table and a hash of
// the final world state (the same for every worker count and batch size),
// or with -json one JSON object; -trace writes the last step's Chrome trace
// (open it in Perfetto). Wrong flags print usage and exit 2.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"

	"github.com/weft-engine/weft/demo/game"
	"github.com/weft-engine/weft/engine"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// options are the command's flags.
type options struct {
	game.Config
	frames int
	json   bool
	trace  string
}

// maxWindow bounds the timings window: the summary covers every frame up
// to this many.
const maxWindow = 100_000

// run is the command: it parses args, runs the simulation and writes to
// stdout and stderr. It returns the exit code: 0, 1 on a failure, 2 on
// wrong flags.
func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("headless", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: headless -frames N [-entities M] [-workers W] [-batch B] [-checks] [-json] [-trace file]")
		fs.PrintDefaults()
	}
	var o options
	fs.IntVar(&o.frames, "frames", 0, "fixed steps to run (at least 1)")
	o.AddFlags(fs, math.MaxInt)
	fs.BoolVar(&o.json, "json", false, "print one JSON object instead of the table")
	fs.StringVar(&o.trace, "trace", "", "write the last step's Chrome trace JSON to `file`")
	code, ok := o.ParseFlags(fs, args, func() string {
		if o.frames < 1 {
			return "-frames must be at least 1"
		}
		return ""
	})
	if !ok {
		return code
	}
	if err := simulate(o, stdout); err != nil {
		fmt.Fprintln(stderr, "headless:", err)
		return 1
	}
	return 0
}

// simulate runs o.frames steps and writes the report.
func simulate(o options, stdout io.Writer) (err error) {
	cfg := o.Config
	cfg.Seed, cfg.Window = 1, min(o.frames, maxWindow)
	g, err := game.New(cfg)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, g.Close()) }()
	var before, after runtime.MemStats
	for i := range o.frames {
		if i == o.frames/2 {
			runtime.ReadMemStats(&before)
		}
		if err := g.Tick(); err != nil {
			return err
		}
	}
	runtime.ReadMemStats(&after)
	allocs := float64(after.Mallocs-before.Mallocs) / float64(o.frames-o.frames/2)
	if o.trace != "" {
		if err := writeTrace(g.Engine(), o.trace); err != nil {
			return err
		}
	}
	hash, err := g.Hash()
	if err != nil {
		return err
	}
	if o.json {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(newReport(o, g, allocs, hash))
	}
	if err := g.Engine().Timings().WriteTable(stdout); err != nil {
		return err
	}
	_, err = fmt.Fprintf(stdout, "\nentities %d, visible %d, contacts %d, heap allocations per step (second half) %.2f\nhash %016x\n",
		g.Len(), g.Visible(), g.Contacts(), allocs, hash)
	return err
}

func writeTrace(e *engine.Engine, path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	return errors.Join(e.WriteTrace(f), f.Close())
}
