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
// panic is its error (CodeObserver), in a world without an engine.
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
