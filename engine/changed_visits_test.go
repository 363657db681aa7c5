package engine_test

import (
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
)

// changedVisits runs a sparse writer ("poke" changes one row of pos a
// step, reading every row to find it; "still" writes every row of vel
// with the value it has) and a watcher of pos and vel, and returns, per
// step, the rows the watcher visited and a sum of their entities.
func changedVisits(t *testing.T, workers, batch int) (rows, ents []int64) {
	const n = 5000
	e := newEngine(t, world(t, n), engine.Config{Workers: workers, Serial: workers == 0, Batch: batch})
	var step atomic.Int64
	var poke, still, watch *engine.Pass
	require.NoError(t, e.Add(engine.Update, &toy{name: "poke",
		build: func(b *engine.Builder) error {
			d := b.Decl()
			p := ecs.Write[pos](d)
			poke = b.Chunks("poke", ecs.NewQuery1(d, p), func(c *ecs.Chunk) {
				target := float64(step.Load() * 37 % n)
				col := p.Column(c)
				for i := range col {
					if col[i].X == target {
						col[i].X += 1e6
					}
				}
			})
			return nil
		},
		sched: func(f *engine.Frame) error { step.Store(int64(f.Time().Step)); return f.Run(poke) }}))
	require.NoError(t, e.Add(engine.Update, &toy{name: "still",
		build: func(b *engine.Builder) error {
			d := b.Decl()
			v := ecs.Write[vel](d)
			still = b.Chunks("still", ecs.NewQuery1(d, v), func(c *ecs.Chunk) {
				col := v.Column(c)
				for i := range col {
					col[i] = vel{col[i].X} // the same bytes: no change
				}
			})
			return nil
		},
		sched: func(f *engine.Frame) error { return f.Run(still) }}))
	var seen, sum atomic.Int64
	require.NoError(t, e.Add(engine.PostUpdate, &toy{name: "watch",
		build: func(b *engine.Builder) error {
			d := b.Decl()
			p, v := ecs.Read[pos](d), ecs.Read[vel](d)
			watch = b.Chunks("watch", ecs.NewQuery2(d, p, v, ecs.Changed(p)), func(c *ecs.Chunk) {
				seen.Add(int64(c.Len()))
				for _, en := range c.Entities() {
					sum.Add(int64(en.ID()))
				}
			})
			return nil
		},
		sched: func(f *engine.Frame) error { return f.Run(watch) }}))
	require.NoError(t, e.Build())
	for range 12 {
		require.NoError(t, e.Tick())
		rows, ents = append(rows, seen.Swap(0)), append(ents, sum.Swap(0))
	}
	return rows, ents
}

// What a Changed filter visits depends on what changed, not on the worker
// count or the batch size (adaptive included): blocks of 64 rows are
// marked where a job changed bytes, so a writer that changes one row a
// step is seen as one block, however it reads the others, and a write of
// the same bytes is no change.
func TestChangedVisitsOneCount(t *testing.T) {
	wantRows, wantEnts := changedVisits(t, 0, 1)
	assert.Equal(t, int64(5000), wantRows[0], "the first run visits every row")
	for s, r := range wantRows[1:] {
		assert.LessOrEqual(t, r, int64(64), "step %d: one changed row is one block", s+2)
		assert.Positive(t, r, "step %d", s+2)
	}
	for _, workers := range []int{0, 1, 2, 4} {
		for _, batch := range []int{1, 64, 1024, 0} {
			if workers == 0 && batch == 1 {
				continue
			}
			rows, ents := changedVisits(t, workers, batch)
			name := fmt.Sprintf("W%d batch %d", workers, batch)
			assert.Equal(t, wantRows, rows, name)
			assert.Equal(t, wantEnts, ents, name)
		}
	}
}
