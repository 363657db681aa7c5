package engine_test

import (
	"errors"
	"fmt"
	"hash/fnv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
)

// watcher is an observer made of functions, for tests.
type watcher struct {
	name    string
	build   func(b *engine.ObserverBuilder) error
	observe func(ev ecs.Observed) error
}

func (o *watcher) Name() string                          { return o.name }
func (o *watcher) Build(b *engine.ObserverBuilder) error { return o.build(b) }
func (o *watcher) Observe(ev ecs.Observed) error         { return o.observe(ev) }

// Mark is added, set and removed by commands from chunk jobs.
type Mark struct{ N int }

// observedScene runs 12 steps of Hits and Salvage over 2,000 ships, with
// a system that adds, sets and removes Mark from its chunk jobs and an
// observer of every trigger on Mark that logs its calls; it hashes the
// log and the world.
func observedScene(t *testing.T, workers, batch int) uint64 {
	w, eng, kills := fleetWith(t, engine.Config{Workers: workers, Serial: workers == 0, Batch: batch}, 2000)
	h := fnv.New64a()
	for range 12 {
		require.NoError(t, eng.Tick())
		fmt.Fprint(h, kills.N)
	}
	for _, l := range logOf(eng) {
		fmt.Fprint(h, l)
	}
	sum, err := w.Hash()
	require.NoError(t, err)
	fmt.Fprint(h, sum)
	return h.Sum64()
}

var logs = map[*engine.Engine]*[]string{}

func logOf(e *engine.Engine) []string { return *logs[e] }

// fleetWith is fleet with the marking system and the logging observer.
func fleetWith(t *testing.T, cfg engine.Config, n int) (*ecs.World, *engine.Engine, *Kills) {
	w := ecs.NewWorld(ecs.Options{})
	kills := &Kills{}
	require.NoError(t, ecs.AddResource(w, kills))
	hull, mark := ecs.NewComponent[Hull](w), ecs.NewComponent[Mark](w)
	setup := w.NewCommands()
	for i := range n {
		hull.Add(setup, setup.Spawn(), Hull{X: i, HP: 1 + i*7%23})
	}
	_, err := w.Apply(setup)
	require.NoError(t, err)
	eng := newEngine(t, w, cfg)
	var pass *engine.Pass
	var hr ecs.Reader[Hull]
	marker := &toy{name: "marker", build: func(b *engine.Builder) error {
		d := b.Decl()
		hr = ecs.Read[Hull](d)
		b.Commands()
		pass = b.Chunks("mark", ecs.NewQuery1(d, hr), func(c *ecs.Chunk) {
			for i, e := range c.Entities() {
				switch hp := hr.Column(c)[i].HP; hp % 4 {
				case 0:
					mark.Add(c.Commands(), e, Mark{hp})
				case 1:
					if hp > 1 { // at 1 it goes with its Mark: OnDespawn
						mark.Remove(c.Commands(), e) // a problem when it has none: counted, not observed
					}
				case 2:
					mark.Set(c.Commands(), e, Mark{-hp})
				}
			}
		})
		return nil
	}, sched: func(f *engine.Frame) error { return f.Run(pass) }}
	log := &[]string{}
	logs[eng] = log
	var look ecs.LookupReader[Mark]
	logger := &watcher{name: "logger", build: func(b *engine.ObserverBuilder) error {
		d := b.Decl()
		look = ecs.ReadLookup[Mark](d)
		for _, tr := range []ecs.Trigger{ecs.OnAdd, ecs.OnSet, ecs.OnRemove, ecs.OnDespawn} {
			ecs.Observe[Mark](d, tr)
		}
		return nil
	}, observe: func(ev ecs.Observed) error {
		m, ok := look.Get(ev.Entity)
		*log = append(*log, fmt.Sprint(ev.Trigger, ev.Entity, m, ok))
		return nil
	}}
	require.NoError(t, eng.Add(engine.Update, &Hits{}))
	require.NoError(t, eng.Add(engine.Update, marker, engine.Before("hits")))
	require.NoError(t, eng.AddObserver(&Salvage{}))
	require.NoError(t, eng.AddObserver(logger))
	require.NoError(t, eng.Build())
	t.Cleanup(func() { delete(logs, eng) })
	return w, eng, kills
}

// Observers run at playback in one order, so the log and the world are
// the same for every worker count and batch size (0: adaptive) as on
// the serial executor.
func TestObserverDeterminism(t *testing.T) {
	want := observedScene(t, 0, 256)
	for _, workers := range []int{0, 1, 2, 4} {
		for _, batch := range []int{1, 64, 0} {
			assert.Equal(t, want, observedScene(t, workers, batch), "workers %d, batch %d", workers, batch)
		}
	}
}

// Each trigger is called when its command applies: add and set after
// the value is written, remove and despawn while the value is still
// there; a spawn's wreck (Salvage's commands) plays in the same step.
func TestObserverTriggers(t *testing.T) {
	w, eng, kills := fleetWith(t, engine.Config{Serial: true}, 8)
	for range 24 {
		require.NoError(t, eng.Tick())
	}
	log := logOf(eng)
	require.NotEmpty(t, log)
	seen := map[string]bool{}
	for _, l := range log {
		var tr string
		fmt.Sscan(l, &tr)
		seen[tr] = true
		assert.Contains(t, l, "true", "the value is there during the call: %s", l)
	}
	assert.True(t, seen["OnAdd"] && seen["OnSet"] && seen["OnRemove"] && seen["OnDespawn"], "log: %v", log)
	wrecks := 0
	seq, err := w.Entities(ecs.NewComponent[Wreck](w))
	require.NoError(t, err)
	for range seq {
		wrecks++
	}
	assert.Equal(t, kills.N, wrecks, "every kill's wreck was spawned in the step of the kill")
	assert.Positive(t, kills.N)
}

// An observer that uses a token it did not declare, or reads with
// ecs.Get, gets WEFT-E001 naming it, inside WEFT-E015; a panicking or
// failing observer is WEFT-E015 naming it; the step completes and the
// next one runs.
func TestObserverFailures(t *testing.T) {
	w := world(t, 4)
	eng := newEngine(t, w, engine.Config{Workers: 2})
	var other ecs.LookupReader[pos]
	require.NoError(t, eng.Add(engine.Update, &toy{name: "other", build: func(b *engine.Builder) error {
		other = ecs.ReadLookup[pos](b.Decl())
		return nil
	}, sched: func(*engine.Frame) error { return nil }}))
	vc := ecs.NewComponent[vel](w)
	calls := 0
	bad := func(name string, fn func(ev ecs.Observed) error) *watcher {
		return &watcher{name: name, build: func(b *engine.ObserverBuilder) error {
			ecs.Observe[vel](b.Decl(), ecs.OnSet)
			return nil
		}, observe: func(ev ecs.Observed) error { calls++; return fn(ev) }}
	}
	require.NoError(t, eng.AddObserver(bad("borrower", func(ev ecs.Observed) error { other.Get(ev.Entity); return nil })))
	require.NoError(t, eng.AddObserver(bad("getter", func(ev ecs.Observed) error { _, err := ecs.Get[pos](w, ev.Entity); return err })))
	require.NoError(t, eng.AddObserver(bad("panicker", func(ecs.Observed) error { panic("boom") })))
	require.NoError(t, eng.AddObserver(bad("failer", func(ecs.Observed) error { return errors.New("no room") })))
	require.NoError(t, eng.Build())
	setAll := func() {
		b := w.NewCommands()
		seq, _ := w.Entities(vc)
		for e := range seq {
			vc.Set(b, e, vel{2})
			break
		}
		_, err := w.Apply(b)
		require.Error(t, err)
	}
	setAll() // owner-side changes between steps fire observers in Apply
	err := func() error {
		b := w.NewCommands()
		seq, _ := w.Entities(vc)
		for e := range seq {
			vc.Set(b, e, vel{3})
			break
		}
		_, err := w.Apply(b)
		return err
	}()
	var errs []*ecs.Error
	walk(err, func(x error) {
		if ee, ok := x.(*ecs.Error); ok {
			errs = append(errs, ee)
		}
	})
	var names []string
	for _, ee := range errs {
		if ee.Code == ecs.ErrObserver {
			names = append(names, ee.System)
		}
	}
	assert.Equal(t, []string{"borrower", "getter", "panicker", "failer"}, names, "in registration order: %v", err)
	assert.ErrorIs(t, err, ecs.ErrUndeclared)
	assert.Contains(t, err.Error(), `observer "borrower" used LookupReader[pos] of system "other"`)
	assert.Contains(t, err.Error(), `observer "getter" read engine_test.pos with ecs.Get`)
	assert.Contains(t, err.Error(), "boom")
	require.NoError(t, eng.Tick(), "the engine is usable")
	assert.Equal(t, 8, calls)
}

// Observers' failures in a step join the step's error, named.
func TestObserverFailsInStep(t *testing.T) {
	w := world(t, 64)
	eng := newEngine(t, w, engine.Config{Workers: 2, Batch: 8})
	vc := ecs.NewComponent[vel](w)
	var pass *engine.Pass
	var r ecs.Reader[pos]
	require.NoError(t, eng.Add(engine.Update, &toy{name: "setter", build: func(b *engine.Builder) error {
		d := b.Decl()
		r = ecs.Read[pos](d)
		pass = b.Chunks("set", ecs.NewQuery1(d, r), func(c *ecs.Chunk) {
			for _, e := range c.Entities() {
				vc.Set(c.Commands(), e, vel{2})
			}
		})
		return nil
	}, sched: func(f *engine.Frame) error { return f.Run(pass) }}))
	require.NoError(t, eng.AddObserver(&watcher{name: "picky", build: func(b *engine.ObserverBuilder) error {
		ecs.Observe[vel](b.Decl(), ecs.OnSet)
		return nil
	}, observe: func(ev ecs.Observed) error {
		if ev.Entity.ID()%16 == 0 {
			panic("odd one")
		}
		return nil
	}}))
	require.NoError(t, eng.Build())
	for range 2 {
		err := eng.Tick()
		require.Error(t, err)
		var ee *ecs.Error
		require.ErrorAs(t, err, &ee)
		assert.Equal(t, ecs.ErrObserver, ee.Code)
		assert.Equal(t, "picky", ee.System)
		var p *engine.Panic
		assert.ErrorAs(t, err, &p, "the panic's stack is kept")
	}
}

// Observers whose commands call each other for ever are cut after
// MaxObserverRounds rounds with WEFT-E016; the next playback is whole.
func TestObserverCascade(t *testing.T) {
	w := world(t, 1)
	eng := newEngine(t, w, engine.Config{Serial: true})
	mark := ecs.NewComponent[Mark](w)
	rounds := 0
	require.NoError(t, eng.AddObserver(&watcher{name: "flip", build: func(b *engine.ObserverBuilder) error {
		ecs.Observe[Mark](b.Decl(), ecs.OnAdd)
		ecs.Observe[Mark](b.Decl(), ecs.OnRemove)
		return nil
	}, observe: func(ev ecs.Observed) error {
		rounds++
		if ev.Trigger == ecs.OnAdd {
			mark.Remove(ev.Commands, ev.Entity)
		} else {
			mark.Add(ev.Commands, ev.Entity, Mark{})
		}
		return nil
	}}))
	require.NoError(t, eng.Build())
	b := w.NewCommands()
	seq, _ := w.Entities()
	for e := range seq {
		mark.Add(b, e, Mark{})
	}
	_, err := w.Apply(b)
	require.ErrorIs(t, err, ecs.ErrObserverCascade)
	assert.Contains(t, err.Error(), `"flip"`)
	assert.Equal(t, 1+ecs.MaxObserverRounds, rounds)
	require.NoError(t, eng.Tick())
}

// Node is a link of a chain: despawning one despawns its child.
type Node struct {
	Child ecs.Entity
	Depth int
}

// A despawn deep in a hierarchy (here a chain of 8 whose despawn
// observer despawns each child) calls each despawn observer once per
// entity, in the chain's order, in one step.
func TestObserverDespawnChainOnce(t *testing.T) {
	w := ecs.NewWorld(ecs.Options{})
	node := ecs.NewComponent[Node](w)
	b := w.NewCommands()
	var child ecs.Entity
	var root ecs.Entity
	for d := 7; d >= 0; d-- {
		e := b.Spawn()
		node.Add(b, e, Node{Child: child, Depth: d})
		child, root = e, e
	}
	_, err := w.Apply(b)
	require.NoError(t, err)
	eng := newEngine(t, w, engine.Config{Workers: 2})
	var depths []int
	var look ecs.LookupReader[Node]
	require.NoError(t, eng.AddObserver(&watcher{name: "unlink", build: func(b *engine.ObserverBuilder) error {
		look = ecs.ReadLookup[Node](b.Decl())
		ecs.Observe[Node](b.Decl(), ecs.OnDespawn)
		return nil
	}, observe: func(ev ecs.Observed) error {
		n, _ := look.Get(ev.Entity)
		depths = append(depths, n.Depth)
		if n.Child != (ecs.Entity{}) {
			ev.Commands.Despawn(n.Child)
		}
		return nil
	}}))
	require.NoError(t, eng.Build())
	seq, _ := w.Entities()
	for e := range seq {
		if n, _ := ecs.Get[Node](w, e); n.Depth == 0 {
			root = e
		}
	}
	b.Despawn(root)
	_, err = w.Apply(b)
	require.NoError(t, err)
	assert.Equal(t, []int{0, 1, 2, 3, 4, 5, 6, 7}, depths)
	assert.Zero(t, w.Count())
}

// walk calls fn on err and every error it wraps.
func walk(err error, fn func(error)) {
	if err == nil {
		return
	}
	fn(err)
	switch u := err.(type) {
	case interface{ Unwrap() error }:
		walk(u.Unwrap(), fn)
	case interface{ Unwrap() []error }:
		for _, x := range u.Unwrap() {
			walk(x, fn)
		}
	}
}

// A despawn of the root of a ChildOf tree of depth 6 (63 entities)
// recorded by a chunk job calls the despawn observer once for each
// entity, a parent before its children, each while its parent is still
// alive, in the same order on every worker count and batch size.
func TestObserverDespawnTreeOnce(t *testing.T) {
	run := func(workers, batch int) []string {
		w := ecs.NewWorld(ecs.Options{})
		node := ecs.NewComponent[Node](w)
		b := w.NewCommands()
		for range 63 {
			node.Add(b, b.Spawn(), Node{})
		}
		_, err := w.Apply(b)
		require.NoError(t, err)
		var all []ecs.Entity
		seq, _ := w.Entities()
		for e := range seq {
			all = append(all, e)
		}
		for i := 1; i < len(all); i++ { // a binary tree: i's parent is (i-1)/2
			require.NoError(t, ecs.SetTarget[ecs.ChildOf](w, all[i], all[(i-1)/2]))
		}
		eng := newEngine(t, w, engine.Config{Workers: workers, Serial: workers == 0, Batch: batch})
		var pass *engine.Pass
		var r ecs.Reader[Node]
		root := all[0]
		require.NoError(t, eng.Add(engine.Update, &toy{name: "fell", build: func(b *engine.Builder) error {
			d := b.Decl()
			r = ecs.Read[Node](d)
			b.Commands()
			pass = b.Chunks("fell", ecs.NewQuery1(d, r), func(c *ecs.Chunk) {
				for _, e := range c.Entities() {
					if e == root {
						c.Commands().Despawn(e)
					}
				}
			})
			return nil
		}, sched: func(f *engine.Frame) error { return f.Run(pass) }}))
		var log []string
		seen := map[ecs.Entity]int{}
		var rel ecs.RelationReader[ecs.ChildOf]
		require.NoError(t, eng.AddObserver(&watcher{name: "count", build: func(b *engine.ObserverBuilder) error {
			rel = ecs.ReadRelation[ecs.ChildOf](b.Decl())
			ecs.Observe[Node](b.Decl(), ecs.OnDespawn)
			return nil
		}, observe: func(ev ecs.Observed) error {
			seen[ev.Entity]++
			parent, has := rel.Target(ev.Entity)
			_, _, err := ecs.TargetOf[ecs.ChildOf](w, ev.Entity) // undeclared: refused
			log = append(log, fmt.Sprint(ev.Entity, parent, has, errors.Is(err, ecs.ErrUndeclared), len(rel.Children(ev.Entity, nil))))
			return nil
		}}))
		require.NoError(t, eng.Build())
		require.NoError(t, eng.Tick())
		assert.Len(t, seen, 63)
		for e, n := range seen {
			assert.Equal(t, 1, n, "entity %v", e)
		}
		assert.Zero(t, w.Count())
		return log
	}
	want := run(0, 64)
	require.Len(t, want, 63)
	for i, l := range want { // a parent's link and its parent are whole during the call
		assert.Equal(t, i > 0, strings.Contains(l, "true true"), l)
	}
	assert.True(t, strings.HasSuffix(want[0], " false true 2"), "the root's children are there during its call: %s", want[0])
	for _, workers := range []int{0, 1, 2, 4} {
		for _, batch := range []int{1, 64, 0} {
			assert.Equal(t, want, run(workers, batch), "workers %d, batch %d", workers, batch)
		}
	}
}
