package engine_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/engine"
	"github.com/weft-engine/weft/profile"
)

// slotOf is the named system's index in rec's layout.
func slotOf(t *testing.T, rec *engine.StepRecord, name string) int {
	for i, s := range rec.Layout.Systems {
		if s.Name == name {
			return i
		}
	}
	t.Fatalf("no system %q", name)
	return -1
}

// A system whose job panics is recorded as failed with its panic; the
// system after it, whose jobs did not run, as blocked by it (not as ran
// with no entities), on every worker count. The next step records both
// as ran.
func TestRecordFailedAndBlocked(t *testing.T) {
	for _, workers := range []int{0, 1, 2, 4} {
		t.Run(fmt.Sprint("W=", workers), func(t *testing.T) {
			fail := true
			e := newEngine(t, world(t, 40), engine.Config{Workers: workers, Serial: workers == 0, Batch: 8})
			require.NoError(t, e.Add(engine.Update, mover("bad", true, func([]pos) {
				if fail {
					panic("boom")
				}
			})))
			require.NoError(t, e.Add(engine.Update, mover("next", true, noop), engine.After("bad")))
			require.NoError(t, e.Add(engine.Update, mover("apart", false, noop), engine.Before("bad")))
			require.NoError(t, e.Build())
			prof := profile.New(e, profile.Options{})
			require.Error(t, e.Tick())
			rec := e.LastRecord()
			bad, next, apart := rec.Systems[slotOf(t, rec, "bad")], rec.Systems[slotOf(t, rec, "next")], rec.Systems[slotOf(t, rec, "apart")]
			assert.Equal(t, engine.SystemFailed, bad.State)
			assert.Contains(t, bad.Cause, "boom")
			assert.Equal(t, engine.SystemBlocked, next.State)
			assert.Contains(t, next.Cause, `system "bad"`)
			assert.Contains(t, next.Cause, "boom")
			assert.Equal(t, engine.SystemRan, apart.State)
			st := lastTimings(e)
			assert.False(t, st.System("next").Ran, "blocked: it did not run")
			var table strings.Builder
			require.NoError(t, prof.WriteTable(&table))
			assert.Contains(t, table.String(), "failed in 1 of 1 steps, blocked by another system's failure in 0")
			assert.Contains(t, table.String(), "failed in 0 of 1 steps, blocked by another system's failure in 1")
			assert.Regexp(t, `(?s)blocked in step 1: .*"bad".*boom`, table.String())
			assert.Equal(t, engine.SystemBlocked, st.System("next").State)
			assert.Equal(t, "blocked", st.System("next").State.String())

			fail = false
			require.NoError(t, e.Tick())
			rec = e.LastRecord()
			for _, s := range rec.Systems {
				assert.Equal(t, engine.SystemRan, s.State)
				assert.Empty(t, s.Cause)
			}
		})
	}
}

// A system whose Schedule returns an error is recorded as failed with it;
// a disabled one as disabled.
func TestRecordScheduleFailureAndDisabled(t *testing.T) {
	e := newEngine(t, world(t, 10), engine.Config{Workers: 1})
	failing := mover("failing", false, noop)
	failing.sched = func(*engine.Frame) error { return fmt.Errorf("no luck") }
	require.NoError(t, e.Add(engine.Update, failing))
	require.NoError(t, e.Add(engine.Update, mover("off", false, noop), engine.Disabled()))
	require.NoError(t, e.Build())
	require.Error(t, e.Tick())
	rec := e.LastRecord()
	assert.Equal(t, engine.SystemRecord{State: engine.SystemFailed, Cause: "no luck"}, rec.Systems[slotOf(t, rec, "failing")])
	assert.Equal(t, engine.SystemDisabled, rec.Systems[slotOf(t, rec, "off")].State)
}

// The record's times lie on one axis: every phase, job and marker span
// within [Start, End]; the batch tuner's figure needs no observer.
func TestRecordAxis(t *testing.T) {
	e := newEngine(t, world(t, 1000), engine.Config{Workers: 2, Batch: 100})
	e.Add(engine.Update, marked(nil))
	require.NoError(t, e.Build())
	var seen []uint64
	stop := e.Observe(func(r *engine.StepRecord) { seen = append(seen, r.Step) })
	for range 3 {
		require.NoError(t, e.Tick())
	}
	stop()
	require.NoError(t, e.Tick())
	assert.Equal(t, []uint64{1, 2, 3}, seen, "an observer a step, until stopped")
	rec := e.LastRecord()
	assert.Equal(t, uint64(4), rec.Step)
	assert.Less(t, rec.Start, rec.End)
	assert.LessOrEqual(t, rec.End, e.Clock())
	for _, p := range rec.Phases {
		assert.True(t, rec.Start <= p.Start && p.Start <= p.End && p.End <= rec.End, "%+v in %d..%d", p, rec.Start, rec.End)
	}
	require.Len(t, rec.JobInfo, len(rec.Jobs))
	chunks := 0
	for i, ev := range rec.Jobs {
		if rec.JobInfo[i].System >= 0 {
			chunks++
			assert.Equal(t, int32(100), rec.JobInfo[i].Rows)
			assert.True(t, rec.Start <= ev.Start && ev.Start <= ev.End && ev.End <= rec.End, "%+v", ev)
		}
	}
	assert.Equal(t, 10, chunks)
	require.Len(t, rec.Marks, 20)
	assert.Equal(t, []int64{1000}, rec.Counters)
	assert.Equal(t, "marked.rows", rec.Layout.Counters[0].Name)
	assert.Equal(t, []engine.NameInfo{{Name: "marked.outer", System: 0}, {Name: "marked.inner", System: 0}}, rec.Layout.Markers)
	assert.Equal(t, []engine.NameInfo{{Name: "marked.move", System: 0}}, rec.Layout.Passes)
	assert.Len(t, rec.Workers, 3)
	assert.Equal(t, 100, rec.Batch)
}

// A range pass's jobs carry their item counts, and RangeWorker's function
// gets the participant that runs it, so that its markers record; a nil
// function is refused at Build.
func TestRangeWorkerAndItems(t *testing.T) {
	for _, workers := range []int{0, 2} {
		var m engine.Marker
		var pass *engine.Pass
		var bad [3]int
		e := newEngine(t, world(t, 1), engine.Config{Workers: workers, Serial: workers == 0})
		require.NoError(t, e.Add(engine.Update, &toy{name: "r",
			build: func(b *engine.Builder) error {
				m = b.Marker("m")
				pass = b.RangeWorker("items", func(w, lo, hi int) {
					if w < 0 || w > workers {
						bad[0]++
					}
					m.Begin(w).End()
				})
				return nil
			},
			sched: func(f *engine.Frame) error { return f.RunRange(pass, 10, 4) }}))
		require.NoError(t, e.Build())
		require.NoError(t, e.Tick())
		assert.Zero(t, bad[0], "a participant index in 0..W")
		rec := e.LastRecord()
		var items []int32
		for i, ev := range rec.Jobs {
			if rec.JobInfo[i].System == 0 {
				items = append(items, rec.JobInfo[i].Rows)
				assert.Equal(t, "r.items", ev.Label.Name)
			}
		}
		slices.Sort(items)
		assert.Equal(t, []int32{2, 4, 4}, items, "ranges of 4, 4 and 2 items")
		assert.Len(t, rec.Marks, 3)
	}
	e := newEngine(t, world(t, 1), engine.Config{Serial: true})
	require.NoError(t, e.Add(engine.Update, &toy{name: "nil",
		build: func(b *engine.Builder) error { b.RangeWorker("x", nil); return nil },
		sched: func(*engine.Frame) error { return nil }}))
	err := e.Build()
	require.ErrorIs(t, err, engine.ErrBadConfig)
	assert.Contains(t, err.Error(), `RangeWorker("x")`)
}
