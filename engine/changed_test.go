package engine_test

import (
	"hash/fnv"
	"math"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
)

type fast struct{}

// landed is the event of the scene below.
type landed struct {
	Row int
	X   float64
}

// changedScene is a scene with events, change filters and a run
// condition: "push" moves the fast entities (a tenth) through a Writer,
// "nudge" sets one entity's pos by commands every 4th step (EveryN), "detect" visits the rows whose pos changed
// and emits an event for each, "count" reads the events in chunk jobs and
// in Merge. It returns a digest of every step's events and visits and of
// the world.
func changedScene(t *testing.T, workers, batch int) (uint64, []int) {
	w := world(t, 1000)
	fc, pc := ecs.NewComponent[fast](w), ecs.NewComponent[pos](w)
	b := w.NewCommands()
	q := ark0(w)
	for i, e := range q {
		if i%10 == 3 {
			fc.Add(b, e, fast{})
		}
	}
	_, err := w.Apply(b)
	require.NoError(t, err)
	h := fnv.New64a()
	e := newEngine(t, w, engine.Config{Workers: workers, Serial: workers == 0, Batch: batch})

	var push, detect, count *engine.Pass
	var em ecs.Emitter[landed]
	var rd ecs.EventReader[landed]
	var seen, counts []int
	require.NoError(t, e.Add(engine.Update, &toy{name: "push",
		build: func(b *engine.Builder) error {
			d := b.Decl()
			p := ecs.Write[pos](d)
			push = b.Chunks("push", ecs.NewQuery1(d, p, ecs.With[fast]()), func(c *ecs.Chunk) {
				for i := range p.Column(c) {
					p.Column(c)[i].X += 0.5
				}
			})
			return nil
		},
		sched: func(f *engine.Frame) error { return f.Run(push) }}))
	var nudgeStep uint64
	require.NoError(t, e.Add(engine.Update, &toy{name: "nudge",
		build: func(b *engine.Builder) error { b.Commands(); return nil },
		sched: func(f *engine.Frame) error {
			nudgeStep = f.Time().Step
			require.Zero(t, nudgeStep%4, "the run condition holds only every 4th step")
			target := q[int(nudgeStep*37)%len(q)]
			pc.Set(b, target, pos{X: float64(nudgeStep)})
			return nil
		}}, engine.EveryN(4)))
	require.NoError(t, e.Add(engine.PostUpdate, &toy{name: "detect",
		build: func(b *engine.Builder) error {
			d := b.Decl()
			p := ecs.Read[pos](d)
			em = ecs.Emit[landed](d)
			detect = b.Chunks("detect", ecs.NewQuery1(d, p, ecs.Changed(p)), func(c *ecs.Chunk) {
				for i, x := range p.Column(c) {
					em.Emit(c, landed{Row: int(c.Entities()[i].ID()), X: x.X})
				}
			})
			return nil
		},
		sched: func(f *engine.Frame) error { return f.Run(detect) }}))
	require.NoError(t, e.Add(engine.PostUpdate, merging{&toy{name: "count",
		build: func(b *engine.Builder) error {
			d := b.Decl()
			rd = ecs.ReadEvents[landed](d)
			count = b.Chunks("count", ecs.NewQuery1(d, ecs.Read[vel](d)), func(c *ecs.Chunk) { seen[c.Index()] = len(rd.Events()) })
			return nil
		},
		sched: func(f *engine.Frame) error {
			n, err := f.Prepare(count)
			if err != nil {
				return err
			}
			seen = make([]int, n)
			return f.Run(count)
		},
		merge: func(f *engine.Frame) error {
			for _, n := range seen {
				require.Equal(t, len(rd.Events()), n)
			}
			counts = append(counts, len(rd.Events()))
			for _, ev := range rd.Events() {
				h.Write([]byte{byte(ev.Row), byte(ev.Row >> 8)})
				var buf [8]byte
				u := math.Float64bits(ev.X)
				for i := range buf {
					buf[i] = byte(u >> (8 * i))
				}
				h.Write(buf[:])
			}
			return nil
		}}}))
	require.NoError(t, e.Build())
	for range 12 {
		require.NoError(t, e.Tick())
		// The owner's command buffer of "nudge" plays here, between steps.
		_, err := w.Apply(b)
		require.NoError(t, err)
	}
	return h.Sum64(), counts
}

// ark0 lists the world's entities in table order.
func ark0(w *ecs.World) []ecs.Entity {
	var out []ecs.Entity
	all, _ := w.Entities() // between steps: never refused
	for e := range all {
		out = append(out, e)
	}
	return out
}

// A scene with events, change filters and a run condition gives the same
// events, in the same order, for every worker count and batch size.
func TestChangedEventsDeterminism(t *testing.T) {
	want, counts := changedScene(t, 0, 256)
	// Step 1 sees every row; then the pushed tenth, and after a nudge
	// (by commands: it marks the whole table) the rest too.
	require.Equal(t, []int{1000, 100, 100, 100, 1000, 100}, counts[:6])
	for _, workers := range []int{0, 1, 2, 4} {
		for _, batch := range []int{1, 17, 64, 256, 5000} {
			got, _ := changedScene(t, workers, batch)
			require.Equal(t, want, got, "W%d batch %d", workers, batch)
		}
	}
}

// A pass whose chunks hold at most one batch of rows in all (here one
// chunk per table) runs as one job, whose timeline slice counts every
// row; with more rows than a batch, one slice per chunk.
func TestWholePassOneJob(t *testing.T) {
	for _, c := range []struct{ batch, slices int }{{64, 1}, {32, 3}} {
		w := world(t, 60)
		tc := ecs.NewComponent[tag](w)
		b := w.NewCommands()
		for _, e := range ark0(w)[:20] {
			tc.Add(b, e, tag{})
		}
		_, err := w.Apply(b) // tables of 40 and 20 rows
		require.NoError(t, err)
		e := newEngine(t, w, engine.Config{Workers: 2, Batch: c.batch})
		var visited atomic.Int64
		require.NoError(t, e.Add(engine.Update, mover("m", true, func(p []pos) { visited.Add(int64(len(p))) })))
		require.NoError(t, e.Build())
		require.NoError(t, e.Tick())
		var rows []int32
		for _, s := range lastTimings(e).Timeline {
			if s.System >= 0 {
				rows = append(rows, s.Rows)
			}
		}
		require.Len(t, rows, c.slices, "batch %d", c.batch)
		sum := int32(0)
		for _, r := range rows {
			sum += r
		}
		require.Equal(t, int32(60), sum, "batch %d", c.batch)
		require.Equal(t, int64(60), visited.Load(), "batch %d", c.batch)
	}
}

// Writes through a write lookup are seen by a change filter ordered after
// them, in the same step: the lookup's system marks every table that has
// the component (it may have written any row), and only in a step where
// it got a pointer.
func TestChangedSeesWriteLookup(t *testing.T) {
	for _, workers := range []int{0, 2} {
		w := world(t, 300)
		ents := ark0(w)
		var poke, watch *engine.Pass
		step := uint64(0)
		visited := 0
		require.NoError(t, func() error {
			e := newEngine(t, w, engine.Config{Workers: workers, Serial: workers == 0, Batch: 16})
			if err := e.Add(engine.Update, &toy{name: "poke",
				build: func(b *engine.Builder) error {
					d := b.Decl()
					look := ecs.WriteLookup[pos](d)
					poke = b.ChunksInOrder("poke", ecs.NewQuery1(d, ecs.Read[vel](d)), func(c *ecs.Chunk) {
						if step%2 == 1 && c.Index() == 0 {
							if p, ok := look.Get(c, ents[250]); ok {
								p.X = -1
							}
						}
					})
					return nil
				},
				sched: func(f *engine.Frame) error { step = f.Time().Step; return f.Run(poke) }}); err != nil {
				return err
			}
			if err := e.Add(engine.Update, &toy{name: "watch",
				build: func(b *engine.Builder) error {
					d := b.Decl()
					p := ecs.Read[pos](d)
					watch = b.Chunks("watch", ecs.NewQuery1(d, p, ecs.Changed(p)), func(c *ecs.Chunk) {
						for _, x := range p.Column(c) {
							if x.X == -1 {
								visited++ // one job at a time sees row 250
							}
						}
					})
					return nil
				},
				sched: func(f *engine.Frame) error { return f.Run(watch) }}, engine.After("poke")); err != nil {
				return err
			}
			if err := e.Build(); err != nil {
				return err
			}
			for s := 1; s <= 4; s++ {
				visited = 0
				if err := e.Tick(); err != nil {
					return err
				}
				if s%2 == 1 {
					require.Equal(t, 1, visited, "W%d step %d: the row written through the lookup is visited", workers, s)
				}
			}
			return nil
		}())
	}
}
