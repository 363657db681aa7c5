// Command demo is the Ebiten game: tens of thousands of animated sprites under physics, with an in-game frame-timing overlay.
//
//	go run ./demo [-entities M] [-workers W] [-batch B] [-checks] [-zoom Z] [-nooverlay] [-steps N [-title]] [-screenshot file] [-tracedir dir] [-budget 16.6ms] [-baseline capture.json] [-record file | -replay file]
//
// The simulation (package demo/internal/game) runs one fixed step per Ebiten
// Update, on the engine's job pool; Draw renders the engine's render
// snapshot from one sprite atlas and the overlay from its timings. It
// starts on the title screen over the running world (Enter plays; P
// pauses, a state of the engine); with -steps it skips the title (unless
// -title), starts playing, and exits by itself after N steps, printing
// the frame rates, and -screenshot saves the last frame as PNG. -record
// writes a replay of the run ("REC" at the top right while it does);
// -replay plays one back as it happened (the camera, bursts and fountain
// of the recording, each step checked against it) on any -workers and
// -batch, with "REPLAY step N/M" at the top right, and ends with the
// verdict on screen and on stdout: every step equal (exit 0), or where
// the first step differs (exit 1). Wrong flags, an output path that
// cannot be written and a missing display print why (and the usage) and
// exit 2; -entities is at most game.MaxEntities. Built for the browser
// (GOOS=js, make web), it needs neither a display nor a writable folder.
// The keys are listed on screen (H) and in the README.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"time"

	"github.com/weft-engine/weft/demo/internal/display"
	"github.com/weft-engine/weft/demo/internal/game"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// defaultZoom is the camera's zoom at the start: the creatures are 12
// pixels wide and recognisable; the wheel zooms out over the whole crowd.
const defaultZoom = 2

// options are the command's flags.
type options struct {
	game.Config
	steps                int
	zoom                 float64
	noOverlay            bool
	screenshot, tracedir string
	baseline             string // a capture file to compare with
	budget               time.Duration
	record, replay       string
	title                bool   // stay on the title screen in a -steps run
	host, join, spectate string // play together (netwin.go)
}

// parse reads the flags; on wrong flags it prints the usage to stderr and
// returns code 2 (0 for -h).
func parse(args []string, stderr io.Writer) (options, int, bool) {
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: demo [-entities M] [-workers W] [-batch B] [-checks] [-zoom Z] [-nooverlay] [-steps N [-title]] [-screenshot file] [-tracedir dir] [-budget 16.6ms] [-baseline capture.json] [-record file | -replay file]")
		fs.PrintDefaults()
	}
	var o options
	o.AddFlags(fs)

	fs.Float64Var(&o.zoom, "zoom", defaultZoom, "the camera's zoom at the start, in screen pixels per world unit")
	fs.BoolVar(&o.noOverlay, "nooverlay", false, "start with the overlay hidden (O shows it)")
	fs.IntVar(&o.steps, "steps", 0, "exit by itself after N steps and print the frame rates (0: run until closed)")
	fs.IntVar(&o.steps, "frames", 0, "the old name of -steps")
	fs.BoolVar(&o.title, "title", false, "with -steps: stay on the title screen (for its screenshot)")
	fs.StringVar(&o.screenshot, "screenshot", "", "save the last frame as PNG to `file` before exiting")
	fs.StringVar(&o.tracedir, "tracedir", os.TempDir(), "write traces (key T), captures (key G) and the save (F5, F9) into `dir`")
	fs.StringVar(&o.baseline, "baseline", "", "compare the systems table with the capture `file` (key G, or headless -json, wrote it)")
	fs.StringVar(&o.record, "record", "", "record the run into a replay `file`")
	fs.StringVar(&o.replay, "replay", "", "play the replay `file` back as it happened (-entities is the recording's)")
	fs.StringVar(&o.host, "host", "", "play together: host a game of two on `addr` (\":7777\")")
	fs.StringVar(&o.join, "join", "", "play together: join the host at `addr` (\"127.0.0.1:7777\")")
	fs.StringVar(&o.spectate, "spectate", "", "watch the host at `addr` play")
	fs.DurationVar(&o.budget, "budget", 0, "freeze the timeline on the first step that takes longer, e.g. 16.6ms, after the warm-up (the first second, and the second after a new worker count, a rewind or a load), and write its trace into -tracedir (0: off)")
	code, ok := o.ParseFlags(fs, args, func() string {
		switch {
		case !(o.zoom >= game.MinZoom && o.zoom <= game.MaxZoom): // NaN too
			return fmt.Sprintf("-zoom must be in [%g, %g]", game.MinZoom, float64(game.MaxZoom))
		case o.budget < 0:
			return "-budget must not be negative"
		case o.steps < 0:
			return "-steps must not be negative"
		case o.record != "" && o.replay != "":
			return "-record and -replay exclude each other"
		case o.netplay() && (o.record != "" || o.replay != ""):
			return "-host, -join and -spectate take no -record or -replay"
		case o.title && (o.steps == 0 || o.replay != ""):
			return "-title needs -steps, and no -replay: a run without -steps starts on the title screen"
		case o.screenshot != "" && o.steps == 0:
			return "-screenshot needs -steps: the screenshot is of the last frame"
		}
		return pathsErr(o)
	})
	return o, code, ok
}

// pathsErr says which output path cannot be written, or is "": the
// screenshot's file and the traces' folder are checked before the game
// starts, not found unwritable after the run.
func pathsErr(o options) string {
	if msg := game.FilesErr("-screenshot", o.screenshot, "-record", o.record); msg != "" {
		return msg
	}
	if err := game.WritableDir(o.tracedir); err != nil && runtime.GOOS != "js" { // a browser writes no files: T, G and F5 say so on screen
		return "-tracedir: " + err.Error()
	}
	return ""
}

// run is the command: it parses args, plays the game and writes the
// frame rates (with -steps) to stdout. It returns the exit code: 0, 1 on
// a failure, 2 on wrong flags or without a display (after the flags, so
// that -h and a wrong flag are answered without one).
func run(args []string, stdout, stderr io.Writer) int {
	o, code, ok := parse(args, stderr)
	if !ok {
		return code
	}
	if display.Missing(os.Getenv) {
		fmt.Fprint(stderr, display.Hint)
		return 2
	}
	st, err := play(o, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "demo:", err)
		return 1
	}
	if o.steps > 0 {
		fmt.Fprintln(stdout, st)
	}
	if st.Verdict != "" {
		fmt.Fprintln(stdout, st.Verdict)
	}
	if st.Diverged {
		return 1
	}
	return 0
}
