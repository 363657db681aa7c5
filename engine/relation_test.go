package engine_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
)

// A system that reads a relation runs after one that changes it in the
// same stage, ordered by the declared Link (Explain names it); a
// RelationWriter used from another system's Schedule is refused with
// WEFT-E001, and a zero one with WEFT-E007.
func TestRelationOrderAndSeam(t *testing.T) {
	w := world(t, 10)
	e := newEngine(t, w, engine.Config{Workers: 2})
	var set ecs.RelationWriter[ecs.ChildOf]
	var misuse error
	changer := &toy{name: "changer", build: func(b *engine.Builder) error {
		set = ecs.WriteRelation[ecs.ChildOf](b.Decl())
		return nil
	}, sched: func(*engine.Frame) error { return nil }}
	var rel ecs.RelationReader[ecs.ChildOf]
	var pass *engine.Pass
	var rd *ecs.Decl
	reader := &toy{name: "reader", build: func(b *engine.Builder) error {
		d := b.Decl()
		rd = d
		rel = ecs.ReadRelation[ecs.ChildOf](d)
		pass = b.Chunks("read", ecs.NewQuery1(d, rel), func(*ecs.Chunk) {})
		return nil
	}, sched: func(f *engine.Frame) error {
		misuse = catchErr(func() { set.Remove(rd.Commands(0), ecs.Entity{}) })
		return f.Run(pass)
	}}
	require.NoError(t, e.Add(engine.Update, changer))
	require.NoError(t, e.Add(engine.Update, reader, engine.After("changer")))
	require.NoError(t, e.Build())
	require.Contains(t, e.Explain().String(), "Link[ChildOf]")
	require.NoError(t, e.Tick())
	require.ErrorIs(t, misuse, ecs.ErrUndeclared)
	var zero ecs.RelationWriter[ecs.ChildOf]
	require.ErrorIs(t, catchErr(func() { zero.Remove(w.NewCommands(), ecs.Entity{}) }), ecs.ErrBadArgument)
}

func catchErr(f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err, _ = r.(error)
		}
	}()
	f()
	return nil
}
