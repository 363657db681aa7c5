//go:build !weft_nochecks

package engine_test

import (
	"testing"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
)

// The claims of docs/guide/15-enableable.md about the codes it names.
func init() {
	// step runs one step of a system whose job switches Stunned through
	// tok (its own, or another system's) at row.
	step := func(foreign bool, row int) error {
		var other ecs.EnabledWriter[Stunned]
		owner := &toy{name: "owner", build: func(b *engine.Builder) error {
			other = ecs.WriteEnabled[Stunned](b.Decl())
			return nil
		}, sched: func(*engine.Frame) error { return nil }}
		var pass *engine.Pass
		user := &toy{name: "user", build: func(b *engine.Builder) error {
			d := b.Decl()
			own := ecs.WriteEnabled[Stunned](d)
			pass = b.Chunks("switch", ecs.NewQuery1(d, ecs.Read[Stunned](d)), func(c *ecs.Chunk) {
				if foreign {
					other.Set(c, row, false)
				} else {
					own.Set(c, row, false)
				}
			})
			return nil
		}, sched: func(f *engine.Frame) error { return f.Run(pass) }}
		return stunStep(owner, user)
	}
	// rows runs one step of a system whose job switches off every row of
	// a query of Impact, with Stunned optional or not in it.
	rows := func(optional bool) error {
		var pass *engine.Pass
		return stunStep(&toy{name: "stun", build: func(b *engine.Builder) error {
			d := b.Decl()
			stun := ecs.WriteEnabled[Stunned](d)
			q := ecs.NewQuery1(d, ecs.Read[Impact](d))
			if optional {
				q = ecs.NewQuery1(d, ecs.Read[Impact](d), ecs.Optional(ecs.Read[Stunned](d)))
			}
			pass = b.Chunks("stun", q, func(c *ecs.Chunk) {
				for i := range c.Len() {
					stun.Set(c, i, false)
				}
			})
			return nil
		}, sched: func(f *engine.Frame) error { return f.Run(pass) }})
	}
	guideClaims = append(guideClaims,
		guideClaim{"there, every call through the token fails the step with WEFT-E003, whatever the tables hold.", func(t *testing.T) error {
			return rows(false)
		}},
		guideClaim{"and `Set` of one fails the step with WEFT-E011.", func(t *testing.T) error {
			return rows(true)
		}},
		guideClaim{"an entity that is dead or lacks `T` by then is a problem of the playback (WEFT-E006), and the others still apply.", func(t *testing.T) error {
			w := ecs.NewWorld(ecs.Options{})
			stunned, impact := ecs.NewComponent[Stunned](w), ecs.NewComponent[Impact](w)
			b := w.NewCommands()
			body, rock := b.Spawn(), b.Spawn()
			stunned.Add(b, body, Stunned{})
			impact.Add(b, rock, Impact{})
			if _, err := w.Apply(b); err != nil {
				return err
			}
			var ents []ecs.Entity
			for e := range must2(w.Entities()) {
				ents = append(ents, e)
			}
			for _, e := range ents {
				stunned.SetEnabled(b, e, false) // the rock has no Stunned
			}
			r, err := w.Apply(b)
			if err != nil {
				return err
			}
			if r.Applied != 1 {
				t.Errorf("applied %d switches, want the body's", r.Applied)
			}
			return r.Err()
		}},
		guideClaim{"A job that switches through another system's token fails its step with WEFT-E001.", func(t *testing.T) error {
			return step(true, 0)
		}},
		guideClaim{"A row outside the chunk fails it with WEFT-E007.", func(t *testing.T) error {
			return step(false, 5)
		}},
		guideClaim{"`SetEnabled` of an entity that is not alive or lacks `T` returns WEFT-E011.", func(t *testing.T) error {
			w := ecs.NewWorld(ecs.Options{})
			ecs.NewComponent[Stunned](w)
			b := w.NewCommands()
			ecs.NewComponent[Impact](w).Add(b, b.Spawn(), Impact{})
			if _, err := w.Apply(b); err != nil {
				return err
			}
			for e := range must2(w.Entities()) {
				return ecs.SetEnabled[Stunned](w, e, true)
			}
			return nil
		}},
	)
}

// stunStep runs one step of systems, each after the one before, over a
// body with Impact and Stunned and a rock with Impact only.
func stunStep(systems ...*toy) error {
	w := ecs.NewWorld(ecs.Options{})
	stunned, impact := ecs.NewComponent[Stunned](w), ecs.NewComponent[Impact](w)
	b := w.NewCommands()
	body := b.Spawn()
	impact.Add(b, body, Impact{})
	stunned.Add(b, body, Stunned{})
	impact.Add(b, b.Spawn(), Impact{})
	if _, err := w.Apply(b); err != nil {
		return err
	}
	eng, err := engine.New(w, engine.Config{Serial: true})
	if err != nil {
		return err
	}
	defer eng.Close()
	for i, s := range systems {
		var opts []engine.Option
		if i > 0 {
			opts = append(opts, engine.After(systems[i-1].name))
		}
		if err := eng.Add(engine.Update, s, opts...); err != nil {
			return err
		}
	}
	if err := eng.Build(); err != nil {
		return err
	}
	return eng.Tick()
}

func must2[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
