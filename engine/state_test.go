package engine_test

import (
	"bytes"
	"fmt"
	"runtime"
	"testing"
	"weak"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
)

// mode is a state of the tests.
type mode uint8

const (
	title mode = iota
	playing
	pausing
)

func (m mode) String() string { return [...]string{"title", "playing", "pausing"}[m] }

// logging is an exclusive that appends its name and step to log.
func logging(log *[]string, name string) exclusive {
	return exclusive{name, func(_ *ecs.World, t engine.Time) error {
		*log = append(*log, fmt.Sprintf("%d %s", t.Step, name))
		return nil
	}}
}

// spawnScoped is an exclusive that spawns n entities with pos, scoped to v.
func spawnScoped(name string, n int, v mode) exclusive {
	return exclusive{name, func(w *ecs.World, t engine.Time) error {
		pc, sc := ecs.NewComponent[pos](w), ecs.NewComponent[engine.Scoped[mode]](w)
		b := w.NewCommands()
		for i := range n {
			e := b.Spawn()
			pc.Add(b, e, pos{float64(t.Step) + float64(i)/8})
			sc.Add(b, e, engine.Scoped[mode]{In: v})
		}
		_, err := w.Apply(b)
		return err
	}}
}

// A transition runs OnExit, despawns the scoped entities, then
// OnTransition and OnEnter, at the start of the step; InState sees the
// new value in that step; the first step enters the initial value.
func TestStateTransitions(t *testing.T) {
	w := world(t, 4)
	e := newEngine(t, w, engine.Config{Workers: 2})
	require.NoError(t, engine.AddState(e, title, playing, pausing))
	var log []string
	require.NoError(t, engine.OnEnter(e, title, logging(&log, "enter title")))
	require.NoError(t, engine.OnExit(e, title, logging(&log, "exit title")))
	require.NoError(t, engine.OnTransition(e, title, playing, logging(&log, "title→playing")))
	require.NoError(t, engine.OnEnter(e, playing, spawnScoped("spawn", 3, playing)))
	require.NoError(t, engine.OnEnter(e, playing, logging(&log, "enter playing")))
	require.NoError(t, engine.OnExit(e, playing, exclusive{"count", func(w *ecs.World, t engine.Time) error {
		log = append(log, fmt.Sprintf("%d exit playing with %d", t.Step, len(positions(w)))) // still sees the scoped ones
		return nil
	}}))
	var ran []string
	require.NoError(t, e.Add(engine.Update, mover("play", true, func([]pos) {}), engine.InState(playing)))
	require.NoError(t, e.AddExclusive(engine.Update, exclusive{"seen", func(w *ecs.World, t engine.Time) error {
		s, err := engine.StateOf[mode](w)
		ran = append(ran, fmt.Sprintf("%d %v", t.Step, s.Current()))
		return err
	}}))
	require.NoError(t, e.Build())

	require.NoError(t, e.Tick())
	st, err := engine.StateOf[mode](w)
	require.NoError(t, err)
	require.NoError(t, st.Set(playing))
	next, ok := st.Next()
	assert.True(t, ok)
	assert.Equal(t, playing, next)
	require.NoError(t, e.Tick())
	assert.False(t, lastTimings(e).Systems[0].Skipped)
	assert.Len(t, positions(w), 7)
	require.NoError(t, st.Set(pausing))
	require.NoError(t, e.Tick())
	assert.True(t, lastTimings(e).Systems[0].Skipped)
	assert.Len(t, positions(w), 4, "the scoped entities went with playing")
	require.NoError(t, st.Set(pausing)) // the current value: no transition
	require.NoError(t, e.Tick())

	assert.Equal(t, []string{"1 enter title", "2 exit title", "2 title→playing", "2 enter playing", "3 exit playing with 7"}, log)
	assert.Equal(t, []string{"1 title", "2 playing", "3 pausing", "4 pausing"}, ran)
}

// positions lists every pos in w.
func positions(w *ecs.World) []ecs.Entity {
	var out []ecs.Entity
	all, _ := w.Entities(ecs.NewComponent[pos](w)) // between steps: never refused
	for e := range all {
		out = append(out, e)
	}
	return out
}

// stateScene runs 40 steps in which a system's Merge requests
// transitions, entering playing spawns scoped entities, and systems run
// in one state or the other; it hashes every pos.
func stateScene(t *testing.T, workers, batch int) uint64 {
	w := world(t, 100)
	e := newEngine(t, w, engine.Config{Workers: workers, Serial: workers == 0, Batch: batch})
	require.NoError(t, engine.AddState(e, title, playing, pausing))
	require.NoError(t, engine.OnEnter(e, playing, spawnScoped("spawn", 20, playing)))
	require.NoError(t, engine.OnEnter(e, pausing, spawnScoped("pause marks", 3, pausing)))
	scale := func(k float64) func(p []pos) {
		return func(p []pos) {
			for i := range p {
				p[i].X = p[i].X*k + 1
			}
		}
	}
	require.NoError(t, e.Add(engine.Update, mover("a", true, scale(1.5)), engine.InState(playing)))
	require.NoError(t, e.Add(engine.Update, mover("b", true, scale(0.5)), engine.After("a"), engine.InState(pausing)))
	var st ecs.ResWriter[engine.State[mode]]
	director := &toy{name: "director",
		build: func(b *engine.Builder) error { st = ecs.WriteRes[engine.State[mode]](b.Decl()); return nil },
		sched: func(*engine.Frame) error { return nil }}
	require.NoError(t, e.Add(engine.PostUpdate, merging{&toy{name: director.name, build: director.build, sched: director.sched,
		merge: func(f *engine.Frame) error {
			switch s := f.Time().Step; {
			case s%11 == 0:
				return st.Get().Set(title)
			case s%7 == 3:
				return st.Get().Set(playing)
			case s%7 == 5:
				return st.Get().Set(pausing)
			}
			return nil
		}}}))
	require.NoError(t, e.Build())
	for range 40 {
		require.NoError(t, e.Tick())
	}
	return hashPos(w)
}

// States give the same world for every worker count and batch size
// (0: adaptive) as the serial executor.
func TestStateDeterminism(t *testing.T) {
	want := stateScene(t, 0, 256)
	for _, workers := range []int{0, 1, 2, 4} {
		for _, batch := range []int{1, 64, 0} {
			assert.Equal(t, want, stateScene(t, workers, batch), "workers %d, batch %d", workers, batch)
		}
	}
	assert.NotEqual(t, want, hashPos(world(t, 100)))
}

// Misuse of states is refused with WEFT-G016, WEFT-G017 and WEFT-G007,
// and a refused request leaves the engine stepping.
func TestStateErrors(t *testing.T) {
	e := newEngine(t, world(t, 1), engine.Config{Serial: true})
	nop := exclusive{"nop", func(*ecs.World, engine.Time) error { return nil }}
	err := engine.OnEnter(e, playing, nop)
	assert.ErrorIs(t, err, engine.ErrState)
	assert.Contains(t, err.Error(), "state engine_test.mode is not registered; call engine.AddState first")
	require.Error(t, e.Build())

	e = newEngine(t, world(t, 1), engine.Config{Serial: true})
	require.NoError(t, engine.AddState(e, title, playing))
	assert.ErrorIs(t, engine.AddState(e, title), engine.ErrState)
	err = engine.OnTransition(e, title, pausing, nop)
	assert.ErrorIs(t, err, engine.ErrState)
	assert.Contains(t, err.Error(), "pausing is not a value of state engine_test.mode (registered: [title playing])")
	assert.ErrorIs(t, engine.OnExit(e, title, nil), engine.ErrBadConfig)

	e = newEngine(t, world(t, 1), engine.Config{Serial: true})
	require.NoError(t, e.Add(engine.Update, mover("a", true, noop), engine.InState(playing)))
	err = e.Build()
	assert.ErrorIs(t, err, engine.ErrState)
	assert.Contains(t, err.Error(), `system "a": run condition InState[engine_test.mode](playing) cannot hold`)
	_, err = engine.StateOf[mode](e.World())
	assert.ErrorIs(t, err, engine.ErrState)

	w := world(t, 1)
	e = newEngine(t, w, engine.Config{Serial: true})
	require.NoError(t, engine.AddState(e, title, playing))
	require.NoError(t, e.Add(engine.Update, mover("a", true, noop), engine.InState(pausing)))
	assert.ErrorIs(t, e.Build(), engine.ErrState)

	e = newEngine(t, world(t, 2), engine.Config{Serial: true})
	require.NoError(t, engine.AddState(e, title, playing))
	require.NoError(t, e.Build())
	assert.ErrorIs(t, engine.AddState(e, 1.5), engine.ErrOrder)
	assert.ErrorIs(t, engine.OnEnter(e, title, nop), engine.ErrOrder)
	st, err := engine.StateOf[mode](e.World())
	require.NoError(t, err)
	require.NoError(t, st.Set(playing))
	require.NoError(t, st.Set(playing))
	err = st.Set(title)
	assert.ErrorIs(t, err, engine.ErrStateConflict)
	assert.Contains(t, err.Error(), "a transition to playing is already requested")
	require.NoError(t, e.Tick())
	assert.Equal(t, playing, st.Current())
	err = st.Set(pausing) // refused at the call: the request stays empty
	assert.ErrorIs(t, err, engine.ErrState)
	assert.Contains(t, err.Error(), "pausing is not a value of state engine_test.mode")
	_, pending := st.Next()
	assert.False(t, pending)
	require.NoError(t, e.Tick())
	assert.Equal(t, playing, st.Current())
}

// builtState is a built engine with state mode (title, playing) and its
// resource.
func builtState(t *testing.T) (*engine.Engine, *engine.State[mode]) {
	e := newEngine(t, world(t, 1), engine.Config{Serial: true})
	require.NoError(t, engine.AddState(e, title, playing))
	require.NoError(t, e.Build())
	st, err := engine.StateOf[mode](e.World())
	require.NoError(t, err)
	return e, st
}

// Set of the current value requests nothing, so a later request for
// another value in the same step stands.
func TestStateSetCurrentRequestsNothing(t *testing.T) {
	e, st := builtState(t)
	require.NoError(t, e.Tick())
	require.NoError(t, st.Set(title))
	_, pending := st.Next()
	assert.False(t, pending, "Set of the current value is no request")
	require.NoError(t, st.Set(playing))
	require.NoError(t, e.Tick())
	assert.Equal(t, playing, st.Current())
	require.NoError(t, st.Set(playing)) // current: nothing requested
	require.NoError(t, st.Set(title))
	err := st.Set(playing)
	assert.ErrorIs(t, err, engine.ErrStateConflict, "once leaving is requested, staying is a second request")
}

// Set on a copy of the state (what a ReadRes token's Get returns) would
// change nothing, so it is refused; so is a value AddState lists twice.
func TestStateSetOnACopy(t *testing.T) {
	e, st := builtState(t)
	cp := *st
	err := cp.Set(playing)
	assert.ErrorIs(t, err, engine.ErrState)
	assert.Contains(t, err.Error(), "on a copy of the state")
	var mine engine.State[mode]
	assert.ErrorIs(t, mine.Set(playing), engine.ErrState)
	require.NoError(t, e.Tick())
	assert.Equal(t, title, st.Current())

	e = newEngine(t, world(t, 1), engine.Config{Serial: true})
	require.NoError(t, engine.AddState(e, title, title, playing), "the initial value may be among the others")
	e = newEngine(t, world(t, 1), engine.Config{Serial: true})
	err = engine.AddState(e, title, playing, playing)
	assert.ErrorIs(t, err, engine.ErrState)
	assert.Contains(t, err.Error(), "lists playing twice")
	assert.ErrorIs(t, e.Build(), engine.ErrState)
}

type level uint8

// An entity scoped to a value AddState did not list, or to a state it
// did not register, would never be despawned: refused with WEFT-G016 (at
// the transition that finds it, and at Build for the type).
func TestStateScopedStray(t *testing.T) {
	w := world(t, 1)
	e := newEngine(t, w, engine.Config{Serial: true})
	require.NoError(t, engine.AddState(e, title, playing))
	require.NoError(t, e.Build())
	b := w.NewCommands()
	scope := ecs.NewComponent[engine.Scoped[mode]](w)
	ok, stray := b.Spawn(), b.Spawn()
	scope.Add(b, ok, engine.Scoped[mode]{In: title})
	scope.Add(b, stray, engine.Scoped[mode]{In: pausing})
	rep, err := w.Apply(b)
	require.NoError(t, err)
	require.NoError(t, rep.Err())
	st, err := engine.StateOf[mode](w)
	require.NoError(t, err)
	require.NoError(t, st.Set(playing))
	err = e.Tick()
	assert.ErrorIs(t, err, engine.ErrState)
	assert.Contains(t, err.Error(), "is scoped to pausing, which is not a value of state engine_test.mode")
	assert.Equal(t, playing, st.Current(), "the transition still happens")
	assert.Equal(t, 1, w.Count(scope), "the entity scoped to title went; the stray stays")

	w = world(t, 1)
	e = newEngine(t, w, engine.Config{Serial: true})
	require.NoError(t, engine.AddState(e, title, playing))
	ecs.NewComponent[engine.Scoped[level]](w)
	err = e.Build()
	assert.ErrorIs(t, err, engine.ErrState)
	assert.Contains(t, err.Error(), "engine_test.level] is used, but its state is not registered")
}

// A state is a resource: a snapshot and a save keep its value and its
// request, and a restore does not run its systems again.
func TestStateSnapshotAndSave(t *testing.T) {
	w := world(t, 2)
	e := newEngine(t, w, engine.Config{Workers: 1})
	require.NoError(t, engine.AddState(e, title, playing, pausing))
	var log []string
	require.NoError(t, engine.OnEnter(e, playing, logging(&log, "enter playing")))
	require.NoError(t, e.Build())
	st, err := engine.StateOf[mode](w)
	require.NoError(t, err)
	require.NoError(t, st.Set(playing))
	var snap ecs.Snapshot
	require.NoError(t, w.Snapshot(&snap))
	var saved bytes.Buffer
	require.NoError(t, w.Save(&saved))
	require.NoError(t, e.Tick())
	assert.Equal(t, playing, st.Current())

	require.NoError(t, w.Restore(&snap))
	assert.Equal(t, title, st.Current())
	require.NoError(t, e.Tick()) // the request was in the snapshot
	require.NoError(t, w.Load(&saved))
	assert.Equal(t, title, st.Current())
	next, ok := st.Next()
	assert.True(t, ok)
	assert.Equal(t, playing, next)
	assert.Equal(t, []string{"1 enter playing", "1 enter playing"}, log, "the restored clock runs step 1 again")
}

// A state's registration keeps no world alive: a world with a state whose
// engine closed is collected like any other.
func TestStateKeepsNoWorldAlive(t *testing.T) {
	gone := func() weak.Pointer[ecs.World] {
		w := world(t, 10)
		e, err := engine.New(w, engine.Config{Workers: 1})
		require.NoError(t, err)
		require.NoError(t, engine.AddState(e, title, playing))
		require.NoError(t, e.Build())
		require.NoError(t, e.Tick())
		st, err := engine.StateOf[mode](w)
		require.NoError(t, err)
		require.NoError(t, e.Close())
		assert.ErrorIs(t, st.Set(playing), engine.ErrState, "after Close the state takes no request")
		return weak.Make(w)
	}()
	for range 5 {
		runtime.GC()
	}
	assert.True(t, gone.Value() == nil, "the world is still reachable after its engine closed")
}
