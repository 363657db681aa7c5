package engine_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
)

type mark struct{ X float64 }

// failScene runs three steps of a system "a" that writes pos from vel (vel
// holds the row's number) and, in step 2, panics in the chunk that holds
// row bad: after writing its rows (late), or before (not late); "b", after
// a, writes mark from pos. It returns the hash of pos and mark and step 2's
// error.
func failScene(t *testing.T, workers, batch, bad int, late, chain bool) (uint64, error) {
	const n = 300
	w := ecs.NewWorld(ecs.Options{})
	pc, vc, tc := ecs.NewComponent[pos](w), ecs.NewComponent[vel](w), ecs.NewComponent[mark](w)
	cmds := w.NewCommands()
	for i := range n {
		e := cmds.Spawn()
		pc.Add(cmds, e, pos{float64(i)})
		vc.Add(cmds, e, vel{float64(i)})
		tc.Add(cmds, e, mark{})
	}
	_, err := w.Apply(cmds)
	require.NoError(t, err)
	e := newEngine(t, w, engine.Config{Workers: workers, Serial: workers == 0, Batch: batch, ChainChunks: chain})
	step := 0
	var pa, pb *engine.Pass
	require.NoError(t, e.Add(engine.Update, &toy{name: "a",
		build: func(b *engine.Builder) error {
			d := b.Decl()
			r, wr := ecs.Read[vel](d), ecs.Write[pos](d)
			pa = b.Chunks("move", ecs.NewQuery2(d, r, wr), func(c *ecs.Chunk) {
				v, p := r.Column(c), wr.Column(c)
				hit := false
				for i := range v {
					hit = hit || v[i].X == float64(bad)
				}
				if hit && step == 2 && !late {
					panic(fmt.Sprintf("row %d", bad))
				}
				for i := range p {
					p[i].X = p[i].X*1.5 + v[i].X
				}
				if hit && step == 2 {
					panic(fmt.Sprintf("row %d", bad))
				}
			})
			return nil
		},
		sched: func(f *engine.Frame) error { return f.Run(pa) }}))
	require.NoError(t, e.Add(engine.Update, &toy{name: "b",
		build: func(b *engine.Builder) error {
			d := b.Decl()
			r, wr := ecs.Read[pos](d), ecs.Write[mark](d)
			pb = b.Chunks("tag", ecs.NewQuery2(d, r, wr), func(c *ecs.Chunk) {
				p, g := r.Column(c), wr.Column(c)
				for i := range p {
					g[i].X = g[i].X*0.5 + p[i].X
				}
			})
			return nil
		},
		sched: func(f *engine.Frame) error { return f.Run(pb) }}, engine.After("a")))
	require.NoError(t, e.Build())
	var failed error
	for step = 1; step <= 3; step++ {
		err := e.Tick()
		if step == 2 {
			failed = err
		} else {
			require.NoError(t, err, "step %d", step)
		}
	}
	h, err := w.Hash(pc, tc)
	require.NoError(t, err)
	return h, failed
}

// A failed step leaves the same world on every worker count and batch
// size: every chunk of the failing pass runs but the one that panicked
// (here it panics after writing its rows, so its rows are written too),
// and the system after it is skipped as a whole. The serial executor's
// world is the oracle.
func TestFailedStepSameWorld(t *testing.T) {
	for _, bad := range []int{137, 0, 299} {
		want, err := failScene(t, 0, 64, bad, true, false)
		require.ErrorIs(t, err, engine.ErrJob)
		reps := 20
		if bad != 137 {
			reps = 2 // the first and last rows: only the edges change
		}
		for _, workers := range []int{0, 1, 2, 4} {
			for _, batch := range []int{1, 7, 64, 0} {
				for rep := range reps {
					got, err := failScene(t, workers, batch, bad, true, false)
					require.ErrorIs(t, err, engine.ErrJob)
					require.Equal(t, want, got, "row %d, W=%d batch %d, run %d", bad, workers, batch, rep)
				}
			}
		}
	}
}

// A chunk that panics before writing leaves its rows unwritten: the world
// then depends on the batch (which rows share the chunk), but not on the
// worker count, nor the run.
func TestFailedStepSameWorldPerBatch(t *testing.T) {
	for _, batch := range []int{1, 7, 64} {
		want, _ := failScene(t, 0, batch, 137, false, false)
		for _, workers := range []int{1, 2, 4} {
			for rep := range 5 {
				got, err := failScene(t, workers, batch, 137, false, false)
				require.ErrorIs(t, err, engine.ErrJob)
				require.Equal(t, want, got, "batch %d, W=%d, run %d", batch, workers, rep)
			}
		}
	}
}

// With Config.ChainChunks a chained successor's chunk runs after its twin
// alone, so a failed chunk skips its twin only: the rows written are
// still the same on every worker count.
func TestFailedStepSameWorldChained(t *testing.T) {
	for _, batch := range []int{7, 64} {
		want, _ := failScene(t, 0, batch, 137, true, true)
		plain, _ := failScene(t, 0, batch, 137, true, false)
		assert.NotEqual(t, plain, want, "chained, the twin of the failed chunk alone is skipped")
		for _, workers := range []int{1, 2, 4} {
			for rep := range 5 {
				got, err := failScene(t, workers, batch, 137, true, true)
				require.ErrorIs(t, err, engine.ErrJob)
				require.Equal(t, want, got, "batch %d, W=%d, run %d", batch, workers, rep)
			}
		}
	}
}
