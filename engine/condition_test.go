package engine_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
	"github.com/weft-engine/weft/profile"
)

// paused is a game resource that a run condition reads.
type paused struct{ On bool }

// counting is a mover whose Schedule and Merge calls are counted per step.
func counting(name string, body func(p []pos), scheduled, merged *[]uint64) engine.System {
	m := mover(name, true, body)
	inner := m.sched
	m.sched = func(f *engine.Frame) error {
		*scheduled = append(*scheduled, f.Time().Step)
		return inner(f)
	}
	m.merge = func(f *engine.Frame) error {
		*merged = append(*merged, f.Time().Step)
		return nil
	}
	return merging{m}
}

// A system whose condition does not hold sits the step out: no Schedule,
// no Merge, Skipped in the timings; its dependent runs every step, on
// every worker count, without waiting for it.
func TestConditionSkipsAndDependentsRun(t *testing.T) {
	for workers := range 5 {
		t.Run(fmt.Sprint("W=", workers), func(t *testing.T) {
			w := world(t, 50)
			e := newEngine(t, w, engine.Config{Workers: workers, Serial: workers == 0, Batch: 8})
			var sched, merged []uint64
			require.NoError(t, e.Add(engine.Update, counting("spawner", func(p []pos) {
				for i := range p {
					p[i].X += 100
				}
			}, &sched, &merged), engine.EveryN(3)))
			var seen []int
			after := mover("after", false, noop)
			after.merge = func(f *engine.Frame) error { seen = append(seen, int(f.Time().Step)); return nil }
			require.NoError(t, e.Add(engine.Update, merging{after}, engine.After("spawner")))
			require.NoError(t, e.Build())
			prof := profile.New(e, profile.Options{})
			for step := 1; step <= 7; step++ {
				require.NoError(t, e.Tick())
				st := lastTimings(e)
				on := step%3 == 0
				assert.Equal(t, on, st.Systems[0].Ran, "step %d", step)
				assert.Equal(t, !on, st.Systems[0].Skipped, "step %d", step)
				assert.True(t, st.Systems[1].Ran)
				assert.False(t, st.Systems[1].Skipped)
			}
			sum := prof.Summary()
			assert.Equal(t, [2]int{2, 5}, [2]int{sum.Systems[0].Ran, sum.Systems[0].Skipped}, "the window counts ran and skipped steps")
			assert.Equal(t, [2]int{7, 0}, [2]int{sum.Systems[1].Ran, sum.Systems[1].Skipped})
			var table strings.Builder
			require.NoError(t, prof.WriteTable(&table))
			assert.Contains(t, table.String(), "skipped by a run condition in 5 of 7 steps (ran in 2)")
			assert.Equal(t, []uint64{3, 6}, sched)
			assert.Equal(t, []uint64{3, 6}, merged)
			assert.Equal(t, []int{1, 2, 3, 4, 5, 6, 7}, seen)
			ents, err := w.Entities(ecs.NewComponent[pos](w))
			require.NoError(t, err)
			for e := range ents {
				p, err := ecs.Get[pos](w, e)
				require.NoError(t, err)
				require.Equal(t, 200.0, math.Floor(p.X/100)*100)
			}
		})
	}
}

// hashPos is the world's hash of every pos (ecs.World.Hash).
func hashPos(w *ecs.World) uint64 {
	h, err := w.Hash(ecs.NewComponent[pos](w))
	if err != nil {
		panic(err)
	}
	return h
}

// conditionScene runs 30 steps of order-dependent writers under EveryN,
// WhileRes (toggled by an exclusive system) and a set's RunIf, and hashes
// the result.
func conditionScene(t *testing.T, workers, batch int, chain bool) uint64 {
	w := world(t, 100)
	pause := &paused{}
	require.NoError(t, ecs.AddResource(w, pause))
	e := newEngine(t, w, engine.Config{Workers: workers, Serial: workers == 0, Batch: batch, ChainChunks: chain})
	scale := func(k float64) func(p []pos) {
		return func(p []pos) {
			for i := range p {
				p[i].X = p[i].X*k + 1
			}
		}
	}
	require.NoError(t, e.AddExclusive(engine.PreUpdate, exclusive{"toggle", func(w *ecs.World, t engine.Time) error {
		pause.On = t.Step%5 < 2 // an exclusive system runs on the owner between the frame's jobs
		return nil
	}}))
	require.NoError(t, e.Set("odd", engine.RunIf(func(f *engine.Frame) bool { return f.Time().Step%2 == 1 })))
	require.NoError(t, e.Add(engine.Update, mover("a", true, scale(1.5)), engine.EveryN(3)))
	require.NoError(t, e.Add(engine.Update, mover("b", true, scale(0.5)), engine.After("a"), engine.WhileRes(func(p *paused) bool { return !p.On })))
	require.NoError(t, e.Add(engine.Update, mover("c", true, scale(1.25)), engine.After("b"), engine.InSet("odd")))
	require.NoError(t, e.Add(engine.Update, mover("d", true, scale(0.75)), engine.After("c")))
	require.NoError(t, e.Build())
	for range 30 {
		require.NoError(t, e.Tick())
	}
	return hashPos(w)
}

// Conditions give the same result for every worker count and batch size,
// also where a skipped system's successor would chain onto it chunk-wise.
func TestConditionDeterminism(t *testing.T) {
	want := conditionScene(t, 0, 256, false)
	for _, workers := range []int{0, 1, 2, 4} {
		for _, batch := range []int{1, 7, 64} {
			for _, chain := range []bool{false, true} {
				assert.Equal(t, want, conditionScene(t, workers, batch, chain), "workers %d, batch %d, chained %v", workers, batch, chain)
			}
		}
	}
	// The hash can tell: the scene changed the world.
	assert.NotEqual(t, want, hashPos(world(t, 100)))
}

// WhileRes follows the resource as it is at the start of each step, and
// an exclusive system can be skipped too.
func TestWhileResAndSkippedExclusive(t *testing.T) {
	w := world(t, 4)
	p := &paused{On: true}
	require.NoError(t, ecs.AddResource(w, p))
	e := newEngine(t, w, engine.Config{Workers: 1})
	var runs []uint64
	require.NoError(t, e.AddExclusive(engine.Update, exclusive{"x", func(_ *ecs.World, t engine.Time) error {
		runs = append(runs, t.Step)
		return nil
	}}, engine.WhileRes(func(p *paused) bool { return !p.On })))
	require.NoError(t, e.Build())
	require.NoError(t, e.Tick())
	assert.True(t, lastTimings(e).Systems[0].Skipped)
	p.On = false
	require.NoError(t, e.Tick())
	assert.False(t, lastTimings(e).Systems[0].Skipped)
	assert.Equal(t, []uint64{2}, runs)
	assert.Contains(t, e.Explain().String(), "runs if WhileRes[engine_test.paused];")
}

// A run condition that panics counts as false, fails the step with
// WEFT-G015, and the engine stays usable.
func TestConditionPanics(t *testing.T) {
	e := newEngine(t, world(t, 4), engine.Config{Workers: 2})
	var sched, merged []uint64
	require.NoError(t, e.Add(engine.Update, counting("a", noop, &sched, &merged), engine.RunIf(func(f *engine.Frame) bool {
		if f.Time().Step == 1 {
			panic("boom")
		}
		return true
	})))
	require.NoError(t, e.Build())
	err := e.Tick()
	require.ErrorIs(t, err, engine.ErrCondition)
	assert.Contains(t, err.Error(), `system "a": run condition RunIf panicked in step 1`)
	var pe *engine.Panic
	assert.ErrorAs(t, err, &pe)
	require.NoError(t, e.Tick())
	assert.Equal(t, []uint64{2}, sched)
}

// Options given wrongly, and a WhileRes of a resource the world lacks, are
// refused with their codes.
func TestConditionErrors(t *testing.T) {
	e := newEngine(t, world(t, 1), engine.Config{Serial: true})
	err := e.Add(engine.Update, mover("a", true, noop), engine.EveryN(0))
	assert.ErrorIs(t, err, engine.ErrBadConfig)
	assert.Contains(t, err.Error(), "EveryN(0): n must be >= 1")
	assert.ErrorIs(t, e.Add(engine.Update, mover("b", true, noop), engine.RunIf(nil)), engine.ErrBadConfig)
	assert.ErrorIs(t, e.Add(engine.Update, mover("c", true, noop), engine.InStage(engine.Update)), engine.ErrBadConfig)
	assert.ErrorIs(t, e.Build(), engine.ErrBadConfig)

	e = newEngine(t, world(t, 1), engine.Config{Serial: true})
	require.NoError(t, e.Add(engine.Update, mover("a", true, noop), engine.WhileRes(func(*paused) bool { return true })))
	err = e.Build()
	assert.ErrorIs(t, err, engine.ErrCondition)
	assert.Contains(t, err.Error(), `system "a": run condition WhileRes[engine_test.paused] cannot hold`)
}
