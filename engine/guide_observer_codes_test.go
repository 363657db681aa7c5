//go:build !weft_nochecks

package engine_test

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
)

// The claims of docs/guide/17-observers.md about the codes it names.
func init() {
	// step runs one step in which a chunk job sets the Hull of one ship
	// and an observer of OnSet of Hull runs observe.
	step := func(observe func(hull ecs.Component[Hull], other ecs.LookupReader[Hull], w *ecs.World, ev ecs.Observed) error) error {
		w := ecs.NewWorld(ecs.Options{})
		hull := ecs.NewComponent[Hull](w)
		b := w.NewCommands()
		hull.Add(b, b.Spawn(), Hull{HP: 3})
		if _, err := w.Apply(b); err != nil {
			return err
		}
		eng, err := engine.New(w, engine.Config{Workers: 2})
		if err != nil {
			return err
		}
		defer eng.Close()
		var other ecs.LookupReader[Hull]
		var pass *engine.Pass
		setter := &toy{name: "setter", build: func(b *engine.Builder) error {
			d := b.Decl()
			other = ecs.ReadLookup[Hull](d)
			pass = b.Chunks("set", ecs.NewQuery1(d, ecs.Read[Hull](d)), func(c *ecs.Chunk) {
				for _, e := range c.Entities() {
					hull.Set(c.Commands(), e, Hull{HP: 2})
				}
			})
			return nil
		}, sched: func(f *engine.Frame) error { return f.Run(pass) }}
		if err := eng.Add(engine.Update, setter); err != nil {
			return err
		}
		if err := eng.AddObserver(&watcher{name: "watch", build: func(b *engine.ObserverBuilder) error {
			ecs.Observe[Hull](b.Decl(), ecs.OnSet)
			return nil
		}, observe: func(ev ecs.Observed) error { return observe(hull, other, w, ev) }}); err != nil {
			return err
		}
		if err := eng.Build(); err != nil {
			return err
		}
		if err := eng.Tick(); err != nil {
			return err
		}
		return eng.Tick()
	}
	guideClaims = append(guideClaims,
		guideClaim{"A cascade still recording after `ecs.MaxObserverRounds` (16) rounds is cut with `WEFT-E016`, and its last commands are dropped: a cycle never hangs.", func(t *testing.T) error {
			return step(func(hull ecs.Component[Hull], _ ecs.LookupReader[Hull], _ *ecs.World, ev ecs.Observed) error {
				hull.Set(ev.Commands, ev.Entity, Hull{HP: 1})
				return nil
			})
		}},
		guideClaim{"Its access is checked through the same seam as a system's: a token of another system, or `ecs.Get`, is refused with `WEFT-E001` naming the observer.", func(t *testing.T) error {
			err := step(func(_ ecs.Component[Hull], other ecs.LookupReader[Hull], _ *ecs.World, ev ecs.Observed) error {
				other.Get(ev.Entity)
				return nil
			})
			return errors.Join(err, step(func(_ ecs.Component[Hull], _ ecs.LookupReader[Hull], w *ecs.World, ev ecs.Observed) error {
				_, err := ecs.Get[Hull](w, ev.Entity)
				return err
			}))
		}},
		guideClaim{"An observer is called with an entity, never a chunk: declaring what only a chunk job uses (`ecs.Read`, `ecs.Write`, `ecs.WriteLookup`, `ecs.ReadEnabled`, `ecs.WriteEnabled`, a query) fails Build with `WEFT-G002`, its cause a `WEFT-E007` naming the observer and saying what to use instead, and so does an observer that observes nothing", func(t *testing.T) error {
			return refusedAtBuild(
				func(d *ecs.Decl) { ecs.Write[Hull](d); ecs.Observe[Hull](d, ecs.OnAdd) },
				func(d *ecs.Decl) { ecs.ReadLookup[Hull](d) },
			)
		}},
		guideClaim{"Declaring one `ecs.Observe[T](d, trigger)` or `ecs.ObserveEvent[T](d)` twice fails Build with `WEFT-G002` over a `WEFT-E007` saying it is already declared (each would be one more call per change or event), and so does observing events of a type that no system emits", func(t *testing.T) error {
			return refusedAtBuild(
				func(d *ecs.Decl) { ecs.Observe[Hull](d, ecs.OnAdd); ecs.Observe[Hull](d, ecs.OnAdd) },
				func(d *ecs.Decl) { ecs.ObserveEvent[Shot](d); ecs.ObserveEvent[Shot](d) },
				func(d *ecs.Decl) { ecs.ObserveEvent[Tracer](d) },
			)
		}},
		guideClaim{"A step whose chunk job panics (`WEFT-G009`) still observes its events: the other chunks of the failing pass all ran, and the failing chunk's events emitted before its panic are observed, those it would have emitted after are not.", func(t *testing.T) error {
			var want []int // of 12 ships in chunks of 4, the one at 5 panics after its shot
			for x := range 12 {
				if x < 6 || x >= 8 {
					want = append(want, x)
				}
			}
			for _, workers := range []int{0, 2} {
				seen, err := failedShots(workers, 4)
				if !slices.Equal(seen, want) {
					return fmt.Errorf("W%d: observed the shots of %v, want %v", workers, seen, want)
				}
				if workers == 2 {
					return err
				}
			}
			return nil
		}},
		guideClaim{"An observer that returns an error or panics fails that call only: the step's error has a `WEFT-G010` naming it, whose cause is a `WEFT-E015` (the panic's stack in its `*engine.Panic`), as for a failing `Merge`, and playback and the next step go on.", func(t *testing.T) error {
			return step(func(ecs.Component[Hull], ecs.LookupReader[Hull], *ecs.World, ecs.Observed) error { panic("bent") })
		}},
		guideClaim{"An observer does not emit: `ecs.Emit` on its `Decl` fails Build with `WEFT-E007`", func(t *testing.T) error {
			eng, err := engine.New(ecs.NewWorld(ecs.Options{}), engine.Config{Serial: true})
			if err != nil {
				return err
			}
			defer eng.Close()
			if err := eng.AddObserver(&watcher{name: "loud", build: func(b *engine.ObserverBuilder) error {
				ecs.Emit[Shot](b.Decl())
				ecs.ObserveEvent[Shot](b.Decl())
				return nil
			}}); err != nil {
				return err
			}
			return eng.Build()
		}},
		guideClaim{"`World.Apply` from any observer answers `WEFT-E005`.", func(t *testing.T) error {
			return step(func(_ ecs.Component[Hull], _ ecs.LookupReader[Hull], w *ecs.World, _ ecs.Observed) error {
				_, err := w.Apply(w.NewCommands())
				return err
			})
		}},
	)
}

// refusedAtBuild builds, for each declare, an engine with Guns (which
// emits Shot) and an observer whose Build runs declare; each Build must
// fail with WEFT-G002 over WEFT-E007. It returns the first error.
func refusedAtBuild(declares ...func(d *ecs.Decl)) error {
	var errs []error
	for _, declare := range declares {
		eng, err := engine.New(ecs.NewWorld(ecs.Options{}), engine.Config{Serial: true})
		if err != nil {
			return err
		}
		defer eng.Close()
		if err := eng.Add(engine.Update, &Guns{}); err != nil {
			return err
		}
		if err := eng.AddObserver(&watcher{name: "odd", build: func(b *engine.ObserverBuilder) error {
			declare(b.Decl())
			return nil
		}}); err != nil {
			return err
		}
		err = eng.Build()
		if !errors.Is(err, engine.ErrBuild) || !errors.Is(err, ecs.ErrBadArgument) {
			return errors.Join(errors.New("want G002 over E007"), err)
		}
		errs = append(errs, err)
	}
	return errs[0]
}

// failedShots runs one step of 12 ships whose guns' chunk job panics at
// the ship at X 5 after it fires, with an observer of Shot, and returns
// the X of the shots observed, sorted, and the step's error.
func failedShots(workers, batch int) ([]int, error) {
	w := ecs.NewWorld(ecs.Options{})
	hull := ecs.NewComponent[Hull](w)
	b := w.NewCommands()
	for x := range 12 {
		hull.Add(b, b.Spawn(), Hull{X: x, HP: 1})
	}
	if _, err := w.Apply(b); err != nil {
		return nil, err
	}
	eng, err := engine.New(w, engine.Config{Workers: workers, Serial: workers == 0, Batch: batch})
	if err != nil {
		return nil, err
	}
	defer eng.Close()
	var pass *engine.Pass
	if err := eng.Add(engine.Update, &toy{name: "guns", build: func(b *engine.Builder) error {
		d := b.Decl()
		h, shot := ecs.Read[Hull](d), ecs.Emit[Shot](d)
		pass = b.Chunks("fire", ecs.NewQuery1(d, h), func(c *ecs.Chunk) {
			for _, s := range h.Column(c) {
				shot.Emit(c, Shot{X: s.X})
				if s.X == 5 {
					panic("jammed")
				}
			}
		})
		return nil
	}, sched: func(f *engine.Frame) error { return f.Run(pass) }}); err != nil {
		return nil, err
	}
	var seen []int
	if err := eng.AddObserver(&watcher{name: "count", build: func(b *engine.ObserverBuilder) error {
		ecs.ObserveEvent[Shot](b.Decl())
		return nil
	}, observe: func(ev ecs.Observed) error {
		s, _ := ecs.EventOf[Shot](ev)
		seen = append(seen, s.X)
		return nil
	}}); err != nil {
		return nil, err
	}
	if err := eng.Build(); err != nil {
		return nil, err
	}
	err = eng.Tick()
	slices.Sort(seen)
	return seen, err
}
