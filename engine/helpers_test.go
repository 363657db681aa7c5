package engine_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
	"github.com/weft-engine/weft/profile"
)

type pos struct{ X float64 }
type vel struct{ X float64 }

// toy is a system made of functions, for tests.
type toy struct {
	name  string
	build func(b *engine.Builder) error
	sched func(f *engine.Frame) error
	merge func(f *engine.Frame) error
}

func (s *toy) Name() string                   { return s.name }
func (s *toy) Build(b *engine.Builder) error  { return s.build(b) }
func (s *toy) Schedule(f *engine.Frame) error { return s.sched(f) }

type merging struct{ *toy }

func (s merging) Merge(f *engine.Frame) error { return s.merge(f) }

// mover writes pos from vel (or reads pos, if read), in one chunk pass.
func mover(name string, write bool, body func(p []pos)) *toy {
	var pass *engine.Pass
	return &toy{name: name,
		build: func(b *engine.Builder) error {
			d := b.Decl()
			var q engine.Query
			if write {
				w := ecs.Write[pos](d)
				q = ecs.NewQuery1(d, w)
				pass = b.Chunks("move", q, func(c *ecs.Chunk) { body(w.Column(c)) })
			} else {
				r := ecs.Read[pos](d)
				q = ecs.NewQuery1(d, r)
				pass = b.Chunks("look", q, func(c *ecs.Chunk) { body(r.Column(c)) })
			}
			return nil
		},
		sched: func(f *engine.Frame) error { return f.Run(pass) },
	}
}

// world makes a world with n entities that have pos and vel.
func world(t testing.TB, n int) *ecs.World {
	w := ecs.NewWorld(ecs.Options{})
	pc, vc := ecs.NewComponent[pos](w), ecs.NewComponent[vel](w)
	b := w.NewCommands()
	for i := range n {
		e := b.Spawn()
		pc.Add(b, e, pos{float64(i)})
		vc.Add(b, e, vel{1})
	}
	_, err := w.Apply(b)
	require.NoError(t, err)
	return w
}

func newEngine(t *testing.T, w *ecs.World, cfg engine.Config) *engine.Engine {
	e, err := engine.New(w, cfg)
	require.NoError(t, err)
	t.Cleanup(func() { e.Close() })
	return e
}

// lastTimings is the timings of e's last step, computed from its record.
func lastTimings(e *engine.Engine) *profile.StepTimings {
	var st profile.StepTimings
	profile.Analyse(&st, e.LastRecord())
	return &st
}
