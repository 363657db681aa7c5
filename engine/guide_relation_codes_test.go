//go:build !weft_nochecks

package engine_test

import (
	"errors"
	"testing"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
)

// The claims of docs/guide/18-relations.md about the codes it names.
func init() {
	guideClaims = append(guideClaims,
		guideClaim{"another system's token is WEFT-E001 and a zero token WEFT-E007, as for every kind.", func(t *testing.T) error {
			w := ecs.NewWorld(ecs.Options{})
			eng, err := engine.New(w, engine.Config{Serial: true})
			if err != nil {
				return err
			}
			defer eng.Close()
			var theirs ecs.RelationWriter[ecs.ChildOf]
			owner := &toy{name: "owner", build: func(b *engine.Builder) error {
				theirs = ecs.WriteRelation[ecs.ChildOf](b.Decl())
				return nil
			}, sched: func(*engine.Frame) error { return nil }}
			var mine *ecs.Decl
			user := &toy{name: "user", build: func(b *engine.Builder) error {
				mine = b.Decl()
				return nil
			}, sched: func(*engine.Frame) error {
				theirs.Remove(mine.Commands(0), ecs.Entity{}) // another system's token
				return nil
			}}
			if err := eng.Add(engine.Update, owner); err != nil {
				return err
			}
			if err := eng.Add(engine.Update, user, engine.After("owner")); err != nil {
				return err
			}
			if err := eng.Build(); err != nil {
				return err
			}
			var zero ecs.RelationReader[ecs.ChildOf]
			return errors.Join(eng.Tick(), catchErr(func() { zero.Depths() }))
		}},
		guideClaim{"`SetTarget` answers WEFT-E007 and a recorded one is a skipped command (WEFT-E006).", func(t *testing.T) error {
			w := ecs.NewWorld(ecs.Options{})
			b := w.NewCommands()
			b.Spawn()
			b.Spawn()
			if _, err := w.Apply(b); err != nil {
				return err
			}
			var ents []ecs.Entity
			for e := range must2(w.Entities()) {
				ents = append(ents, e)
			}
			parent, child := ents[0], ents[1]
			if err := ecs.SetTarget[ecs.ChildOf](w, child, parent); err != nil {
				return err
			}
			cycle := ecs.SetTarget[ecs.ChildOf](w, parent, child)
			if err := ecs.Relate[ecs.ChildOf](b, parent, child); err != nil {
				return err
			}
			r, err := w.Apply(b)
			if err != nil {
				return err
			}
			return errors.Join(cycle, r.Err())
		}},
	)
}
