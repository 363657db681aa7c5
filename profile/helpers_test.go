package profile_test

import (
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
)

type pos struct{ X float64 }

// toy is a system made of functions, for tests.
type toy struct {
	name  string
	build func(b *engine.Builder) error
	sched func(f *engine.Frame) error
}

func (s *toy) Name() string                   { return s.name }
func (s *toy) Build(b *engine.Builder) error  { return s.build(b) }
func (s *toy) Schedule(f *engine.Frame) error { return s.sched(f) }

// world makes a world with n entities that have pos.
func world(t testing.TB, n int) *ecs.World {
	w := ecs.NewWorld(ecs.Options{})
	pc := ecs.NewComponent[pos](w)
	b := w.NewCommands()
	for i := range n {
		pc.Add(b, b.Spawn(), pos{float64(i)})
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

// marked is a system whose chunk job marks an outer span, an inner one
// nested in it, counts its rows, and sleeps for work per chunk; sched, if
// set, runs in its Schedule before the pass starts.
func marked(work time.Duration, sched func()) *toy {
	var pass *engine.Pass
	var outer, inner engine.Marker
	var rows engine.Counter
	return &toy{name: "marked",
		build: func(b *engine.Builder) error {
			d := b.Decl()
			w := ecs.Write[pos](d)
			outer, inner, rows = b.Marker("outer"), b.Marker("inner"), b.Counter("rows")
			pass = b.Chunks("move", ecs.NewQuery1(d, w), func(c *ecs.Chunk) {
				wk := c.Worker()
				o := outer.Begin(wk)
				in := inner.Begin(wk)
				for i := range w.Column(c) {
					w.Column(c)[i].X++
				}
				if work > 0 {
					time.Sleep(work)
				}
				in.End()
				o.End()
				rows.Add(wk, int64(c.Len()))
			})
			return nil
		},
		sched: func(f *engine.Frame) error {
			if sched != nil {
				sched()
			}
			return f.Run(pass)
		},
	}
}

func runGC() { runtime.GC() }
