package engine_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
)

// A system that a run condition skips in the last step before a restore
// must still prepare its query when the step it last ran comes again:
// the step number repeats, the step does not. Here "count" runs in odd
// steps and counts its rows into a resource. The first step 1 runs with
// 10 more entities than the world restored after step 2, so a step 1
// that ran on the chunks of the first would count them again.
func TestRestoreAfterSkippedStepPreparesAgain(t *testing.T) {
	w := world(t, 100)
	total := &pos{}
	require.NoError(t, ecs.AddResource(w, total))
	e := newEngine(t, w, engine.Config{Workers: 2, Batch: 16})
	var (
		r    ecs.Reader[pos]
		sum  ecs.ResWriter[pos]
		pass *engine.Pass
	)
	counter := &toy{name: "count", build: func(b *engine.Builder) error {
		d := b.Decl()
		r, sum = ecs.Read[pos](d), ecs.WriteRes[pos](d)
		pass = b.ChunksInOrder("count", ecs.NewQuery1(d, r), func(c *ecs.Chunk) {
			sum.In(c).X += float64(len(r.Column(c)))
		})
		return nil
	}, sched: func(f *engine.Frame) error { return f.Run(pass) }}
	require.NoError(t, e.Add(engine.Update, counter, engine.RunIf(func(f *engine.Frame) bool { return f.Time().Step%2 == 1 })))
	require.NoError(t, e.Build())
	var snap ecs.Snapshot
	require.NoError(t, w.Snapshot(&snap))
	b := w.NewCommands()
	for range 10 {
		ecs.NewComponent[pos](w).Add(b, b.Spawn(), pos{})
	}
	_, err := w.Apply(b)
	require.NoError(t, err)
	require.NoError(t, e.Tick()) // step 1: counts 110
	require.Equal(t, 110.0, total.X)
	require.NoError(t, e.Tick()) // step 2: skipped
	require.NoError(t, e.Restore(&snap))
	require.NoError(t, e.Tick()) // step 1 again, over 100
	require.Equal(t, 100.0, total.X)
}

// A rewind puts back the world as a step left it, before the game's
// changes between steps: here a spawn before each step. Run again with
// the same spawns, the steps give the same world; a snapshot that held
// the first re-run step's spawn would make it twice.
func TestRewindBeforeTheOwnersChanges(t *testing.T) {
	w := world(t, 10)
	e := newEngine(t, w, engine.Config{Workers: 1})
	require.NoError(t, e.Add(engine.Update, mover("move", true, func(p []pos) {
		for i := range p {
			p[i].X++
		}
	})))
	require.NoError(t, e.Build())
	require.NoError(t, e.SetRewind(4, 1))
	places := ecs.NewComponent[pos](w)
	step := func() {
		b := w.NewCommands()
		places.Add(b, b.Spawn(), pos{X: float64(e.Time().Step) * 100})
		_, err := w.Apply(b)
		require.NoError(t, err)
		require.NoError(t, e.Tick())
	}
	for range 6 {
		step()
	}
	want, err := w.Hash(places)
	require.NoError(t, err)
	n, err := e.Rewind(2)
	require.NoError(t, err)
	require.Equal(t, 2, n)
	require.EqualValues(t, 4, e.Time().Step)
	step()
	step()
	got, err := w.Hash(places)
	require.NoError(t, err)
	require.Equal(t, want, got)
	require.Equal(t, 16, w.Count(places))
}
