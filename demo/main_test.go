package main

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/demo/internal/display"
	"github.com/weft-engine/weft/demo/internal/game"
	"github.com/weft-engine/weft/engine"
)

// These tests import Ebiten, which panics at init without a display: run
// them under xvfb-run (make test does). Ebiten runs one game a process,
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

	// Sprites: many colours in the world, right of the panel, above the timeline.
	world := image.Rect(panelW+20, topH+2*lineH+10, game.ScreenW, game.ScreenH-200)
	assert.Greater(t, distinct(img, world), 200, "distinct colours in the world area %v", world)
	// The overlay: the top-left differs from the world's backdrop.
	top := image.Rect(0, 0, panelW, topH+100)
	differ, back := 0, colWorld.color()
	for y := top.Min.Y; y < top.Max.Y; y++ {
		for x := top.Min.X; x < top.Max.X; x++ {
			if !sameColor(img.At(x, y), back) {
				differ++
			}
		}
	}
	assert.Greater(t, differ, top.Dx()*top.Dy()/2, "the overlay is drawn over the top-left")

	// The whole frame, as the overlay measured it: its parts add up to it.
	p := st.parts
	t.Logf("frame p50 %.1f ms: update %.1f, draw %.1f, overlay %.1f, GC %.2f, rest %.1f; %d sprites, %d draw calls",
		p.frame, p.update, p.draw, p.overlay, p.gc, p.rest(), p.sprites, p.calls)
	assert.Positive(t, p.frame)
	assert.Positive(t, p.update, "the steps ran in Update")
	assert.Positive(t, p.draw)
	assert.Positive(t, p.overlay, "the overlay is on")
	assert.GreaterOrEqual(t, p.gc, float32(0))
	assert.Greater(t, p.sprites, 1000, "the snapshot's items drawn")
	assert.LessOrEqual(t, p.sprites, st.Entities+game.BurstSize)
	assert.GreaterOrEqual(t, p.calls, 3, "the clear, the backdrop and a batch of sprites at least")
	ov := st.ov
	assert.Contains(t, ov.top, fmt.Sprintf("frame ms p50 %.1f = update %.1f + draw %.1f", ov.frame.frame, ov.frame.update, ov.frame.draw))
	assert.Contains(t, ov.top2, "step ms p50 ")
	assert.Contains(t, ov.top2, "allocs/step ")
	assert.GreaterOrEqual(t, ov.scale, 2*ov.budget, "the scale holds the budget line")
	var rows []string
	for _, r := range ov.sys {
		rows = append(rows, r.name)
	}
	assert.Equal(t, []string{"lifetime", "  respawn", "  respawned", "seek", "physics", "landing", "anim", "sparks", "cull", "fountain"}, rows, "systems, markers and counters")
	assert.Contains(t, ov.sys[len(ov.sys)-1].text, "ran ", "the fountain runs every 30 steps: its row says in how many it ran")
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
		{"-screenshot", "x.png"}, {"stray"}, {"-nosuchflag"},
	} {
		var out, errb bytes.Buffer
		assert.Equal(t, 2, run(args, &out, &errb), "%q", args)
		assert.Contains(t, errb.String(), "usage: demo", "%q", args)
		assert.Empty(t, out.String())
	}
	var out, errb bytes.Buffer
	assert.Equal(t, 0, run([]string{"-h"}, &out, &errb))
	o, code, ok := parse([]string{"-steps", "5", "-screenshot", "a.png", "-workers", "0", "-checks", "-nooverlay"}, &errb)
	assert.True(t, ok)
	assert.Zero(t, code)
	assert.Equal(t, options{Config: game.Config{Entities: game.DefaultEntities, Workers: 0, Batch: game.DefaultBatch, Checks: true}, zoom: defaultZoom, steps: 5,
		noOverlay: true, screenshot: "a.png", tracedir: os.TempDir()}, o)
	o, _, ok = parse([]string{"-frames", "7"}, &errb)
	assert.True(t, ok)
	assert.Equal(t, 7, o.steps, "-frames is the old name of -steps")
}

// The T key's trace: TraceFrames steps gathered into one Chrome trace
// file, its path on screen. And a frozen timeline keeps its step.
func TestTraceAndFreeze(t *testing.T) {
	g, err := game.New(game.Config{Entities: 2000, Workers: 1, Batch: 256, Seed: 1})
	require.NoError(t, err)
	defer g.Close()
	var log bytes.Buffer
	tr := tracer{dir: t.TempDir(), log: &log}
	ov := newOverlay()
	tr.start(g.Engine())
	steps := 0
	for tr.left > 0 {
		require.NoError(t, g.Tick())
		tr.add(g.Engine())
		ov.capture(g.Engine(), steps >= 10)
		steps++
	}
	assert.Equal(t, game.TraceFrames, steps)
	assert.Equal(t, uint64(10), ov.tl.step, "the timeline froze after step 10")
	require.FileExists(t, tr.path, tr.msg)
	assert.Contains(t, tr.msg, tr.path, "the path is on screen")
	assert.Contains(t, log.String(), tr.path)
	b, err := os.ReadFile(tr.path)
	require.NoError(t, err)
	var trace struct {
		TraceEvents []struct {
			Ph   string `json:"ph"`
			Cat  string `json:"cat"`
			Name string `json:"name"`
			Tid  int    `json:"tid"`
		} `json:"traceEvents"`
	}
	require.NoError(t, json.Unmarshal(b, &trace), "the trace is JSON")
	complete, flows, lanes, names := 0, 0, map[int]bool{}, map[string]bool{}
	var stepSlices []string
	counters := map[string]int{}
	for _, ev := range trace.TraceEvents {
		switch ev.Ph {
		case "C":
			counters[ev.Name]++
		case "X":
			complete++
			if ev.Cat == "step" {
				stepSlices = append(stepSlices, ev.Name)
				assert.Equal(t, 0, ev.Tid, "steps on the owner's lane")
			}
			if ev.Cat == "job" { // not a GC pause, on its own lane
				lanes[ev.Tid] = true
				names[strings.SplitN(ev.Name, "[", 2)[0]] = true
			}
		case "s":
			flows++
		}
	}
	assert.Greater(t, complete, game.TraceFrames*10, "many jobs a step")
	require.Len(t, stepSlices, game.TraceFrames, "a slice per step")
	assert.Equal(t, "step 1", stepSlices[0])
	assert.Equal(t, fmt.Sprintf("step %d", game.TraceFrames), stepSlices[len(stepSlices)-1])
	assert.Equal(t, map[string]int{"lifetime.respawned": game.TraceFrames}, counters, "a counter track, a sample a step")
	assert.Positive(t, flows, "flow arrows for dependencies")
	// Which participant ran which job is scheduling luck (pinned to one
	// CPU the worker may run none): only the lanes' range is certain.
	for l := range lanes {
		assert.Contains(t, []int{0, 1}, l, "the owner's or the worker's lane")
	}
	for _, sys := range []string{"lifetime", "physics", "landing", "anim", "sparks", "cull"} {
		found := false
		for n := range names {
			found = found || strings.HasPrefix(n, sys+".")
		}
		assert.True(t, found, "a slice of %s among %v", sys, names)
	}
}

// A frame's parts: what is not update, draw, overlay or GC is presenting
// and waiting; the medians are each part's over the window.
func TestFrameBreakdown(t *testing.T) {
	var f frames
	t0 := time.Unix(0, 0)
	f.begin(t0)
	f.cur.update, f.cur.draw, f.cur.overlay = 10, 20, 5
	f.begin(t0.Add(50 * time.Millisecond))
	assert.Equal(t, float32(50), f.last.frame)
	assert.InDelta(t, 15-f.last.gc, f.last.rest(), 1e-4)
	f.cur.update = 30 // a slower frame
	f.begin(t0.Add(150 * time.Millisecond))
	f.begin(t0.Add(160 * time.Millisecond)) // a frame with nothing measured
	m := f.medians()
	assert.Equal(t, float32(50), m.frame)
	assert.Equal(t, float32(10), m.update)
}

// Clicking a bar of the graph opens that step's timeline from the
// history; a bar without a step opens nothing; GC marks follow the step.
func TestSpikeOpen(t *testing.T) {
	g, err := game.New(game.Config{Entities: 1500, Workers: 1, Batch: 256, Seed: 1})
	require.NoError(t, err)
	defer g.Close()
	ov := newOverlay()
	for i := range 30 {
		require.NoError(t, g.Tick())
		ov.record(g, 20, i == 7)
	}
	ov.capture(g.Engine(), false)
	ov.layout(game.ScreenH)
	assert.Equal(t, uint64(30), ov.tl.step, "live: the last step")
	col := func(step int) int { return 8 + graphLen - 30 + step - 1 } // the newest bar is rightmost
	assert.False(t, ov.clickAt(8, ov.graphY+graphH/2), "no step there yet")
	require.True(t, ov.clickAt(col(5), ov.graphY+graphH/2))
	assert.Equal(t, uint64(5), ov.tl.step)
	assert.NotEmpty(t, ov.tl.slices)
	assert.False(t, ov.tl.gc)
	require.True(t, ov.clickAt(col(8), ov.graphY+1))
	assert.Equal(t, uint64(8), ov.tl.step)
	assert.True(t, ov.tl.gc, "a GC cycle ended in step 8")
	assert.Contains(t, ov.timelineHead(true), "step 8 timeline, FROZEN")
	ov.capture(g.Engine(), true)
	assert.Equal(t, uint64(8), ov.tl.step, "frozen: stays")
}

// The history of timelines reuses its buffers: once every slot has held
// a step, recording one allocates nothing.
func TestHistoryAllocs(t *testing.T) {
	g, err := game.New(game.Config{Entities: 1500, Workers: 1, Batch: 256, Seed: 1})
	require.NoError(t, err)
	defer g.Close()
	require.NoError(t, g.Tick())
	ov := newOverlay()
	for range 2 * graphLen {
		ov.record(g, 20, false)
	}
	assert.Zero(t, testing.AllocsPerRun(100, func() { ov.record(g, 20, false) }))
	assert.Zero(t, testing.AllocsPerRun(100, func() { ov.open(3) }), "opening a step copies into the shown timeline's buffers")
}

// With -budget, the first step over it freezes the timeline on it and
// writes its trace; later ones do not move it.
func TestBudgetCapture(t *testing.T) {
	g, err := game.New(game.Config{Entities: 800, Workers: 1, Batch: 256, Seed: 1})
	require.NoError(t, err)
	defer g.Close()
	var log bytes.Buffer
	w := &window{g: g, o: options{budget: time.Nanosecond}, ov: newOverlay(), tr: tracer{dir: t.TempDir(), log: &log}}
	e := g.Engine()
	for range budgetWarmup {
		require.NoError(t, g.Tick())
		w.stepped(e)
		require.False(t, w.ctl.Frozen, "the warm-up passes")
	}
	require.NoError(t, g.Tick())
	w.stepped(e)
	const first = budgetWarmup + 1
	assert.True(t, w.ctl.Frozen)
	assert.Equal(t, uint64(first), w.ov.tl.step)
	require.FileExists(t, w.tr.spikePath)
	assert.Contains(t, w.tr.msg, fmt.Sprintf("step %d took ", first))
	assert.Contains(t, log.String(), w.tr.spikePath)
	b, err := os.ReadFile(w.tr.spikePath)
	require.NoError(t, err)
	assert.Equal(t, 1, strings.Count(string(b), `"cat":"step"`), "a trace of that step")
	w.ctl.Frozen = false // F thaws
	require.NoError(t, g.Tick())
	w.stepped(e)
	assert.False(t, w.ctl.Frozen, "only the first step over the budget")

	w = &window{g: g, o: options{}, ov: newOverlay(), tr: tracer{dir: t.TempDir(), log: &log}}
	require.NoError(t, g.Tick())
	w.stepped(e)
	assert.False(t, w.ctl.Frozen, "no budget, no capture")
}

// The timeline zooms about the cursor with the wheel, pans by dragging,
// shows all again, filters by a system's row, labels its ms axis, and
// names the boxes wide enough.
func TestTimelineView(t *testing.T) {
	g, err := game.New(game.Config{Entities: 3000, Workers: 1, Batch: 256, Seed: 1})
	require.NoError(t, err)
	defer g.Close()
	ov := newOverlay()
	for range 3 {
		require.NoError(t, g.Tick())
		ov.record(g, 20, false)
	}
	ov.capture(g.Engine(), false)
	ov.texts(&window{g: g, ov: ov}, 60, 60)
	ov.layout(game.ScreenH)
	width := tlWidth(game.ScreenW)
	var sh shapes
	ov.paintTimeline(&sh, game.ScreenW)
	require.NotEmpty(t, ov.ticks, "an ms axis")
	first, err := strconv.ParseFloat(strings.Fields(ov.ticks[0].label)[0], 64)
	require.NoError(t, err, ov.ticks[0].label)
	assert.Zero(t, first, "the axis starts at the step's first job")

	y := ov.timelineTop + lineH + 1
	mid := laneLabelW + int(width/2)
	assert.False(t, ov.zoomAt(mid, ov.graphY, 1), "not over the timeline")
	require.True(t, ov.zoomAt(mid, y, 5))
	from, to := ov.view.window(ov.tl.end)
	assert.InDelta(t, float64(ov.tl.end)*math.Pow(0.8, 5), float64(to-from), float64(ov.tl.end)/100, "zoomed in")
	assert.Less(t, from, ov.tl.end/2)
	assert.Greater(t, to, ov.tl.end/2, "about the cursor")
	hidden := 0
	for i := range ov.tl.slices {
		if _, _, _, _, ok := ov.box(i, width); !ok {
			hidden++
		}
	}
	assert.Positive(t, hidden, "some boxes are out of view")
	ov.dragAt(mid, y, true)
	ov.dragAt(mid+100, y, true)
	ov.dragAt(mid+100, y, false)
	from2, to2 := ov.view.window(ov.tl.end)
	assert.Less(t, from2, from, "dragging right shows earlier times")
	assert.Equal(t, to-from, to2-from2)
	// Zoom far in about the longest job's middle, so that its box is wide
	// whatever the jobs' times were.
	ov.wholeStep()
	longest := 0
	for i, sl := range ov.tl.slices {
		if sl.End-sl.Start > ov.tl.slices[longest].End-ov.tl.slices[longest].Start {
			longest = i
		}
	}
	bx, _, bw, _, ok := ov.box(longest, width)
	require.True(t, ok)
	require.True(t, ov.zoomAt(int(bx+bw/2), y, 20))
	var names []string
	ov.paintTimeline(&sh, game.ScreenW)
	ov.timelineLabels(func(s string, x, y int) { names = append(names, s) }, game.ScreenW)
	wide := false
	for _, n := range names {
		wide = wide || slices.ContainsFunc(ov.tl.slices, func(s engine.Slice) bool { return s.Label == n })
	}
	assert.True(t, wide, "a pass's name inside a wide box: %v", names)
	ov.wholeStep()
	from, to = ov.view.window(ov.tl.end)
	assert.Equal(t, [2]int64{0, ov.tl.end}, [2]int64{from, to})

	phys := slices.IndexFunc(ov.sys, func(r sysRow) bool { return r.name == "physics" })
	require.GreaterOrEqual(t, phys, 0)
	assert.False(t, ov.clickAt(20, ov.sys[phys].y+2))
	assert.Equal(t, ov.sys[phys].sys, ov.view.filter)
	for i, sl := range ov.tl.slices {
		_, _, _, _, ok := ov.box(i, width)
		assert.Equal(t, sl.System == ov.view.filter, ok, sl.Label)
	}
	assert.Contains(t, ov.timelineHead(false), "only physics")
	ov.clickAt(20, ov.sys[phys].y+2)
	assert.Equal(t, int32(-1), ov.view.filter, "again: all")
}

// The trace's message reads on its band while tracing and for a while
// after, then fades out.
func TestTraceMessageFades(t *testing.T) {
	g, err := game.New(game.Config{Entities: 200, Workers: 0, Seed: 1})
	require.NoError(t, err)
	defer g.Close()
	tr := tracer{dir: t.TempDir(), log: io.Discard}
	assert.Zero(t, tr.alpha(), "nothing to say")
	tr.start(g.Engine())
	for range game.TraceFrames {
		assert.Equal(t, float32(1), tr.frame(), "opaque while tracing")
		require.NoError(t, g.Tick())
		tr.add(g.Engine())
	}
	require.FileExists(t, tr.path)
	var seen []float32
	for range msgFrames + 10 {
		seen = append(seen, tr.frame()) // as draw does each frame
	}
	assert.Equal(t, float32(1), seen[0], "opaque at first")
	assert.Equal(t, float32(1), seen[msgFrames-fadeFrames])
	assert.InDelta(t, 0.5, seen[msgFrames-fadeFrames/2], 0.02, "fading")
	assert.Zero(t, seen[msgFrames], "gone")
	assert.True(t, slices.IsSortedFunc(seen, func(a, b float32) int { return cmp.Compare(b, a) }), "never brighter again")
}

// A new worker count mid-trace means a new pool: the trace ends with the
// steps of the old one, and says so.
func TestTraceCutByNewPool(t *testing.T) {
	g, err := game.New(game.Config{Entities: 500, Workers: 1, Batch: 256, Seed: 1})
	require.NoError(t, err)
	defer g.Close()
	var log bytes.Buffer
	tr := tracer{dir: t.TempDir(), log: &log}
	e := g.Engine()
	tr.start(e)
	for range 5 {
		require.NoError(t, g.Tick())
		tr.add(e)
	}
	require.NoError(t, e.SetWorkers(2))
	require.NoError(t, g.Tick())
	tr.add(e)
	assert.Zero(t, tr.left, "the trace ended")
	assert.Equal(t, 5, tr.steps)
	require.FileExists(t, tr.path)
	assert.Contains(t, tr.msg, "trace of 5 steps")
	assert.Contains(t, tr.msg, "cut short: the worker count changed")

	tr.start(e)
	require.NoError(t, e.SetWorkers(1))
	require.NoError(t, g.Tick())
	tr.add(e)
	assert.Zero(t, tr.left)
	assert.Contains(t, tr.msg, "trace cancelled")
}

// Hovering a timeline box names its system, pass, chunk, entities, start
// and duration.
func TestHover(t *testing.T) {
	g, err := game.New(game.Config{Entities: 3000, Workers: 1, Batch: 256, Seed: 1})
	require.NoError(t, err)
	defer g.Close()
	for range 3 {
		require.NoError(t, g.Tick())
	}
	ov := newOverlay()
	ov.capture(g.Engine(), false)
	ov.layout(game.ScreenH)
	require.Equal(t, 2, ov.tl.lanes)
	// The widest physics chunk box, so that its middle is its own and not a
	// neighbour's (boxes are as wide as the jobs happened to take).
	i := -1
	for k, s := range ov.tl.slices {
		if strings.HasPrefix(s.Label, "physics.") && s.Rows > 0 && (i < 0 || s.End-s.Start > ov.tl.slices[i].End-ov.tl.slices[i].Start) {
			i = k
		}
	}
	require.GreaterOrEqual(t, i, 0, "a physics chunk job")
	x, y, w, h, ok := ov.box(i, tlWidth(game.ScreenW))
	require.True(t, ok, "the whole step shows")
	// On a busy CPU the step stretches and even that box can be under a
	// pixel wide: zoom in about its exact middle (as the wheel does about
	// the cursor) until its middle is a pixel of its own.
	for zooms := 0; w < 8 && zooms < 100; zooms++ {
		ov.view.zoom(0.8, x+w/2-float32(laneLabelW), tlWidth(game.ScreenW), ov.tl.end)
		x, y, w, h, ok = ov.box(i, tlWidth(game.ScreenW))
		require.True(t, ok, "zooming about the box keeps it in view")
	}
	var sh shapes
	ov.hover(&sh, game.ScreenW, int(x+w/2), int(y+h/2))
	require.GreaterOrEqual(t, ov.hovered, 0)
	sl := ov.tl.slices[ov.hovered]
	label := ov.hoverLabel()
	t.Log(label)
	system, _, _ := strings.Cut(sl.Label, ".")
	assert.Contains(t, label, fmt.Sprintf("%s: %s chunk %d, %d entities", system, sl.Label, sl.Chunk, sl.Rows), "the label names the hovered box")
	assert.Contains(t, label, "start ")
	assert.Contains(t, label, "duration ")
	assert.True(t, ov.covers(int(x), int(y)), "the timeline is overlay: no drag, no click")

	ov.hover(&sh, game.ScreenW, game.ScreenW/2, game.ScreenH/2)
	assert.Equal(t, -1, ov.hovered, "nothing hovered in the world")
	assert.False(t, ov.covers(game.ScreenW/2, game.ScreenH/2))
}

// Without a display the demo prints a one-line hint and exits 2, where
// Ebiten's GLFW would panic at init.
func TestNoDisplayHint(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "demo")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	require.NoError(t, err, string(out))
	cmd := exec.Command(bin, "-steps", "1")
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "DISPLAY=") && !strings.HasPrefix(kv, "WAYLAND_DISPLAY=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	out, err = cmd.CombinedOutput()
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit, string(out))
	assert.Equal(t, 2, exit.ExitCode())
	assert.Equal(t, display.Hint, string(out))
	assert.True(t, display.Missing(func(string) string { return "" }))
	assert.False(t, display.Missing(func(k string) string { return map[string]string{"WAYLAND_DISPLAY": "wayland-0"}[k] }))
}
