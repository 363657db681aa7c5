package game

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime"

	"github.com/weft-engine/weft/engine"
)

// AddFlags registers the flags that the window and the headless command
// share, -entities, -workers, -batch and -checks, on fs, into c. The
// default worker count is DefaultWorkers().
func (c *Config) AddFlags(fs *flag.FlagSet) {
	fs.IntVar(&c.Entities, "entities", DefaultEntities, fmt.Sprintf("bodies kept alive, at most %d (0: the default)", MaxEntities))
	fs.IntVar(&c.Workers, "workers", DefaultWorkers(), fmt.Sprintf("worker goroutines besides the owner, at most %d; 0 is serial, %d one per spare CPU", engine.MaxWorkers, engine.DefaultWorkers))
	fs.IntVar(&c.Batch, "batch", DefaultBatch, "rows per chunk; 0 is adaptive (the engine picks it after each step)")
	fs.BoolVar(&c.Checks, "checks", false, "run with the safety and ecs checks on")
}

// ParseFlags parses args with fs, then checks the shared flags and, with
// check, the command's own (check returns what is wrong, or ""). On wrong
// flags it writes the problem, after the command's name, and the usage to
// fs.Output() and returns 2; after -h it writes the usage and returns 0;
// ok says whether to run.
func (c *Config) ParseFlags(fs *flag.FlagSet, args []string, check func() string) (code int, ok bool) {
	out, usage := fs.Output(), fs.Usage
	fs.SetOutput(io.Discard) // flag's own message has no command name: written below
	fs.Usage = func() {}
	err := fs.Parse(args)
	fs.SetOutput(out)
	fs.Usage = usage
	bad := ""
	switch {
	case errors.Is(err, flag.ErrHelp):
		fs.Usage()
		return 0, false
	case err != nil:
		bad = err.Error()
	case fs.NArg() > 0:
		bad = fmt.Sprintf("unexpected arguments %q", fs.Args())
	case c.Entities < 0:
		bad = "-entities must not be negative"
	case EntitiesErr(c.Entities) != "":
		bad = "-entities: " + EntitiesErr(c.Entities)
	case workersErr(c.Workers) != nil:
		bad = fmt.Sprintf("-workers %d: give 0 (serial) up to %d, or %d for one per spare CPU", c.Workers, engine.MaxWorkers, engine.DefaultWorkers)
	case c.Batch < 0:
		bad = "-batch must not be negative (0 is adaptive)"
	case check != nil:
		bad = check()
	}
	if bad != "" {
		fmt.Fprintf(out, "%s: %s\n", fs.Name(), bad)
		fs.Usage()
		return 2, false
	}
	return 0, true
}

// workersErr is engine.ResolveWorkers' refusal of n, if any.
func workersErr(n int) error {
	_, err := engine.ResolveWorkers(n)
	return err
}

// DefaultWorkers is the -workers flag's default: engine.DefaultWorkers,
// one per spare CPU (at least one), which the engine resolves; in a
// browser (GOARCH wasm), 0, the serial executor. WebAssembly runs Go on
// one thread, where a worker cannot run beside the owner: the headless
// demo built for WebAssembly and run under Node (whose V8 runs it as
// Chromium does) with one worker left the worker without a single job
// (the pool kept them all on the owner) and stepped within the
// run-to-run noise of the serial executor (5,000 bodies: p50 3.6-4.8 ms
// against 4.1-4.5 ms; 20,000: 12.5-16.5 against 12.3-13.0), so the
// serial executor does the same work without a goroutine that waits.
func DefaultWorkers() int {
	if runtime.GOARCH == "wasm" {
		return 0
	}
	return engine.DefaultWorkers
}
