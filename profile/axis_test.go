package profile_test

import (
	"bytes"
	"encoding/json"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/engine"
	"github.com/weft-engine/weft/profile"
)

// A Schedule that sleeps 20 ms shows as a Schedule phase of at least
// 20 ms, and the step's axis (0 to Total) holds it and every job; the
// Chrome trace has the same phase inside the step's slice.
func TestWholeStepInView(t *testing.T) {
	for _, workers := range []int{0, 2} {
		e := newEngine(t, world(t, 300), engine.Config{Workers: workers, Serial: workers == 0, Batch: 100})
		require.NoError(t, e.Add(engine.Update, marked(0, func() { time.Sleep(20 * time.Millisecond) })))
		require.NoError(t, e.Build())
		p := profile.New(e, profile.Options{})
		require.NoError(t, e.Tick())
		st := p.Last()
		var sched *profile.Phase
		for i, ph := range st.Phases {
			assert.GreaterOrEqual(t, ph.Start, int64(0), "%v", ph)
			assert.LessOrEqual(t, ph.End, int64(st.Total), "%v", ph)
			assert.LessOrEqual(t, ph.Start, ph.End)
			if ph.Kind == engine.PhaseSchedule {
				sched = &st.Phases[i]
			}
		}
		require.NotNil(t, sched, "a Schedule phase")
		assert.Equal(t, "marked", st.Systems[sched.System].Name)
		assert.GreaterOrEqual(t, time.Duration(sched.End-sched.Start), 20*time.Millisecond)
		assert.GreaterOrEqual(t, st.Total, 20*time.Millisecond, "the axis holds the Schedule")
		assert.GreaterOrEqual(t, st.Schedule, 20*time.Millisecond)
		kinds := map[engine.PhaseKind]bool{}
		for _, ph := range st.Phases {
			kinds[ph.Kind] = true
		}
		for _, k := range []engine.PhaseKind{engine.PhaseConditions, engine.PhaseSchedule, engine.PhaseWait, engine.PhasePlayback, engine.PhaseSnapshot, engine.PhaseRecord} {
			assert.True(t, kinds[k], "phase %v", k)
		}
		require.NotEmpty(t, st.Timeline)
		for _, s := range st.Timeline {
			assert.GreaterOrEqual(t, s.Start, int64(sched.Start), "jobs start after the Schedule that starts them: %+v", s)
			assert.LessOrEqual(t, s.End, int64(st.Total))
		}

		var tr profile.Trace
		tr.Add(e.LastRecord())
		var b bytes.Buffer
		require.NoError(t, tr.Write(&b))
		var file struct {
			TraceEvents []map[string]any `json:"traceEvents"`
		}
		require.NoError(t, json.Unmarshal(b.Bytes(), &file))
		var step, phase [2]float64
		for _, ev := range file.TraceEvents {
			if ev["ph"] != "X" {
				continue
			}
			s := [2]float64{ev["ts"].(float64), ev["ts"].(float64) + ev["dur"].(float64)}
			switch {
			case ev["cat"] == "step":
				step = s
			case ev["cat"] == "phase" && ev["name"] == "schedule marked":
				phase = s
				assert.Equal(t, 999.0, ev["tid"], "the owner's phases lane")
			}
		}
		assert.GreaterOrEqual(t, phase[1]-phase[0], 20_000.0, "a 20 ms phase in µs")
		assert.GreaterOrEqual(t, phase[0], step[0])
		assert.LessOrEqual(t, phase[1], step[1])
	}
}

// A GC cycle between steps comes with the next step's record, before its
// start (GCOutside); one inside a step counts in GCTime.
func TestGCWhereItHappened(t *testing.T) {
	gcIn := false
	e := newEngine(t, world(t, 300), engine.Config{Workers: 1, Batch: 100})
	require.NoError(t, e.Add(engine.Update, marked(0, func() {
		if gcIn {
			runtime.GC()
		}
	})))
	require.NoError(t, e.Build())
	p := profile.New(e, profile.Options{})
	require.NoError(t, e.Tick())
	runtime.GC()
	require.NoError(t, e.Tick())
	st := p.Last()
	require.NotEmpty(t, st.GC, "runtime.GC's pauses come with the next step")
	for _, g := range st.GC {
		// The pauses' ends are on the wall clock, which may drift from
		// the monotonic one by a little.
		assert.Less(t, g.End, int64(time.Millisecond), "before the step (or about its start)")
	}
	assert.Positive(t, st.GCOutside)
	gcIn = true
	require.NoError(t, e.Tick())
	st = p.Last()
	require.NotEmpty(t, st.GC)
	// The pause is placed by its end on the wall clock: it counts in the
	// step, or, where that clock stepped against the monotonic one, just
	// before it; either way it is shown and counted.
	assert.Positive(t, st.GCTime+st.GCOutside, "a pause within the step")
	assert.Positive(t, p.Summary().GC.Max+p.Summary().GCOutside.Max)
}
