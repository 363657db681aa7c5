// Command headless runs the demo's simulation without a window and prints
// where each step's time went:
//
//	go run ./demo/headless -steps N [-entities M] [-workers W] [-batch B] [-json] [-trace file] [-record file] [-inspect ID]
//	go run ./demo/headless -replay file [-workers W] [-batch B]
//	go run ./demo/headless -compare a.json b.json
//	go run ./demo/headless -host :7777 | -join 127.0.0.1:7777 | -spectate 127.0.0.1:7777 -steps N [-entities M]
//
// It runs N fixed steps and prints the engine's timing table and a hash of
// the final world state (the same for every worker count and batch size),
// or with -json one JSON object; -trace writes the last step's Chrome trace
// (open it in Perfetto): its jobs, the step, markers and counters; -record
// writes a replay of the run; -inspect ID prints that entity after the
// run: its components with their values and the systems that read or
// write it (what the window's inspector shows). -replay verifies a replay (the window's
// -record, or this command's) on the given workers and batch: it exits 1
// on the first step that differs, naming the system, entity and
// component. The JSON is a profile.Report (the capture of the run's
// steps: its machine, distributions, systems, markers, counters, GC and
// lost counts) with the demo's figures beside it. -compare prints two
// such files side by side, figure by figure: the first's value, the
// second's, and the difference. Wrong flags, and a -trace or -record file
// that cannot be written, print why and the usage and exit 2; -entities
// is at most game.MaxEntities. -host, -join and -spectate play the demo
// together over UDP (net.go): each player's bursts and fountain switches
// are scripted inputs, and each prints the world digest of step N-1, the
// same on every peer and spectator.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"

	"github.com/weft-engine/weft/demo/internal/game"
	"github.com/weft-engine/weft/engine"
	"github.com/weft-engine/weft/profile"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// options are the command's flags.
type options struct {
	game.Config
	steps          int
	json           bool
	trace          string
	record, replay string
	inspect        uint   // an entity's ID to describe after the run; 0: none
	host, join     string // netplay: the address to bind as the host, or the host's to join (net.go)
	spectate       string // netplay: the host's address to watch
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
		fmt.Fprintln(stderr, "usage: headless -steps N [-entities M] [-workers W] [-batch B] [-checks] [-json] [-trace file] [-record file] [-inspect ID]\n       headless -replay file [-workers W] [-batch B] [-checks]")
		fmt.Fprintln(stderr, "       headless -compare a.json b.json   (two -json outputs, figure by figure)")
		fs.PrintDefaults()
	}
	if len(args) > 0 && (args[0] == "-compare" || args[0] == "--compare") {
		return compare(args[1:], stdout, stderr, fs.Usage)
	}
	var o options
	fs.IntVar(&o.steps, "steps", 0, "fixed steps to run (at least 1)")
	fs.IntVar(&o.steps, "frames", 0, "the old name of -steps")
	o.AddFlags(fs)
	fs.BoolVar(&o.json, "json", false, "print one JSON object instead of the table")
	fs.StringVar(&o.trace, "trace", "", "write the last step's Chrome trace JSON to `file`")
	fs.StringVar(&o.record, "record", "", "record the run into a replay `file`")
	fs.StringVar(&o.replay, "replay", "", "verify the replay `file` step by step (no -steps)")
	fs.StringVar(&o.host, "host", "", "play together: host a game of two on `addr` (\":7777\"), -steps steps")
	fs.StringVar(&o.join, "join", "", "play together: join the host at `addr` (\"127.0.0.1:7777\")")
	fs.StringVar(&o.spectate, "spectate", "", "watch the host at `addr` play")
	fs.UintVar(&o.inspect, "inspect", 0, "after the run, print entity `ID`'s components and the systems that read or write it")
	code, ok := o.ParseFlags(fs, args, func() string {
		switch {
		case o.replay != "" && (o.steps != 0 || o.record != "" || o.json || o.trace != "" || o.inspect != 0):
			return "-replay takes only -workers, -batch and -checks"
		case o.json && o.inspect != 0:
			return "-inspect prints text: it takes no -json"
		case o.replay == "" && o.steps < 1:
			return "-steps must be at least 1"
		}
		return game.FilesErr("-trace", o.trace, "-record", o.record) // checked now, not after the run
	})
	if !ok {
		return code
	}
	run := simulate
	if o.replay != "" {
		run = func(o options, stdout io.Writer) error { return verify(o, o.replay, stdout) }
	}
	if o.host != "" || o.join != "" || o.spectate != "" {
		run = playNet
	}
	if err := run(o, stdout); err != nil {
		fmt.Fprintln(stderr, "headless:", err)
		return 1
	}
	return 0
}

// simulate runs o.steps steps and writes the report.
func simulate(o options, stdout io.Writer) (err error) {
	cfg := o.Config
	cfg.Seed, cfg.Window, cfg.Detail = 1, min(o.steps, maxWindow), 1
	g, err := game.New(cfg)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, g.Close()) }()
	if o.record != "" {
		stop, rerr := record(g, o.record)
		if rerr != nil {
			return rerr
		}
		defer func() { err = errors.Join(err, stop()) }()
	}
	var before, after runtime.MemStats
	for i := range o.steps {
		if i == o.steps/2 {
			runtime.ReadMemStats(&before)
		}
		if err := g.Tick(); err != nil {
			return err
		}
	}
	runtime.ReadMemStats(&after)
	allocs := float64(after.Mallocs-before.Mallocs) / float64(o.steps-o.steps/2)
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
	if err := g.Profile().WriteTable(stdout); err != nil {
		return err
	}
	_, err = fmt.Fprintf(stdout, "\nentities %d, visible %d, contacts %d, heap allocations per step (second half) %.2f\nhash %016x\n",
		g.Len(), g.Visible(), g.Contacts(), allocs, hash)
	if err != nil || o.inspect == 0 {
		return err
	}
	return inspect(g.Engine(), uint32(o.inspect), stdout)
}

// inspect prints the entity whose ID is id, as the overlay's inspector
// shows it; an ID that no living entity has is an error.
func inspect(e *engine.Engine, id uint32, stdout io.Writer) error {
	seq, err := e.World().Entities()
	if err != nil {
		return err
	}
	for ent := range seq {
		if ent.ID() != id {
			continue
		}
		in, err := e.Inspect(ent)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(stdout, "\n%s\n", strings.Join(in.Lines(), "\n"))
		return err
	}
	return fmt.Errorf("-inspect %d: no living entity has that ID after the run; IDs run from 2 to about the entity count", id)
}

func writeTrace(e *engine.Engine, path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	var tr profile.Trace
	tr.Add(e.LastRecord())
	return errors.Join(tr.Write(f), f.Close())
}

// compare prints the figures of two -json outputs side by side. It
// returns the exit code: 2 unless given two files, 1 if one cannot be
// read as a report.
func compare(files []string, stdout, stderr io.Writer, usage func()) int {
	if len(files) != 2 {
		fmt.Fprintf(stderr, "headless: -compare takes two files, got %d\n", len(files))
		usage()
		return 2
	}
	var rs [2]*profile.Report
	for i, name := range files {
		f, err := os.Open(name)
		if err == nil {
			rs[i], err = profile.ReadReport(f)
			f.Close()
		}
		if err != nil {
			fmt.Fprintf(stderr, "headless: -compare %s: %v\n", name, err)
			return 1
		}
	}
	for i, r := range rs {
		m := r.Machine
		fmt.Fprintf(stdout, "%s: %d steps, %d workers, batch %d; %s, GOMAXPROCS %d, %s, commit %s\n",
			files[i], r.Window, r.Workers, r.Batch, m.CPU, m.GOMAXPROCS, m.GoVersion, orNone(m.Commit))
	}
	fmt.Fprintln(stdout, "medians per step; difference = first - second")
	if err := profile.WriteComparison(stdout, files[0], files[1], profile.Compare(rs[0].Figures(), rs[1].Figures())); err != nil {
		fmt.Fprintln(stderr, "headless:", err)
		return 1
	}
	return 0
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}
