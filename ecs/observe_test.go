package ecs

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A world driven by hand calls its observers in Apply: per command, in
// registration order; add and set after the value is written, remove and
// despawn before it goes; a spawn calls OnAdd of each component it has.
func TestObserversInApply(t *testing.T) {
	w := NewWorld(Options{})
	pc, hc := NewComponent[pos](w), NewComponent[health](w)
	var log []string
	hp := ReadLookup[health]
	for _, name := range []string{"first", "second"} {
		var look LookupReader[health]
		d := w.Observer(name, func(ev Observed) error {
			v, ok := look.Get(ev.Entity)
			log = append(log, fmt.Sprint(name, " ", ev.Trigger, " ", ev.Component, " ", v.HP, " ", ok))
			return nil
		})
		look = hp(d)
		for _, tr := range []Trigger{OnAdd, OnSet, OnRemove, OnDespawn} {
			Observe[health](d, tr)
		}
		require.NoError(t, d.Err())
	}
	b := w.NewCommands()
	e := b.Spawn()
	pc.Add(b, e, pos{})
	hc.Add(b, e, health{1})
	hc.Set(b, e, health{2})
	hc.Add(b, e, health{3}) // over one it has: a set
	hc.Remove(b, e)
	hc.Add(b, e, health{4})
	b.Despawn(e)
	_, err := w.Apply(b)
	require.NoError(t, err)
	var want []string
	for _, s := range []string{"OnAdd health 1 true", "OnSet health 2 true", "OnSet health 3 true", "OnRemove health 3 true", "OnAdd health 4 true", "OnDespawn health 4 true"} {
		want = append(want, "first "+s, "second "+s)
	}
	assert.Equal(t, want, log)
}

// Misuse inside an observer is refused, the playback goes on, and a
// panic is its error (ErrObserver), in a world without an engine.
func TestObserverMisuse(t *testing.T) {
	w := NewWorld(Options{})
	hc := NewComponent[health](w)
	sys := w.System("sys")
	assert.PanicsWithError(t, `ecs: WEFT-E007: ecs.Observe[ecs.health] on the Decl of system "sys": only an observer's Decl (World.Observer, engine Observer's Build) observes; a system reads changes with ecs.Changed and ecs.Added`,
		func() { Observe[health](sys, OnAdd) })
	var d *Decl
	calls := 0
	d = w.Observer("nested", func(ev Observed) error {
		calls++
		_, err := w.Apply(w.NewCommands())
		require.ErrorIs(t, err, ErrLocked)
		switch calls {
		case 1:
			d.Commands(0)
		case 2:
			panic(errors.New("bent"))
		}
		return nil
	})
	Observe[health](d, OnAdd)
	b := w.NewCommands()
	for range 3 {
		hc.Add(b, b.Spawn(), health{})
	}
	_, err := w.Apply(b)
	assert.ErrorIs(t, err, ErrObserver)
	assert.ErrorIs(t, err, ErrBadArgument)
	assert.Contains(t, err.Error(), "bent")
	assert.Equal(t, 3, calls)
	assert.Equal(t, 3, w.Count(hc))
	var ee *Error
	require.ErrorAs(t, err, &ee)
	assert.Equal(t, "nested", ee.System)
}

// An observer that observes nothing is refused by its Decl's Err, which
// the engine's Build reports: nothing would ever call it.
func TestObserverObservesNothing(t *testing.T) {
	w := NewWorld(Options{})
	d := w.Observer("deaf", func(Observed) error { return nil })
	ReadLookup[health](d)
	err := d.Err()
	require.ErrorIs(t, err, ErrBadArgument)
	assert.Contains(t, err.Error(), `observer "deaf" observes nothing`)
	assert.Contains(t, err.Error(), "ecs.Observe[T](b.Decl(), trigger) or ecs.ObserveEvent[T](b.Decl())")
	Observe[health](d, OnAdd)
	require.NoError(t, d.Err())
}

// An observer is called with an entity, not a chunk: the tokens used
// through a chunk (columns, a write lookup, on/off states) and queries
// are refused on its Decl, each saying what to use; lookups to read,
// resources, relations and its commands are its tools.
func TestObserverChunkTokensRefused(t *testing.T) {
	type score struct{ N int }
	w := NewWorld(Options{})
	require.NoError(t, AddResource(w, &score{}))
	for name, declare := range map[string]func(d *Decl){
		"Read":         func(d *Decl) { Read[pos](d) },
		"Write":        func(d *Decl) { Write[pos](d) },
		"WriteLookup":  func(d *Decl) { WriteLookup[pos](d) },
		"ReadEnabled":  func(d *Decl) { ReadEnabled[pos](d) },
		"WriteEnabled": func(d *Decl) { WriteEnabled[pos](d) },
		"query":        func(d *Decl) { NewQuery1(d, ReadRelation[ChildOf](d)) },
	} {
		d := w.Observer("o-"+name, func(Observed) error { return nil })
		Observe[health](d, OnAdd)
		declare(d)
		err := d.Err()
		require.ErrorIs(t, err, ErrBadArgument, name)
		assert.Contains(t, err.Error(), `observer "o-`+name+`"`, name)
	}
	d := w.Observer("fine", func(Observed) error { return nil })
	Observe[health](d, OnAdd)
	ReadLookup[pos](d)
	ReadRes[score](d)
	WriteRes[score](d)
	ReadRelation[ChildOf](d)
	WriteRelation[ChildOf](d)
	require.NoError(t, d.Err())
	d = w.Observer("writer", func(Observed) error { return nil })
	Observe[health](d, OnAdd)
	Write[pos](d)
	assert.EqualError(t, d.Err(), `ecs: WEFT-E007: Writer[pos] declared by observer "writer": an observer has no chunk to use it with; a write of a component from an observer is a command: record it in Observed.Commands (ecs.NewComponent[pos](b.World()).Set(ev.Commands, e, v)), and read it with ecs.ReadLookup[pos](d)`)
}

// Inspect and Matching read every component of the world, more than an
// observer declares: from an observer they are refused (ErrUndeclared,
// naming it), as ecs.Get is.
func TestObserverCannotInspect(t *testing.T) {
	w := NewWorld(Options{})
	hc := NewComponent[health](w)
	w.System("sys")
	var errs []error
	d := w.Observer("nosy", func(ev Observed) error {
		_, err := w.Inspect(ev.Entity)
		_, err2 := w.Matching("sys", nil)
		errs = append(errs, err, err2)
		return nil
	})
	Observe[health](d, OnAdd)
	require.NoError(t, d.Err())
	b := w.NewCommands()
	hc.Add(b, b.Spawn(), health{1})
	_, err := w.Apply(b)
	require.NoError(t, err)
	require.Len(t, errs, 2)
	for _, err := range errs {
		assert.ErrorIs(t, err, ErrUndeclared)
		assert.Contains(t, err.Error(), `observer "nosy" called World.`)
	}
	e := must(w.Entities(hc))
	for e := range e {
		_, err := w.Inspect(e) // between playbacks: fine
		require.NoError(t, err)
	}
}

// Declaring the same observation twice is refused on the Decl (each
// would be one more call per change or event), and the observer is
// still called once.
func TestObserveTwiceRefused(t *testing.T) {
	type shot struct{ N int }
	w := NewWorld(Options{})
	hc := NewComponent[health](w)
	Emit[shot](w.System("guns"))
	calls := 0
	d := w.Observer("twice", func(Observed) error { calls++; return nil })
	Observe[health](d, OnDespawn)
	Observe[health](d, OnDespawn)
	Observe[health](d, OnSet)
	Observe[health](d, OnSet)
	ObserveEvent[shot](d)
	ObserveEvent[shot](d)
	err := d.Err()
	require.ErrorIs(t, err, ErrBadArgument)
	assert.Contains(t, err.Error(), `ecs.Observe[ecs.health](OnDespawn) of observer "twice" is already declared: each declaration is one more call per change, so declare each component and trigger once`)
	assert.Contains(t, err.Error(), `ecs.Observe[ecs.health](OnSet) of observer "twice" is already declared`)
	assert.Contains(t, err.Error(), `ecs.ObserveEvent[ecs.shot] of observer "twice" is already declared: each declaration is one more call per event, so declare each event type once`)
	b := w.NewCommands()
	e := b.Spawn()
	hc.Add(b, e, health{1})
	hc.Set(b, e, health{2})
	b.Despawn(e)
	_, err = w.Apply(b)
	require.NoError(t, err)
	assert.Equal(t, 2, calls, "one OnSet and one OnDespawn")
}

// An observer of an event type that no system emits would never be
// called: its Decl's Err refuses it, once every system has declared
// (an observer's Emit, itself refused, does not count).
func TestObserveEventNobodyEmits(t *testing.T) {
	type alpha struct{ N int }
	w := NewWorld(Options{})
	d := w.Observer("orphan", func(Observed) error { return nil })
	ObserveEvent[alpha](d)
	err := d.Err()
	require.ErrorIs(t, err, ErrBadArgument)
	assert.EqualError(t, err, `ecs: WEFT-E007: observer "orphan" observes events ecs.alpha, which no system emits, so nothing would call it for them; declare ecs.Emit[ecs.alpha](b.Decl()) in the Build of the system that makes them, or drop the ecs.ObserveEvent[ecs.alpha]`)
	Emit[alpha](d)
	assert.Contains(t, d.Err().Error(), `observer "orphan" observes events ecs.alpha, which no system emits`)
	Emit[alpha](w.System("maker"))
	assert.NotContains(t, d.Err().Error(), "which no system emits")
}

// An observed event type without a name (a struct literal) is named by
// its literal in what the observer observes, and in the stream's key.
func TestObserveEventUnnamedType(t *testing.T) {
	w := NewWorld(Options{})
	Emit[struct{ N int }](w.System("maker"))
	d := w.Observer("plain", func(Observed) error { return nil })
	ObserveEvent[struct{ N int }](d)
	require.NoError(t, d.Err())
	assert.Equal(t, []string{"OnEvent struct { N int }"}, worldSeam{w}.System(d).Observes)
	assert.Contains(t, w.Registry().Name(streamOf[struct{ N int }](w).key), "events struct { N int }")
}
