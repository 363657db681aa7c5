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
	"os"
	"runtime"

	"github.com/weft-engine/weft/demo/game"
	"github.com/weft-engine/weft/engine"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// options are the command's flags.
type options struct {
	frames, entities, workers, batch int
	checks, json                     bool
	trace                            string
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
	fs.IntVar(&o.entities, "entities", game.DefaultEntities, "bodies kept alive (0: the default)")
	fs.IntVar(&o.workers, "workers", max(1, runtime.GOMAXPROCS(0)-1), "worker goroutines besides the owner; 0 is serial")
	fs.IntVar(&o.batch, "batch", game.DefaultBatch, "rows per chunk (at least 1)")
	fs.BoolVar(&o.checks, "checks", false, "run with the safety and ecs checks on")
	fs.BoolVar(&o.json, "json", false, "print one JSON object instead of the table")
	fs.StringVar(&o.trace, "trace", "", "write the last step's Chrome trace JSON to `file`")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2 // fs printed the error and the usage
	}
	bad := ""
	switch {
	case fs.NArg() > 0:
		bad = fmt.Sprintf("unexpected arguments %q", fs.Args())
	case o.frames < 1:
		bad = "-frames must be at least 1"
	case o.entities < 0:
		bad = "-entities must not be negative"
	case o.workers < 0:
		bad = "-workers must not be negative"
	case o.batch < 1:
		bad = "-batch must be at least 1"
	}
	if bad != "" {
		fmt.Fprintln(stderr, "headless:", bad)
		fs.Usage()
		return 2
	}
	if err := simulate(o, stdout); err != nil {
		fmt.Fprintln(stderr, "headless:", err)
		return 1
	}
	return 0
}

// simulate runs o.frames steps and writes the report.
func simulate(o options, stdout io.Writer) (err error) {
	g, err := game.New(game.Config{Entities: o.entities, Workers: o.workers, Batch: o.batch, Checks: o.checks, Seed: 1, Window: min(o.frames, maxWindow)})
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, g.Close()) }()
	for range o.frames {
		if err := g.Tick(); err != nil {
			return err
		}
	}
	if o.trace != "" {
		if err := writeTrace(g.Engine(), o.trace); err != nil {
			return err
		}
	}
	if o.json {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(newReport(o, g))
	}
	if err := g.Engine().Timings().WriteTable(stdout); err != nil {
		return err
	}
	_, err = fmt.Fprintf(stdout, "\nentities %d, visible %d, contacts %d\nhash %016x\n", g.Len(), g.Visible(), g.Contacts(), g.Hash())
	return err
}

func writeTrace(e *engine.Engine, path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	return errors.Join(e.WriteTrace(f), f.Close())
}
