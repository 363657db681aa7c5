package overlay

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/profile"
)

var screen = image.Pt(1280, 720)

// panel is the placed panel named name, after a layout.
func panel(t *testing.T, o *Overlay, name string) *placed {
	t.Helper()
	for i := range o.panels {
		if o.panels[i].Name == name {
			require.False(t, o.panels[i].r.Empty(), "%s is laid out", name)
			return &o.panels[i]
		}
	}
	t.Fatalf("no panel %s", name)
	return nil
}

// at sends p to the screen point (x, y) of panel name.
func at(t *testing.T, o *Overlay, name string, x, y int, p Pointer) {
	t.Helper()
	r := panel(t, o, name).r
	assert.True(t, o.route(r.Min.X+x, r.Min.Y+y, p), "the pointer is on the overlay")
}

// texts are the last layout's texts of panel name.
func texts(o *Overlay, name string) []string {
	var s []string
	for _, b := range o.pic.boxes {
		if b.Panel == name {
			s = append(s, b.Text)
		}
	}
	return s
}

// Clicking a bar selects its step: the bar is marked, the timeline,
// the systems table (with markers and counters) and the predictions show
// that step's values with the medians beside, and it stays while steps
// go on.
func TestSelectStep(t *testing.T) {
	e, o := newEngine(t, 1, 2000, 30, Options{})
	o.layout(screen)
	col := func(step int) int { return graphX + o.graphShown - 30 + step - 1 } // the newest bar is rightmost
	at(t, o, "graph", col(5), o.graphY+graphH/2, Pointer{Click: true})
	require.True(t, o.frozen)
	assert.Equal(t, uint64(5), o.tl.step)
	require.NoError(t, e.Tick())
	o.poll()
	o.layout(screen)
	assert.Equal(t, uint64(5), o.tl.step, "frozen: the step stays")
	st := o.hist.find(5)
	require.NotNil(t, st)
	sys := texts(o, "systems")
	assert.Contains(t, sys[0], "systems at step 5")
	mv := st.systems[0]
	assert.Contains(t, strings.Join(sys, "\n"), fmt.Sprintf("%5.2f %5.2f (", msf(mv.Span), msf(mv.Work)), "the step's span and work, then the medians")
	assert.Contains(t, strings.Join(sys, "\n"), fmt.Sprintf("%d (p50 ", st.counters[0].Value), "the counter's value at the step")
	assert.Contains(t, strings.Join(sys, "\n"), fmt.Sprintf("%d spans (p50 ", st.markers[0].Calls), "the marker's")
	assert.Contains(t, texts(o, "predict")[0], "at step 5")
	assert.Contains(t, texts(o, "timeline")[0], "step 5 timeline, FROZEN")
	marked, x := false, graphX+o.hist.col(5)-(graphLen-o.graphShown)
	for _, f := range o.pic.fills {
		marked = marked || f.c == colText && f.w == 3 && int(f.x) == x-1
	}
	assert.True(t, marked, "the selected bar is marked")

	o.setFrozen(false)
	o.repaintData()
	assert.Equal(t, uint64(31), o.tl.step, "thawed: live again")
	assert.Contains(t, texts(o, "systems")[0], "systems p50")
}

// K holds the shown step as the baseline: the systems table shows the
// step's value, the baseline's and the difference; K again lets it go.
func TestBaseline(t *testing.T) {
	e, o := newEngine(t, 1, 2000, 5, Options{})
	o.repaintData()
	o.hold()
	base := o.base.step
	require.NoError(t, e.Tick())
	o.poll()
	o.repaintData()
	require.Equal(t, base+1, o.tl.step)
	sys := strings.Join(texts(o, "systems"), "\n")
	assert.Contains(t, sys, fmt.Sprintf("step %d | baseline step %d | difference", base+1, base))
	a, b := o.tl.counters[0].Value, o.base.counters[0].Value
	assert.Contains(t, sys, fmt.Sprintf("%6d | %6d | %+6d", a, b, a-b), "columns of fixed width")
	assert.NotContains(t, sys, "-0.00", "a difference that rounds to zero reads +0.00")
	assert.Contains(t, strings.Join(o.pic.boxesText(), "\n"), fmt.Sprintf("baseline: step %d (K lets go)", base))
	o.hold()
	o.repaintData()
	assert.NotContains(t, strings.Join(texts(o, "systems"), "\n"), "baseline")
}

// repaintData is a repaint without pixels: the live step, then the layout.
func (o *Overlay) repaintData() {
	if !o.frozen {
		o.tl.copyFrom(o.prof.Last())
	}
	o.layout(screen)
}

func (p *picture) boxesText() []string { return boxTexts2(p.boxes) }

// The history reuses its buffers: once every slot held a step,
// recording and selecting allocate nothing.
func TestHistoryAllocs(t *testing.T) {
	_, o := newEngine(t, 1, 1500, 1, Options{})
	st := o.prof.Last()
	for range 2 * graphLen {
		o.hist.record(st, 20)
	}
	assert.Zero(t, testing.AllocsPerRun(100, func() { o.hist.record(st, 20) }))
	assert.Zero(t, testing.AllocsPerRun(100, func() { o.selectStep(st.Step) }), "selecting copies into the shown timeline's buffers")
}

// With Capture, the first step over the budget after the warm-up freezes
// the timeline on it and writes its trace; the message says so.
func TestCapture(t *testing.T) {
	var log bytes.Buffer
	e, o := newEngine(t, 1, 800, warmup, Options{Budget: time.Nanosecond, Capture: true, TraceDir: t.TempDir(), Log: &log})
	require.False(t, o.frozen, "the warm-up passes")
	require.NoError(t, e.Tick())
	o.poll()
	const first = warmup + 1
	require.True(t, o.frozen)
	assert.Equal(t, uint64(first), o.tl.step)
	require.FileExists(t, o.tr.spikePath)
	assert.Contains(t, o.tr.msg, fmt.Sprintf("step %d took ", first))
	assert.Contains(t, log.String(), o.tr.spikePath)
	b, err := os.ReadFile(o.tr.spikePath)
	require.NoError(t, err)
	assert.Equal(t, 1, strings.Count(string(b), `"cat":"step"`), "a trace of that step")
	o.setFrozen(false)
	require.NoError(t, e.Tick())
	o.poll()
	assert.False(t, o.frozen, "only the first step over the budget")

	// A new worker count, or Warm, starts the warm-up again.
	for _, again := range []func(){func() { require.NoError(t, e.SetWorkers(2)) }, o.Warm} {
		o.captured = false
		again()
		for range warmup {
			require.NoError(t, e.Tick())
			o.poll()
			require.False(t, o.captured, "the warm-up passes")
		}
		require.NoError(t, e.Tick())
		o.poll()
		require.True(t, o.captured, "the first step after it is caught")
		o.setFrozen(false)
	}

	_, o = newEngine(t, 1, 800, warmup+2, Options{})
	assert.False(t, o.frozen, "no Capture, no freeze")
}

// The T key's trace gathers TraceSteps steps into one Chrome trace file
// whose path shows on its band, then goes; a new worker count cuts it.
func TestTrace(t *testing.T) {
	var log bytes.Buffer
	e, o := newEngine(t, 1, 2000, 1, Options{TraceDir: t.TempDir(), Log: &log})
	o.tr.start(e)
	for range TraceSteps {
		require.NoError(t, e.Tick())
		o.poll()
	}
	tr := &o.tr
	require.FileExists(t, tr.path, tr.msg)
	assert.Contains(t, tr.message(), tr.path, "the path is on screen")
	assert.Contains(t, log.String(), tr.path)
	b, err := os.ReadFile(tr.path)
	require.NoError(t, err)
	var trace struct {
		TraceEvents []struct{ Ph, Cat, Name string } `json:"traceEvents"`
	}
	require.NoError(t, json.Unmarshal(b, &trace), "the trace is JSON")
	steps := 0
	for _, ev := range trace.TraceEvents {
		if ev.Ph == "X" && ev.Cat == "step" {
			steps++
		}
	}
	assert.Equal(t, TraceSteps, steps, "a slice per step")
	for range 2 * msgFrames {
		assert.False(t, tr.frame())
	}
	assert.Contains(t, tr.message(), tr.path, "the path stays until dismissed")
	assert.Contains(t, o.message(), "(Backspace dismisses)")
	assert.True(t, tr.dismiss())
	assert.Empty(t, tr.message())
	assert.False(t, tr.dismiss(), "nothing left to dismiss")

	o.Say("a passing message")
	assert.False(t, tr.dismiss(), "a passing message is not dismissed")
	for range msgFrames - 1 {
		assert.False(t, tr.frame())
	}
	assert.True(t, tr.frame(), "a passing message expires: repaint")
	assert.Empty(t, tr.message())

	tr.start(e)
	for range 5 {
		require.NoError(t, e.Tick())
		o.poll()
	}
	require.NoError(t, e.SetWorkers(2))
	require.NoError(t, e.Tick())
	o.poll()
	assert.Zero(t, tr.left, "the trace ended")
	assert.Contains(t, tr.msg, "trace of 5 steps")
	assert.Contains(t, tr.msg, "cut short: the worker count changed")
}

// The timeline zooms about the cursor with the wheel, pans by dragging,
// shows the whole step on a right click, and a click on a system shows
// only its jobs and markers.
func TestTimelineView(t *testing.T) {
	_, o := newEngine(t, 1, 5000, 3, Options{})
	o.repaintData()
	tl := panel(t, o, "timeline")
	g := o.geom
	y := g.laneY + 1
	mid := laneLabelW + int(g.width/2)
	at(t, o, "timeline", mid, y, Pointer{Wheel: 5})
	from, to := o.view.window(o.tl.end)
	assert.InDelta(t, float64(o.tl.end)*math.Pow(0.8, 5), float64(to-from), float64(o.tl.end)/100, "zoomed in")
	assert.Less(t, from, o.tl.end/2)
	assert.Greater(t, to, o.tl.end/2, "about the cursor")
	at(t, o, "timeline", mid, y, Pointer{Held: true})
	at(t, o, "timeline", mid+100, y, Pointer{Held: true})
	o.route(tl.r.Min.X+mid+100, tl.r.Min.Y+y, Pointer{})
	from2, to2 := o.view.window(o.tl.end)
	assert.Less(t, from2, from, "dragging right shows earlier times")
	assert.Equal(t, to-from, to2-from2)
	at(t, o, "timeline", mid, y, Pointer{RightClick: true})
	from, to = o.view.window(o.tl.end)
	assert.Equal(t, [2]int64{0, o.tl.end}, [2]int64{from, to}, "the whole step")

	o.layout(screen)
	rows := o.sysRows
	require.NotEmpty(t, rows)
	at(t, o, "systems", 20, rows[0].y+2, Pointer{Click: true})
	assert.Equal(t, int32(0), o.view.filter)
	o.view.filter = 1 // another system: every job and marker of the mover is out
	for i := range o.tl.slices {
		_, _, _, _, ok := o.box(i)
		assert.False(t, ok)
	}
	for i := range o.tl.marks {
		_, _, _, _, ok := o.markBox(i)
		assert.False(t, ok, "markers follow the filter")
	}
	o.view.filter = 0
	o.layout(screen)
	assert.Contains(t, texts(o, "timeline")[0], "only mover")
	at(t, o, "systems", 20, o.sysRows[0].y+2, Pointer{Click: true})
	assert.Equal(t, int32(-1), o.view.filter, "again: all")
}

// Hovering a box names its system, pass, chunk and entities (a part for
// what has no entities), participant, start and duration; a marker's
// box its marker.
func TestHoverText(t *testing.T) {
	_, o := newEngine(t, 1, 3000, 3, Options{})
	o.repaintData()
	require.NotEmpty(t, o.tl.slices)
	for i, sl := range o.tl.slices {
		s := o.hoverText(i)
		if sl.Rows > 0 {
			assert.Contains(t, s, fmt.Sprintf("mover: %s chunk %d, %d rows", sl.Label, sl.Chunk, sl.Rows))
		} else {
			assert.NotContains(t, s, "0 entities")
		}
		assert.Contains(t, s, "start ")
	}
	require.NotEmpty(t, o.tl.marks)
	assert.Contains(t, o.hoverText(len(o.tl.slices)), "marker mover.inner, nesting 0")
}

// The Save key's capture file reads back as a profile.Report; given as
// the baseline, the systems table compares the medians (or the selected
// step) with the capture's, and a held step wins over it.
func TestCaptureBaseline(t *testing.T) {
	dir := t.TempDir()
	_, o := newEngine(t, 1, 2000, 10, Options{TraceDir: dir})
	o.save()
	files, err := filepath.Glob(filepath.Join(dir, "weft-capture-*.json"))
	require.NoError(t, err)
	require.Len(t, files, 1, o.tr.msg)
	assert.Contains(t, o.tr.message(), files[0], "the path is on screen")
	f, err := os.Open(files[0])
	require.NoError(t, err)
	defer f.Close()
	r, err := profile.ReadReport(f)
	require.NoError(t, err)
	assert.Equal(t, 10, r.Window)

	_, o = newEngine(t, 1, 2000, 5, Options{Baseline: r})
	o.repaintData()
	sys := strings.Join(texts(o, "systems"), "\n")
	assert.Contains(t, sys, "systems: p50 | capture (10 steps) p50 | difference")
	b := r.Counters[0].Value.P50
	a := o.sum.Counters[0].Value.P50
	assert.Contains(t, sys, fmt.Sprintf("%6.0f | %6.0f | %+6.0f", a, b, a-b))
	assert.Contains(t, strings.Join(o.pic.boxesText(), "\n"), "baseline: capture (10 steps)")
	o.hold()
	o.repaintData()
	assert.Contains(t, strings.Join(texts(o, "systems"), "\n"), "| baseline step ", "a held step wins")
}

// A difference that rounds to zero prints as zero, signed: never "-0.00"
// or "-0 ns"; counts read "1 worker", "2 workers".
func TestChangeFormats(t *testing.T) {
	assert.Equal(t, "+0.00", fmt.Sprintf("%+.2f", change(-0.004, 2)))
	assert.Equal(t, "-0.01", fmt.Sprintf("%+.2f", change(-0.006, 2)))
	assert.Equal(t, "+0", fmt.Sprintf("%+.0f", change(-0.4, 0)))
	assert.Equal(t, "0 ns", signedDur(-0.3))
	assert.Equal(t, "+1.5 µs", signedDur(1500))
	assert.Equal(t, "-2.000 ms", signedDur(-2e6))
	assert.Equal(t, "1 worker", count(1, "worker"))
	assert.Equal(t, "0 workers", count(0, "worker"))
	assert.Equal(t, "41 jobs", count(uint64(41), "job"))
}
