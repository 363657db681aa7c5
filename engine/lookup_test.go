package engine_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
)

// looker reads pos of every entity through a lookup (and, if column, as
// a read column of its own query too).
func looker(name string, column bool) *toy {
	var pass *engine.Pass
	return &toy{name: name,
		build: func(b *engine.Builder) error {
			d := b.Decl()
			look := ecs.ReadLookup[pos](d)
			var q engine.Query
			if column {
				q = ecs.NewQuery1(d, ecs.Read[pos](d))
			} else {
				q = ecs.NewQuery1(d, ecs.Read[vel](d))
			}
			pass = b.Chunks("look", q, func(c *ecs.Chunk) {
				for _, e := range c.Entities() {
					look.Get(e)
				}
			})
			return nil
		},
		sched: func(f *engine.Frame) error { return f.Run(pass) },
	}
}

// A read lookup declares a read of its component over the whole world:
// it follows the writers, an unordered conflict in one stage is an
// ambiguity, Explain names the lookup, it never chains chunk-wise, and it
// runs beside readers of the same component (no false positive).
func TestLookupOrderAndExplain(t *testing.T) {
	e := newEngine(t, world(t, 10), engine.Config{Workers: 2})
	require.NoError(t, e.Add(engine.Update, mover("move", true, noop)))
	require.NoError(t, e.Add(engine.Update, looker("seek", false)))
	err := e.Build()
	require.ErrorIs(t, err, engine.ErrAmbiguity)
	assert.ErrorContains(t, err, `"move" and "seek"`)

	e = newEngine(t, world(t, 10), engine.Config{Workers: 2, ChainChunks: true})
	require.NoError(t, e.Add(engine.Update, mover("move", true, noop)))
	require.NoError(t, e.Add(engine.Update, looker("seek", true), engine.After("move")))
	require.NoError(t, e.Add(engine.Update, mover("read", false, noop), engine.After("move")))
	require.NoError(t, e.Add(engine.Update, looker("seek2", false), engine.After("move")))
	require.NoError(t, e.Add(engine.PostUpdate, mover("late", true, noop)))
	require.NoError(t, e.Build())
	text := e.Explain().String()
	assert.Contains(t, text, "seek [Update] reads pos; looks up pos;")
	assert.Contains(t, text, "move -> seek\n      order: seek is After move\n      lookup: move writes pos, seek reads it through a lookup (any entity) (explicit order)\n")
	assert.Contains(t, text, "chunk k of read.look waits only for chunk k of move.move", "columns alone chain")
	assert.NotContains(t, text, "of seek", "a lookup reads any row: it cannot wait for chunk k alone, nor be waited for so")
	assert.Contains(t, text, "seek -> late\n      lookup: seek reads pos through a lookup (any entity), late writes it (stage order)")
	for _, ed := range e.Explain().Edges {
		pair := ed.From + " " + ed.To
		assert.NotContains(t, []string{"seek read", "read seek", "seek seek2", "seek2 seek", "read seek2", "seek2 read"}, pair, "readers of pos, through lookups or columns, run in parallel")
	}
	for range 3 {
		require.NoError(t, e.Tick())
	}
}

// A write of a resource from chunk jobs that may run at the same time is
// refused with the system, the resource and the fix; the engine stays
// usable; a pass that runs in order may write it.
func TestRacyResourceWriteIsRefused(t *testing.T) {
	type score struct{ Reaped int }
	for _, inOrder := range []bool{false, true} {
		w := world(t, 1000)
		require.NoError(t, ecs.AddResource(w, &score{}))
		e := newEngine(t, w, engine.Config{Workers: 2, Batch: 64})
		var pass *engine.Pass
		var sc ecs.ResWriter[score]
		require.NoError(t, e.Add(engine.Update, &toy{name: "reaper",
			build: func(b *engine.Builder) error {
				d := b.Decl()
				sc = ecs.WriteRes[score](d)
				q := ecs.NewQuery1(d, ecs.Read[pos](d))
				body := func(c *ecs.Chunk) { sc.In(c).Reaped += c.Len() }
				if inOrder {
					pass = b.ChunksInOrder("reap", q, body)
				} else {
					pass = b.Chunks("reap", q, body)
				}
				return nil
			},
			sched: func(f *engine.Frame) error { return f.Run(pass) }}))
		require.NoError(t, e.Build())
		err := e.Tick()
		if inOrder {
			require.NoError(t, err)
			assert.Equal(t, 1000, sc.Get().Reaped)
			continue
		}
		require.ErrorIs(t, err, ecs.ErrRacyWrite)
		assert.ErrorContains(t, err, `system "reaper" wrote resource engine_test.score from a chunk job that may run beside other chunk jobs; collect per-chunk values with ecs.NewReduction and add them up in Merge, or run the pass as one job with engine Builder.ChunksInOrder`)
		require.ErrorIs(t, e.Tick(), ecs.ErrRacyWrite, "refused every step, never silently")
	}
}

// Random systems over four components, each reading or writing some
// through query columns and some through lookups, in random stages: the
// built order puts every conflicting pair in order, adds no edge between
// systems that share nothing, and every step passes the tracker's check
// (no two conflicting jobs runnable at once) on two workers.
func TestPropertyLookups(t *testing.T) {
	for seed := range uint64(30) {
		rng := rand.New(rand.NewPCG(seed, 7))
		w := ecs.NewWorld(ecs.Options{})
		ca, cb, cc, cd := ecs.NewComponent[ta](w), ecs.NewComponent[tb](w), ecs.NewComponent[tc](w), ecs.NewComponent[td](w)
		cmd := w.NewCommands()
		for i := range 200 {
			en := cmd.Spawn()
			ca.Add(cmd, en, ta{i})
			if i%2 == 0 {
				cb.Add(cmd, en, tb{i})
			}
			cc.Add(cmd, en, tc{i})
			if i%3 == 0 {
				cd.Add(cmd, en, td{i})
			}
		}
		_, err := w.Apply(cmd)
		require.NoError(t, err)
		e := newEngine(t, w, engine.Config{Workers: 2, Batch: 16, ChainChunks: true})
		n := 2 + rng.IntN(5)
		modes := make([][4]int, n) // per component: 0 none, 1 read column, 2 write column, 3 read lookup, 4 write lookup
		for i := range n {
			for k := range 4 {
				modes[i][k] = rng.IntN(5)
			}
			modes[i][0] = 1 + rng.IntN(2) // the query's first column, so that it runs chunks
			var after []string
			for j := range i {
				if conflicts(modes[i], modes[j]) {
					after = append(after, fmt.Sprint("s", j))
				}
			}
			require.NoError(t, e.Add(engine.Update, randomSystem(fmt.Sprint("s", i), modes[i]), engine.After(after...)))
		}
		require.NoError(t, e.Build(), "seed %d", seed)
		x := e.Explain()
		for _, ed := range x.Edges {
			var i, j int
			fmt.Sscanf(ed.From, "s%d", &i)
			fmt.Sscanf(ed.To, "s%d", &j)
			require.True(t, conflicts(modes[i], modes[j]), "seed %d: edge %s -> %s between systems that share nothing", seed, ed.From, ed.To)
			lookup := slices.ContainsFunc(ed.Causes, func(c engine.Cause) bool { return c.Kind == engine.CauseLookup })
			assert.Equal(t, viaLookup(modes[i], modes[j]), lookup, "seed %d: %s -> %s", seed, ed.From, ed.To)
		}
		for range 2 {
			require.NoError(t, e.Tick(), "seed %d", seed)
		}
	}
}

// conflicts reports whether two systems' modes (see TestPropertyLookups)
// touch a component that one of them writes.
func conflicts(x, y [4]int) bool {
	for k := range 4 {
		if x[k] != 0 && y[k] != 0 && (x[k]%2 == 0 || y[k]%2 == 0) {
			return true
		}
	}
	return false
}

// viaLookup reports whether x and y conflict on a component one of them
// reaches through a lookup.
func viaLookup(x, y [4]int) bool {
	for k := range 4 {
		if x[k] != 0 && y[k] != 0 && (x[k]%2 == 0 || y[k]%2 == 0) && (x[k] >= 3 || y[k] >= 3) {
			return true
		}
	}
	return false
}

type ta struct{ V int }
type tb struct{ V int }
type tc struct{ V int }
type td struct{ V int }

// randomSystem declares modes over components ta..td; ta is the query's
// one column, the others are declared (modes 1, 2) or looked up in every
// row of the chunk (3, 4). With a write lookup it runs in order, as it
// must.
func randomSystem(name string, modes [4]int) *toy {
	var pass *engine.Pass
	return &toy{name: name,
		build: func(bd *engine.Builder) error {
			d := bd.Decl()
			var col ecs.Col[ta]
			if modes[0] == 1 {
				col = ecs.Read[ta](d)
			} else {
				w := ecs.Write[ta](d)
				col = w
			}
			touch := []func(c *ecs.Chunk){touchOf[tb](d, modes[1]), touchOf[tc](d, modes[2]), touchOf[td](d, modes[3])}
			body := func(c *ecs.Chunk) {
				col.Column(c)
				for _, f := range touch {
					f(c)
				}
			}
			q := ecs.NewQuery1(d, col)
			if slices.Contains(modes[1:], 4) {
				pass = bd.ChunksInOrder("p", q, body)
			} else {
				pass = bd.Chunks("p", q, body)
			}
			return nil
		},
		sched: func(f *engine.Frame) error { return f.Run(pass) },
	}
}

// touchOf declares T in mode and returns what a chunk job does with it:
// nothing for a declaration alone, a Get of every row's entity for a
// lookup (and a write back, for a write lookup).
func touchOf[T any](d *ecs.Decl, mode int) func(c *ecs.Chunk) {
	switch mode {
	case 1:
		ecs.Read[T](d)
	case 2:
		ecs.Write[T](d)
	case 3:
		look := ecs.ReadLookup[T](d)
		return func(c *ecs.Chunk) {
			for _, e := range c.Entities() {
				look.Get(e)
			}
		}
	case 4:
		look := ecs.WriteLookup[T](d)
		return func(c *ecs.Chunk) {
			for _, e := range c.Entities() {
				if p, ok := look.Get(c, e); ok {
					var zero T
					*p = zero
				}
			}
		}
	}
	return func(*ecs.Chunk) {}
}

// A write lookup in a pass that runs in order writes any entity; the
// writes land in row order, so the world is the same, bit for bit, for
// every worker count and batch, though the update does not commute.
func TestWriteLookupInOrderMatchesSerial(t *testing.T) {
	run := func(workers, batch int) []float64 {
		w := world(t, 300)
		var all []ecs.Entity
		ents, err := w.Entities(ecs.NewComponent[pos](w))
		require.NoError(t, err)
		for en := range ents {
			all = append(all, en)
		}
		e := newEngine(t, w, engine.Config{Workers: workers, Serial: workers == 0, Batch: batch})
		var pass *engine.Pass
		require.NoError(t, e.Add(engine.Update, &toy{name: "push",
			build: func(b *engine.Builder) error {
				d := b.Decl()
				look := ecs.WriteLookup[pos](d)
				q := ecs.NewQuery1(d, ecs.Read[vel](d))
				pass = b.ChunksInOrder("push", q, func(c *ecs.Chunk) {
					for _, en := range c.Entities() {
						if p, ok := look.Get(c, all[int(en.ID()*7)%len(all)]); ok {
							p.X = p.X*0.5 + float64(en.ID())
						}
					}
				})
				return nil
			},
			sched: func(f *engine.Frame) error { return f.Run(pass) }}))
		require.NoError(t, e.Build())
		for range 3 {
			require.NoError(t, e.Tick())
		}
		var out []float64
		for en := range ents {
			p, err := ecs.Get[pos](w, en)
			require.NoError(t, err)
			out = append(out, p.X)
		}
		return out
	}
	want := run(0, 1)
	for _, workers := range []int{0, 1, 2, 4, 8} {
		for _, batch := range []int{1, 7, 64, 1024} {
			assert.Equal(t, want, run(workers, batch), "W%d batch %d", workers, batch)
		}
	}
}
