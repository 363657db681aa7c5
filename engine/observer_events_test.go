package engine_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
)

// pingLog is an observer of ping events that logs each one and, for the
// first ping of a row, spawns an entity with Mark{row}.
func pingLog(name string, log *[]ping) *watcher {
	var mark ecs.Component[Mark]
	return &watcher{name: name, build: func(b *engine.ObserverBuilder) error {
		mark = ecs.NewComponent[Mark](b.World())
		ecs.ObserveEvent[ping](b.Decl())
		return nil
	}, observe: func(ev ecs.Observed) error {
		p, ok := ecs.EventOf[ping](ev)
		if !ok {
			return fmt.Errorf("not a ping: %v", ev)
		}
		*log = append(*log, p)
		if p.Row >= 0 && p.Seq == 0 {
			mark.Add(ev.Commands, ev.Commands.Spawn(), Mark{p.Row})
		}
		return nil
	}}
}

// eventScene runs 4 steps of three writers, two in Update and one in
// PostUpdate behind an exclusive system (another segment), with an event
// observer; it checks that the observer saw each step's events once, in
// the documented order, and returns the world's hash.
func eventScene(t *testing.T, workers, batch int) uint64 {
	const rows = 300
	w := world(t, rows)
	e := newEngine(t, w, engine.Config{Workers: workers, Serial: workers == 0, Batch: batch})
	var log []ping
	require.NoError(t, e.Add(engine.Update, emitter("b", 2)))
	require.NoError(t, e.Add(engine.PostUpdate, emitter("z", 3)))
	require.NoError(t, e.Add(engine.Update, emitter("a", 1)))
	require.NoError(t, e.AddExclusive(engine.PostUpdate, exclusive{"x", func(*ecs.World, engine.Time) error { return nil }}))
	require.NoError(t, e.AddObserver(pingLog("log", &log)))
	require.NoError(t, e.Build())
	marks := ecs.NewComponent[Mark](w)
	for step := uint64(1); step <= 4; step++ {
		log = log[:0]
		require.NoError(t, e.Tick())
		exp := want("b", 2, rows, step)
		exp = append(exp, want("a", 1, rows, step)...)
		exp = append(exp, want("z", 3, rows, step)...)
		require.Equal(t, exp, log, "W%d batch %d step %d", workers, batch, step)
		require.Equal(t, len(exp), e.LastRecord().Observed, "the step record counts the observer's calls")
		require.Positive(t, w.Count(marks), "the observer's spawns play in the same step")
	}
	sum, err := w.Hash()
	require.NoError(t, err)
	return sum
}

// An event observer is called once per event, in the stream's order,
// writer by writer in built order and segment by segment; its commands
// play in the same step; the same on every worker count and batch size
// (0: adaptive) as on the serial executor.
func TestEventObserverOrder(t *testing.T) {
	want := eventScene(t, 0, 256)
	for _, workers := range []int{0, 1, 2, 4} {
		for _, batch := range []int{1, 64, 0} {
			assert.Equal(t, want, eventScene(t, workers, batch), "workers %d, batch %d", workers, batch)
		}
	}
}

// An event observer's access is checked like a system's, its failure
// names it, and what is not for observers is refused: emitting, Apply
// from the call, ObserveEvent on a system, Observe with OnEvent.
func TestEventObserverMisuse(t *testing.T) {
	e := newEngine(t, world(t, 3), engine.Config{Serial: true})
	require.NoError(t, e.Add(engine.Update, emitter("w", 1)))
	var other ecs.LookupReader[pos]
	w := e.World()
	require.NoError(t, e.AddObserver(&watcher{name: "sneaky", build: func(b *engine.ObserverBuilder) error {
		ecs.ObserveEvent[ping](b.Decl())
		return nil
	}, observe: func(ev ecs.Observed) error {
		if _, err := w.Apply(w.NewCommands()); err == nil {
			return fmt.Errorf("Apply from an observer was not refused")
		}
		other.Get(ecs.Entity{})
		return nil
	}}))
	require.NoError(t, e.Add(engine.Update, &toy{name: "owner", build: func(b *engine.Builder) error {
		other = ecs.ReadLookup[pos](b.Decl())
		return nil
	}, sched: func(*engine.Frame) error { return nil }}))
	require.NoError(t, e.Build())
	err := e.Tick()
	require.ErrorIs(t, err, ecs.ErrObserver)
	assert.ErrorIs(t, err, ecs.ErrUndeclared)
	assert.Contains(t, err.Error(), `observer "sneaky" failed on an event engine_test.ping`)
	assert.NotContains(t, err.Error(), "was not refused")

	e2 := newEngine(t, world(t, 1), engine.Config{Serial: true})
	require.NoError(t, e2.AddObserver(&watcher{name: "loud", build: func(b *engine.ObserverBuilder) error {
		ecs.Emit[ping](b.Decl())
		ecs.ReadEvents[ping](b.Decl())
		ecs.Observe[ping](b.Decl(), ecs.OnEvent)
		return nil
	}}))
	err = e2.Build()
	require.ErrorIs(t, err, ecs.ErrBadArgument)
	assert.Contains(t, err.Error(), `ecs.Emit[engine_test.ping] on observer "loud": an observer does not emit`)
	assert.Contains(t, err.Error(), `observe events with ecs.ObserveEvent[engine_test.ping](d)`)
	assert.Contains(t, err.Error(), `ecs.ReadEvents[engine_test.ping] on observer "loud": an observer is called once per event`)

	e3 := newEngine(t, world(t, 1), engine.Config{Serial: true})
	require.NoError(t, e3.Add(engine.Update, &toy{name: "sys", build: func(b *engine.Builder) error {
		ecs.ObserveEvent[ping](b.Decl())
		return nil
	}, sched: func(*engine.Frame) error { return nil }}))
	err = e3.Build()
	require.ErrorIs(t, err, ecs.ErrBadArgument)
	assert.Contains(t, err.Error(), `ecs.ObserveEvent[engine_test.ping] on the Decl of system "sys"`)
}

// EventOf answers only for an event of its type.
func TestEventOf(t *testing.T) {
	_, ok := ecs.EventOf[ping](ecs.Observed{Trigger: ecs.OnEvent})
	assert.False(t, ok)
	_, ok = ecs.EventOf[ping](ecs.Observed{Trigger: ecs.OnAdd})
	assert.False(t, ok)
}

// A step whose events an observer sees allocates nothing once the
// buffers have grown.
func TestEventObserverSteadyState(t *testing.T) {
	if raceOn {
		t.Skip("the race detector allocates")
	}
	e := newEngine(t, world(t, 500), engine.Config{Workers: 1, Batch: 64})
	require.NoError(t, e.Add(engine.Update, emitter("w", 1)))
	n := 0
	require.NoError(t, e.AddObserver(&watcher{name: "count", build: func(b *engine.ObserverBuilder) error {
		ecs.ObserveEvent[ping](b.Decl())
		return nil
	}, observe: func(ev ecs.Observed) error {
		p, _ := ecs.EventOf[ping](ev)
		n += p.Seq + 1
		return nil
	}}))
	require.NoError(t, e.Build())
	for range 30 {
		require.NoError(t, e.Tick())
	}
	assert.Positive(t, n)
	assert.Zero(t, testing.AllocsPerRun(20, func() { _ = e.Tick() }))
}

// Explain lists the observers in the order added, each with what it
// observes and its declared access, in the systems' format.
func TestObserverExplain(t *testing.T) {
	_, eng, _ := fleetWith(t, engine.Config{Serial: true}, 4)
	x := eng.Explain()
	require.Len(t, x.Observers, 2)
	assert.Equal(t, []string{"OnDespawn Hull"}, x.Observers[0].Observes)
	assert.Equal(t, "observer", x.Observers[1].Stage)
	text := x.String()
	assert.Contains(t, text, "observers (at playback, in this order for one change or event):\n"+
		"  1. salvage [observer commands] observes OnDespawn Hull; writes resource Kills; reads Hull; looks up Hull;\n"+
		"  2. logger [observer commands] observes OnAdd Mark, OnSet Mark, OnRemove Mark, OnDespawn Mark; reads Mark; looks up Mark;\n"+
		"ambiguities: none\n")

	e := newEngine(t, world(t, 1), engine.Config{Serial: true})
	require.NoError(t, e.Add(engine.Update, emitter("w", 1)))
	require.NoError(t, e.AddObserver(pingLog("pings", nil)))
	require.NoError(t, e.Build())
	assert.Contains(t, e.Explain().String(), "  1. pings [observer commands] observes OnEvent ping;\n")
}

// Build refuses an observer that declares an observation twice (each
// would be one more call per change or event) and one of an event type
// that no system emits (nothing would call it), each a WEFT-G002 naming
// the observer over a WEFT-E007; an emitter of any stage, added before
// or after the observer, is known when the observer is checked.
func TestEventObserverBuildRefusals(t *testing.T) {
	observer := func(name string, declare func(d *ecs.Decl)) *watcher {
		return &watcher{name: name, build: func(b *engine.ObserverBuilder) error {
			declare(b.Decl())
			return nil
		}, observe: func(ecs.Observed) error { return nil }}
	}
	e := newEngine(t, world(t, 3), engine.Config{Serial: true})
	require.NoError(t, e.Add(engine.Update, emitter("w", 1)))
	require.NoError(t, e.AddObserver(observer("twice", func(d *ecs.Decl) {
		ecs.ObserveEvent[ping](d)
		ecs.ObserveEvent[ping](d)
		ecs.Observe[Mark](d, ecs.OnDespawn)
		ecs.Observe[Mark](d, ecs.OnDespawn)
	})))
	err := e.Build()
	require.ErrorIs(t, err, engine.ErrBuild)
	require.ErrorIs(t, err, ecs.ErrBadArgument)
	assert.Contains(t, err.Error(), `ecs.ObserveEvent[engine_test.ping] of observer "twice" is already declared`)
	assert.Contains(t, err.Error(), `ecs.Observe[engine_test.Mark](OnDespawn) of observer "twice" is already declared`)
	var ee *engine.Error
	require.ErrorAs(t, err, &ee)
	assert.Equal(t, "twice", ee.System)

	e = newEngine(t, world(t, 3), engine.Config{Serial: true})
	require.NoError(t, e.Add(engine.Update, emitter("w", 1)))
	require.NoError(t, e.AddObserver(observer("orphan", func(d *ecs.Decl) { ecs.ObserveEvent[Mark](d) })))
	err = e.Build()
	require.ErrorIs(t, err, engine.ErrBuild)
	require.ErrorIs(t, err, ecs.ErrBadArgument)
	assert.Contains(t, err.Error(), `observer "orphan" observes events engine_test.Mark, which no system emits, so nothing would call it for them; declare ecs.Emit[engine_test.Mark](b.Decl()) in the Build of the system that makes them`)

	e = newEngine(t, world(t, 3), engine.Config{Serial: true})
	require.NoError(t, e.AddObserver(observer("late", func(d *ecs.Decl) { ecs.ObserveEvent[ping](d) })))
	require.NoError(t, e.Add(engine.PostUpdate, emitter("w", 1)))
	require.NoError(t, e.Build())
}

type (
	evA struct{ N int }
	evB struct{ N int }
	evC struct{ N int }
)

// evSys is a system that declares events with declare, which returns
// what its Schedule emits, added to stage with opts.
type evSys struct {
	stage   engine.Stage
	name    string
	declare func(d *ecs.Decl) func()
	opts    []engine.Option
}

func emits[T any](v T) func(d *ecs.Decl) func() {
	return func(d *ecs.Decl) func() {
		em := ecs.Emit[T](d)
		return func() { em.EmitOwner(v) }
	}
}

func reads[T any](d *ecs.Decl) func() { ecs.ReadEvents[T](d); return func() {} }

// typeOrder adds the systems in order, with an observer of evA, evB and
// evC, runs one step and returns the event types in the order observed.
func typeOrder(t *testing.T, systems ...evSys) []string {
	e := newEngine(t, world(t, 1), engine.Config{Workers: 2})
	for _, s := range systems {
		var emit func()
		require.NoError(t, e.Add(s.stage, &toy{name: s.name, build: func(b *engine.Builder) error {
			emit = s.declare(b.Decl())
			return nil
		}, sched: func(*engine.Frame) error { emit(); return nil }}, s.opts...))
	}
	var got []string
	require.NoError(t, e.AddObserver(&watcher{name: "all", build: func(b *engine.ObserverBuilder) error {
		ecs.ObserveEvent[evC](b.Decl())
		ecs.ObserveEvent[evB](b.Decl())
		ecs.ObserveEvent[evA](b.Decl())
		return nil
	}, observe: func(ev ecs.Observed) error {
		got = append(got, strings.TrimPrefix(ev.Component, "engine_test."))
		return nil
	}}))
	require.NoError(t, e.Build())
	require.NoError(t, e.Tick())
	return got
}

// Event types are observed in the order the world first met them: the
// first declaration of each, as Build runs the systems' Builds (by
// stage, then in the order added, whatever Before/After say), then the
// observers'. The guide says so.
func TestEventTypeOrder(t *testing.T) {
	assert.Contains(t, strings.Join(strings.Fields(guideText(t)), " "), "The world meets a type at its first declaration (`ecs.Emit`, `ecs.ReadEvents` or `ecs.ObserveEvent`), in the order `Build` runs the Builds: the systems' by stage, within a stage in the order added (not the built order: `engine.Before` and `engine.After` do not change it), then the observers'.")
	assert.Equal(t, []string{"evB", "evA", "evC"}, typeOrder(t,
		evSys{engine.Update, "b", emits(evB{}), nil},
		evSys{engine.Update, "a", emits(evA{}), nil},
		evSys{engine.Update, "c", emits(evC{}), nil},
	), "in the order added")
	assert.Equal(t, []string{"evA", "evC", "evB"}, typeOrder(t,
		evSys{engine.PostUpdate, "b", emits(evB{}), nil},
		evSys{engine.Update, "a", emits(evA{}), nil},
		evSys{engine.Update, "c", emits(evC{}), []engine.Option{engine.Before("a")}},
	), "by stage, then in the order added, not built")
	assert.Equal(t, []string{"evC", "evA", "evB"}, typeOrder(t,
		evSys{engine.Update, "a", emits(evA{}), nil},
		evSys{engine.PreUpdate, "r", reads[evC], nil},
		evSys{engine.Update, "b", emits(evB{}), nil},
		evSys{engine.PostUpdate, "c", emits(evC{}), nil},
	), "a reader's declaration meets the type too")
}
