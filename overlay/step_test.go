package overlay

import (
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/engine"
)

// sleeper's Schedule sleeps, and collects garbage when gc is set: the
// owner's time outside every job.
type sleeper struct {
	sleep time.Duration
	gc    bool
}

func (s *sleeper) Name() string                 { return "sleeper" }
func (s *sleeper) Build(*engine.Builder) error  { return nil }
func (s *sleeper) Schedule(*engine.Frame) error { time.Sleep(s.sleep); s.collect(); return nil }
func (s *sleeper) collect() {
	if s.gc {
		runtime.GC()
	}
}

// The timeline holds the whole step: a Schedule that sleeps 20 ms is a
// phase box of 20 ms on the phase lane, named on hover, inside an axis
// that runs to the step's end.
func TestWholeStep(t *testing.T) {
	sl := &sleeper{sleep: 20 * time.Millisecond}
	_, o := newEngine(t, 1, 1000, 2, Options{}, sl)
	o.repaintData()
	require.GreaterOrEqual(t, o.tl.end, int64(20*time.Millisecond), "the axis holds the sleep")
	found := false
	for i, p := range o.tl.phases {
		if p.Kind != engine.PhaseSchedule || o.tl.name(p.System) != "sleeper" {
			continue
		}
		found = true
		assert.GreaterOrEqual(t, p.End-p.Start, int64(20*time.Millisecond))
		x, _, w, _, ok := o.phaseBox(i)
		require.True(t, ok)
		assert.Greater(t, w, o.geom.width/2, "most of the axis: the step is mostly the sleep")
		assert.GreaterOrEqual(t, x, float32(laneLabelW))
		assert.Contains(t, o.hoverText(len(o.tl.slices)+len(o.tl.marks)+i), "owner: schedule of sleeper")
	}
	assert.True(t, found, "the sleeper's Schedule is a phase")
	assert.Contains(t, texts(o, "timeline"), "phase", "the phase lane is labelled")
}

// A GC pause is drawn at its time, across the lanes, and named on hover;
// one between steps is a mark at the axis's start, and the title gives
// both sums.
func TestGCAtItsTime(t *testing.T) {
	sl := &sleeper{sleep: time.Millisecond, gc: true}
	e, o := newEngine(t, 1, 1000, 2, Options{}, sl)
	o.repaintData()
	in := -1
	for i, p := range o.tl.pauses {
		if p.Start >= 0 {
			in = i
		}
	}
	require.GreaterOrEqual(t, in, 0, "a pause inside the step: %v", o.tl.pauses)
	head := strings.Join(texts(o, "timeline"), "\n")
	assert.Contains(t, head, "GC pauses ")
	p := o.tl.pauses[in]
	x, _, ok := o.span(p.Start, p.End)
	require.True(t, ok)
	drawn := false
	for _, f := range o.pic.fills {
		drawn = drawn || f.c == colGC.alpha(0.45) && int(f.x) == int(x)
	}
	assert.True(t, drawn, "the pause is drawn where it happened")
	assert.Contains(t, o.hoverText(len(o.tl.slices)+len(o.tl.marks)+len(o.tl.phases)+in), "GC pause (cycle ")

	sl.gc = false
	runtime.GC() // between steps
	require.NoError(t, e.Tick())
	o.poll()
	o.repaintData()
	assert.Positive(t, o.tl.gcOut, "the pause before the step is counted")
	g, _ := o.hist.at(graphLen - 1)
	assert.Positive(t, g.gc, "and marked on its bar")
}
