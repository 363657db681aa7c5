package engine_test

import (
	"errors"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/engine"
	"github.com/weft-engine/weft/jobs"
)

// The accumulator runs whole fixed steps, at most MaxSteps per call, and
// drops the rest of a backlog; Time follows.
func TestFixedStep(t *testing.T) {
	e := newEngine(t, world(t, 3), engine.Config{Serial: true, FixedStep: 10 * time.Millisecond, MaxSteps: 3})
	require.NoError(t, e.Add(engine.Update, mover("m", true, noop)))
	require.NoError(t, e.Build())
	for _, c := range []struct {
		dt    time.Duration
		steps int
	}{{4 * time.Millisecond, 0}, {7 * time.Millisecond, 1}, {25 * time.Millisecond, 2}, {100 * time.Millisecond, 3}} {
		n, err := e.Step(c.dt)
		require.NoError(t, err)
		assert.Equal(t, c.steps, n, "dt %v", c.dt)
	}
	assert.Equal(t, uint64(6), e.Time().Step)
	assert.InDelta(t, 0.06, e.Time().Elapsed, 1e-12)
	assert.Equal(t, uint64(7), e.Dropped()) // 100+6 ms left 106: 3 run, 7 dropped
	assert.InDelta(t, 0.6, e.Time().Alpha, 1e-9)
}

// A panicking job fails the step with an error naming it; the step still
// completes (other systems run, commands play) and the next step works.
func TestJobPanic(t *testing.T) {
	e := newEngine(t, world(t, 20), engine.Config{Workers: 2, Batch: 4})
	fail := true
	require.NoError(t, e.Add(engine.Update, mover("boom", true, func(p []pos) {
		if fail {
			panic("bad data")
		}
	})))
	ran := 0
	require.NoError(t, e.Add(engine.PreRender, merging{&toy{name: "after",
		build: func(b *engine.Builder) error { return nil },
		sched: func(f *engine.Frame) error { return nil },
		merge: func(f *engine.Frame) error { ran++; return nil },
	}}))
	require.NoError(t, e.Build())
	err := e.Tick()
	require.Error(t, err)
	assert.ErrorIs(t, err, engine.ErrJob)
	assert.ErrorIs(t, err, jobs.ErrFailed)
	assert.Contains(t, err.Error(), "bad data")
	fail = false
	require.NoError(t, e.Tick())
	assert.Equal(t, 2, ran, "a system that does not depend on the failed one still merges")
}

// Schedule errors are returned after the step; errors.As reaches the code.
func TestScheduleError(t *testing.T) {
	e := newEngine(t, world(t, 2), engine.Config{Workers: 1})
	require.NoError(t, e.Add(engine.Update, &toy{name: "s", build: func(*engine.Builder) error { return nil },
		sched: func(*engine.Frame) error { return errors.New("out of ammo") }}))
	require.NoError(t, e.Build())
	err := e.Tick()
	var ee *engine.Error
	require.ErrorAs(t, err, &ee)
	assert.Equal(t, engine.ErrScheduleRun, ee.Code)
	assert.Equal(t, "s", ee.System)
	assert.Contains(t, err.Error(), "out of ammo")
	assert.ErrorIs(t, e.Build(), engine.ErrOrder)
}

// The snapshot contract of Engine.Snapshot: the published snapshot stays
// untouched while the next step builds into the other buffer (a Merge of
// that step sees it whole), and the step after next reuses its buffer.
func TestSnapshotDoubleBuffer(t *testing.T) {
	e := newEngine(t, world(t, 5), engine.Config{Workers: 1})
	var during []engine.Item // what Engine.Snapshot holds inside step 2
	require.NoError(t, e.Add(engine.PreRender, merging{&toy{name: "draw",
		build: func(b *engine.Builder) error { return nil },
		sched: func(f *engine.Frame) error { return nil },
		merge: func(f *engine.Frame) error {
			s := f.Snapshot()
			s.Items = append(s.Items, engine.Item{Entity: s.Step})
			if s.Step == 2 {
				during = slices.Clone(e.Snapshot().Items)
			}
			return nil
		},
	}}))
	assert.Empty(t, e.Snapshot().Items, "before the first step")
	require.NoError(t, e.Build())
	require.NoError(t, e.Tick())
	first := e.Snapshot()
	require.NoError(t, e.Tick())
	second := e.Snapshot()
	assert.NotSame(t, first, second)
	assert.Equal(t, uint64(2), second.Step)
	assert.Equal(t, uint64(1), first.Step)
	assert.Equal(t, []engine.Item{{Entity: 1}}, first.Items)
	assert.Equal(t, []engine.Item{{Entity: 1}}, during, "inside step 2, the published snapshot is step 1's, whole")
	assert.Equal(t, []engine.Item{{Entity: 2}}, second.Items)
	require.NoError(t, e.Tick())
	assert.Same(t, first, e.Snapshot(), "step 3 reuses step 1's buffer: copy what must live longer")
	assert.Equal(t, uint64(3), first.Step)
}

// The last step's trace exports for Perfetto.
func TestWriteTrace(t *testing.T) {
	e := newEngine(t, world(t, 64), engine.Config{Workers: 1, Batch: 8})
	require.NoError(t, e.Add(engine.Update, mover("m", true, noop)))
	require.NoError(t, e.Build())
	require.NoError(t, e.Tick())
	var b strings.Builder
	require.NoError(t, e.WriteTrace(&b))
	assert.Contains(t, b.String(), `"name":"m.move[7]"`)
}

// The timeline names each chunk job's pass and counts its rows, and marks
// the critical path.
func TestTimelineSlices(t *testing.T) {
	e := newEngine(t, world(t, 60), engine.Config{Workers: 1, Batch: 8})
	require.NoError(t, e.Add(engine.Update, mover("m", true, noop)))
	require.NoError(t, e.Build())
	require.NoError(t, e.Tick())
	rows, chunks, critical := 0, 0, 0
	for _, s := range lastTimings(e).Timeline {
		if s.Critical {
			critical++
		}
		if s.System < 0 {
			continue
		}
		assert.Equal(t, "m.move", s.Label)
		assert.Equal(t, int32(min(8, 60-8*int(s.Chunk))), s.Rows, "chunk %d", s.Chunk)
		rows += int(s.Rows)
		chunks++
	}
	assert.Equal(t, 60, rows)
	assert.Equal(t, 8, chunks)
	assert.Positive(t, critical)
}

// Traces of several steps gather into one file: every step's jobs are
// there, each once, in time order.
func TestAppendTrace(t *testing.T) {
	e := newEngine(t, world(t, 64), engine.Config{Workers: 1, Batch: 8})
	require.NoError(t, e.Add(engine.Update, mover("m", true, noop)))
	require.NoError(t, e.Build())
	var events []jobs.Event
	for i := range 3 {
		require.NoError(t, e.Tick())
		n := len(events)
		events = e.AppendTrace(events)
		// How many: a range job splits when a thief is about, so the
		// count of jobs and edges varies; every step has some.
		assert.Greater(t, len(events), n, "step %d adds its events", i)
	}
	type slice struct {
		job   jobs.Handle
		chunk int
	}
	seen := map[slice]bool{} // a chunk pass's chunks share their job's handle
	chunk7 := 0
	for i, ev := range events {
		if i > 0 {
			assert.LessOrEqual(t, events[i-1].Start, ev.Start, "event %d out of time order", i)
		}
		if ev.Kind != jobs.KindJob {
			continue
		}
		s := slice{ev.Job, ev.Label.Chunk}
		assert.False(t, seen[s], "%v chunk %d twice", ev.Job, ev.Label.Chunk)
		seen[s] = true
		if ev.Label.Name == "m.move" && ev.Label.Chunk == 7 {
			chunk7++
		}
	}
	assert.Equal(t, 3, chunk7, "chunk 7 once per step")
	var b strings.Builder
	require.NoError(t, jobs.WriteChromeTrace(&b, events))
	assert.Equal(t, 3, strings.Count(b.String(), `"name":"m.move[7]"`))
}

// A system that fails every step neither stops Step early nor lets the
// backlog grow: the capped steps run, the rest is dropped, the errors come
// back joined.
func TestStepWithFailingSystem(t *testing.T) {
	e := newEngine(t, world(t, 2), engine.Config{Workers: 1, FixedStep: 10 * time.Millisecond, MaxSteps: 3})
	require.NoError(t, e.Add(engine.Update, &toy{name: "s", build: func(*engine.Builder) error { return nil },
		sched: func(*engine.Frame) error { return errors.New("out of ammo") }}))
	require.NoError(t, e.Build())
	n, err := e.Step(55 * time.Millisecond)
	assert.Equal(t, 3, n)
	assert.ErrorIs(t, err, engine.ErrScheduleRun)
	assert.Equal(t, uint64(3), e.Time().Step)
	assert.Equal(t, uint64(2), e.Dropped())
	assert.InDelta(t, 0.5, e.Time().Alpha, 1e-9)
}

// Participants follows the worker count, SetWorkers included.
func TestParticipants(t *testing.T) {
	e := newEngine(t, world(t, 2), engine.Config{Workers: 1})
	got := 0
	require.NoError(t, e.Add(engine.Update, &toy{name: "s", build: func(*engine.Builder) error { return nil },
		sched: func(f *engine.Frame) error { got = f.Participants(); return nil }}))
	require.NoError(t, e.Build())
	require.NoError(t, e.Tick())
	assert.Equal(t, 2, got)
	require.NoError(t, e.SetWorkers(0))
	require.NoError(t, e.Tick())
	assert.Equal(t, 1, got)
}

// A worker count above engine.MaxWorkers is refused with WEFT-G001 in the
// engine's names, by New and by SetWorkers, and changes nothing: the next
// Tick runs on the pool it had. DefaultWorkers is resolved once, by jobs.
func TestWorkersBounded(t *testing.T) {
	_, err := engine.New(world(t, 2), engine.Config{Workers: engine.MaxWorkers + 1})
	require.ErrorIs(t, err, engine.ErrBadConfig)
	assert.Contains(t, err.Error(), "Config.Workers = 257")
	e := newEngine(t, world(t, 2), engine.Config{Workers: 1})
	got := 0
	require.NoError(t, e.Add(engine.Update, &toy{name: "s", build: func(*engine.Builder) error { return nil },
		sched: func(f *engine.Frame) error { got = f.Participants(); return nil }}))
	require.NoError(t, e.Build())
	for _, n := range []int{10000, engine.MaxWorkers + 1, -2} {
		err := e.SetWorkers(n)
		require.ErrorIs(t, err, engine.ErrBadConfig, "SetWorkers(%d)", n)
		assert.Contains(t, err.Error(), "engine.MaxWorkers (256), or engine.DefaultWorkers")
		assert.NotContains(t, err.Error(), "jobs.")
		assert.Equal(t, 1, e.Workers(), "a refused count changes nothing")
	}
	require.NoError(t, e.Tick())
	assert.Equal(t, 2, got)
	require.NoError(t, e.SetWorkers(engine.DefaultWorkers))
	want, err := engine.ResolveWorkers(engine.DefaultWorkers)
	require.NoError(t, err)
	assert.Equal(t, want, e.Workers(), "DefaultWorkers is resolved when set")
	assert.Equal(t, min(engine.MaxWorkers, max(1, runtime.GOMAXPROCS(0)-1)), want)
}

// The goroutine that steps may change between steps (a game loop moved to
// another goroutine, a benchmark's rounds): the engine then makes a new
// pool there, as only a pool's owner may Reset it, and the steps go on
// with the same results, checks on.
func TestStepFromAnotherGoroutine(t *testing.T) {
	run := func(e *engine.Engine) {
		require.NoError(t, e.Add(engine.Update, mover("m", true, func(p []pos) {
			for i := range p {
				p[i].X = p[i].X*1.5 + 1
			}
		})))
		require.NoError(t, e.Build())
	}
	w0 := world(t, 300)
	e0 := newEngine(t, w0, engine.Config{Serial: true, Batch: 16})
	run(e0)
	w := world(t, 300)
	e := newEngine(t, w, engine.Config{Workers: 2, Batch: 16})
	run(e)
	for i := range 6 {
		require.NoError(t, e0.Tick())
		done := make(chan error)
		if i%2 == 1 {
			go func() { done <- e.Tick() }()
			require.NoError(t, <-done, "step %d on another goroutine", i)
		} else {
			require.NoError(t, e.Tick(), "step %d", i)
		}
	}
	assert.Equal(t, hashPos(w0), hashPos(w))
}
