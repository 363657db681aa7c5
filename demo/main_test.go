package main

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/demo/internal/display"
	"github.com/weft-engine/weft/demo/internal/game"
)

// leftPanelW is the overlay's left column on the demo's 1280-wide screen.
const leftPanelW = 432

// TestGame opens a window, which needs a display: run these tests under
// xvfb-run (make test does). Ebiten runs one game a process,
// so TestGame is the only test that opens the window.

// artifacts is where the tests keep their output: $ARTIFACTS, or the
// repository's artifacts/ (ignored by git).
func artifacts(t *testing.T) string {
	dir := os.Getenv("ARTIFACTS")
	if dir == "" {
		dir = filepath.Join("..", "artifacts")
	}
	dir = filepath.Join(dir, "demo")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	return dir
}

// The window's run: Ebiten runs one game a process, so with -count=N the
// later TestGames check the first one's run again.
var gameRun struct {
	once sync.Once
	st   stats
	err  error
	log  bytes.Buffer
}

// TestGame plays N steps with the overlay on and checks the run's stats
// and its last frame, saved as a PNG.
func TestGame(t *testing.T) {
	const steps, workers = 90, 3
	shot := filepath.Join(artifacts(t), "screenshot.png")
	gameRun.once.Do(func() {
		gameRun.st, gameRun.err = play(options{Config: game.Config{Entities: game.DefaultEntities, Workers: workers, Batch: game.DefaultBatch}, zoom: 1, steps: steps,
			screenshot: shot, tracedir: os.TempDir()}, &gameRun.log)
	})
	st, err := gameRun.st, gameRun.err
	require.NoError(t, err, gameRun.log.String())
	t.Logf("%v; screenshot in %s", st, shot)
	assert.Equal(t, steps, st.Steps)
	assert.Greater(t, st.Entities, 0)
	assert.Greater(t, st.Visible, 1000, "most of the screen is world")
	assert.Equal(t, workers+1, st.Lanes, "a lane for the owner and each worker")

	f, err := os.Open(shot)
	require.NoError(t, err)
	defer f.Close()
	img, err := png.Decode(f)
	require.NoError(t, err)
	require.Equal(t, image.Rect(0, 0, game.ScreenW, game.ScreenH), img.Bounds())

	// Sprites: many colours in the world, right of the left panel, above the timeline.
	world := image.Rect(leftPanelW+20, 200, game.ScreenW, game.ScreenH-200)
	assert.Greater(t, distinct(img, world), 200, "distinct colours in the world area %v", world)
	// The overlay: the top-left differs from the world's backdrop.
	top := image.Rect(0, 0, leftPanelW, 120)
	differ := 0
	for y := top.Min.Y; y < top.Max.Y; y++ {
		for x := top.Min.X; x < top.Max.X; x++ {
			if !sameColor(img.At(x, y), colWorld) {
				differ++
			}
		}
	}
	assert.Greater(t, differ, top.Dx()*top.Dy()/2, "the overlay is drawn over the top-left")

	// The overlay's texts, as laid out for the last frame: the demo's own
	// line, and the systems table with the markers and counters.
	var texts []string
	for _, b := range st.ov.Boxes() {
		texts = append(texts, b.Text)
	}
	all := strings.Join(texts, "\n")
	assert.Contains(t, all, "frame ms p50 ")
	assert.Contains(t, all, "step ms p50 ")
	assert.Contains(t, all, "entities ", "the demo's own panel")
	for _, row := range []string{"lifetime", "  respawn", "  respawned", "seek", "physics", "landing", "anim", "sparks", "cull", "fountain"} {
		assert.Contains(t, texts, row, "systems, markers and counters")
	}
	assert.Contains(t, all, fmt.Sprintf("step %d timeline", st.Steps), "the screenshot shows the step it captures")
	assert.Contains(t, all, "parallelism ", "the predictions show with workers too")
}

func distinct(img image.Image, r image.Rectangle) int {
	seen := map[color.RGBA]bool{}
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			seen[color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)] = true
		}
	}
	return len(seen)
}

func sameColor(a, b color.Color) bool {
	r1, g1, b1, _ := a.RGBA()
	r2, g2, b2, _ := b.RGBA()
	return r1>>8 == r2>>8 && g1>>8 == g2>>8 && b1>>8 == b2>>8
}

// Wrong flags print the usage and exit 2; -h exits 0.
func TestFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-steps", "-1"}, {"-workers", "-2"}, {"-workers", "257"}, {"-batch", "-1"}, {"-entities", "-5"}, {"-zoom", "0"}, {"-zoom", "NaN"},
		{"-screenshot", "x.png"}, {"stray"}, {"-nosuchflag"}, {"-entities", "99999999999"},
		{"-steps", "1", "-screenshot", filepath.Join(t.TempDir(), "no", "x.png")}, {"-tracedir", filepath.Join(t.TempDir(), "no")},
	} {
		var out, errb bytes.Buffer
		assert.Equal(t, 2, run(args, &out, &errb), "%q", args)
		assert.True(t, strings.HasPrefix(errb.String(), "demo: "), "%q: every message names the program: %s", args, errb.String())
		assert.Contains(t, errb.String(), "usage: demo", "%q", args)
		assert.Empty(t, out.String())
	}
	var out, errb bytes.Buffer
	assert.Equal(t, 0, run([]string{"-h"}, &out, &errb))
	assert.Contains(t, errb.String(), "usage: demo")
	assert.Contains(t, errb.String(), "at most 1000000", "-entities says its maximum")
	o, code, ok := parse([]string{"-steps", "5", "-screenshot", "a.png", "-workers", "0", "-checks", "-nooverlay"}, &errb)
	assert.True(t, ok)
	assert.Zero(t, code)
	assert.Equal(t, options{Config: game.Config{Entities: game.DefaultEntities, Workers: 0, Batch: game.DefaultBatch, Checks: true}, zoom: defaultZoom, steps: 5,
		noOverlay: true, screenshot: "a.png", tracedir: os.TempDir()}, o)
	errb.Reset()
	assert.Equal(t, 1, run([]string{"-steps", "1", "-baseline", filepath.Join(t.TempDir(), "none.json")}, &out, &errb), "a missing capture file")
	assert.Contains(t, errb.String(), "-baseline: open ")
	o, _, ok = parse([]string{"-frames", "7"}, &errb)
	assert.True(t, ok)
	assert.Equal(t, 7, o.steps, "-frames is the old name of -steps")
}

// Without a display the demo still answers -h and a wrong flag with the
// usage (exit 0 and 2); a run prints a one-line hint and exits 2, where
// Ebiten would fail to open its window.
func TestNoDisplay(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "demo")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	require.NoError(t, err, string(out))
	run := func(args ...string) (string, int) {
		cmd := exec.Command(bin, args...)
		for _, kv := range os.Environ() {
			if !strings.HasPrefix(kv, "DISPLAY=") && !strings.HasPrefix(kv, "WAYLAND_DISPLAY=") {
				cmd.Env = append(cmd.Env, kv)
			}
		}
		out, err := cmd.CombinedOutput()
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return string(out), exit.ExitCode()
		}
		require.NoError(t, err, string(out))
		return string(out), 0
	}
	out2, code := run("-steps", "1")
	assert.Equal(t, 2, code)
	assert.Equal(t, display.Hint, out2)
	out2, code = run("-h")
	assert.Equal(t, 0, code)
	assert.True(t, strings.HasPrefix(out2, "usage: demo"), out2)
	out2, code = run("-nosuchflag")
	assert.Equal(t, 2, code)
	assert.True(t, strings.HasPrefix(out2, "demo: flag provided but not defined: -nosuchflag\nusage: demo"), out2)
	assert.True(t, display.Missing(func(string) string { return "" }))
	assert.False(t, display.Missing(func(k string) string { return map[string]string{"WAYLAND_DISPLAY": "wayland-0"}[k] }))
}

// BenchmarkOverlay is the overlay's cost per frame in the demo's window:
// the mean time of its Draw over a 600-step run at 20,000 entities and one
// worker, after the first second, in ns/frame. Ebiten runs one game a
// process: run it under xvfb-run with -benchtime 1x, each round its own
// process (bench/cmd/benchrun does).
func BenchmarkOverlay(b *testing.B) {
	for range b.N {
		st, err := play(options{Config: game.Config{Entities: game.DefaultEntities, Workers: 1, Batch: game.DefaultBatch}, zoom: defaultZoom,
			steps: 600, tracedir: b.TempDir()}, io.Discard)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(st.Overlay.Nanoseconds()), "ns/frame")
	}
}
