package engine_test

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
	"github.com/weft-engine/weft/jobs"
)

// chained runs a then b, b After a, both writing pos in a chunk pass (b's
// query narrowed by filters) over 1000 entities, a tenth of them without
// vel, and returns pos after three steps, the last step's trace and the
// schedule.
func chained(t *testing.T, workers int, filters ...ecs.Filter) ([]float64, []jobs.Event, *engine.Explain) {
	w := world(t, 900)
	pc := ecs.NewComponent[pos](w)
	more := w.NewCommands()
	for i := range 100 {
		pc.Add(more, more.Spawn(), pos{float64(-i)})
	}
	_, err := w.Apply(more)
	require.NoError(t, err)
	e := newEngine(t, w, engine.Config{Workers: workers, Serial: workers == 0, Batch: 64, ChainChunks: true})
	require.NoError(t, e.Add(engine.Update, mover("a", true, func(p []pos) {
		for i := range p {
			p[i].X *= 2
		}
	})))
	var pass *engine.Pass
	require.NoError(t, e.Add(engine.Update, &toy{name: "b",
		build: func(b *engine.Builder) error {
			wr := ecs.Write[pos](b.Decl())
			pass = b.Chunks("add", ecs.NewQuery1(b.Decl(), wr, filters...), func(c *ecs.Chunk) {
				p := wr.Column(c)
				for i := range p {
					p[i].X = p[i].X*3 + 1
				}
			})
			return nil
		},
		sched: func(f *engine.Frame) error { return f.Run(pass) }}, engine.After("a")))
	require.NoError(t, e.Build())
	for range 3 {
		require.NoError(t, e.Tick())
	}
	var out []float64
	ents, err := w.Entities(pc)
	require.NoError(t, err)
	for ent := range ents {
		p, err := ecs.Get[pos](w, ent)
		require.NoError(t, err)
		out = append(out, p.X)
	}
	return out, e.AppendTrace(nil), e.Explain()
}

// Two systems over the same rows that conflict only on a column of both
// queries chain chunk by chunk: chunk k of the second waits for chunk k of
// the first alone, Explain says so, and the result is the serial one.
func TestChunkWiseChaining(t *testing.T) {
	want, _, x := chained(t, 0)
	var edge *engine.Edge
	for i := range x.Edges {
		if x.Edges[i].From == "a" && x.Edges[i].To == "b" {
			edge = &x.Edges[i]
		}
	}
	require.NotNil(t, edge)
	assert.Equal(t, engine.CauseChunks, edge.Causes[len(edge.Causes)-1].Kind)
	assert.Contains(t, edge.Causes[len(edge.Causes)-1].Text, "chunk k of b.add waits only for chunk k of a.move")

	for _, workers := range []int{1, 3} {
		got, events, _ := chained(t, workers)
		assert.Equal(t, want, got, "workers %d", workers)
		chunkOf := map[jobs.Handle]jobs.Label{}
		for _, ev := range events {
			if ev.Kind == jobs.KindJob {
				chunkOf[ev.Job] = ev.Label
			}
		}
		edges := 0
		for _, ev := range events {
			to, from := chunkOf[ev.Job], chunkOf[ev.From]
			if ev.Kind != jobs.KindEdge || to.Name != "b.add" {
				continue
			}
			require.Equal(t, "a.move", from.Name, "b.add[%d] waits for nothing but a.move's chunks", to.Chunk)
			edges++
			assert.Equal(t, from.Chunk, to.Chunk, "b.add[%d] waits for a.move[%d]", to.Chunk, from.Chunk)
		}
		assert.Equal(t, 900/64+1+100/64+1, edges, "one edge a chunk, from its twin")
	}
}

// Where the second query cuts other chunks (here: only the entities with
// vel), the pass waits for the whole first one, and the result is still
// the serial one.
func TestChunkWiseChainingNeedsTheSameChunks(t *testing.T) {
	want, _, _ := chained(t, 0, ecs.With[vel]())
	got, events, _ := chained(t, 2, ecs.With[vel]())
	assert.Equal(t, want, got)
	chunkOf := map[jobs.Handle]jobs.Label{}
	ran := 0
	for _, ev := range events {
		if ev.Kind == jobs.KindJob {
			chunkOf[ev.Job] = ev.Label
			if ev.Label.Name == "b.add" {
				ran++
			}
		}
	}
	assert.Positive(t, ran)
	for _, ev := range events {
		if ev.Kind == jobs.KindEdge && chunkOf[ev.Job].Name == "b.add" {
			assert.NotEqual(t, "a.move", chunkOf[ev.From].Name, "no chunk-to-chunk edge")
		}
	}
}

// A chained step allocates nothing in steady state.
func TestChunkWiseChainingAllocs(t *testing.T) {
	if raceOn {
		t.Skip("the race detector allocates")
	}
	w := world(t, 2000)
	e := newEngine(t, w, engine.Config{Workers: 1, Batch: 64, ChainChunks: true})
	require.NoError(t, e.Add(engine.Update, mover("a", true, func(p []pos) {})))
	require.NoError(t, e.Add(engine.Update, mover("b", true, func(p []pos) {}), engine.After("a")))
	require.NoError(t, e.Build())
	require.Contains(t, e.Explain().String(), "chunk-wise")
	for range 20 {
		require.NoError(t, e.Tick())
	}
	assert.Zero(t, testing.AllocsPerRun(20, func() { _ = e.Tick() }))
}

type tag struct{}

// Empty chunk passes that chain still wait for what comes before them, so
// that order through them holds: v, which shares no data with p but runs
// after the empty b, which chains onto the empty a, which follows p, runs
// after all of p.
func TestChunkWiseChainingEmptyPasses(t *testing.T) {
	w := world(t, 2000)
	ecs.NewComponent[tag](w) // registered, on no entity
	e := newEngine(t, w, engine.Config{Workers: 2, Batch: 64, ChainChunks: true})
	var pDone atomic.Int32 // p's chunks finished this step
	early := atomic.Int32{}
	chunkSys := func(name string, body func(c *ecs.Chunk), filters ...ecs.Filter) *toy {
		var pass *engine.Pass
		return &toy{name: name,
			build: func(b *engine.Builder) error {
				wr := ecs.Write[pos](b.Decl())
				pass = b.Chunks("p", ecs.NewQuery1(b.Decl(), wr, filters...), body)
				return nil
			},
			sched: func(f *engine.Frame) error { return f.Run(pass) }}
	}
	require.NoError(t, e.Add(engine.Update, chunkSys("p", func(c *ecs.Chunk) {
		time.Sleep(200 * time.Microsecond)
		pDone.Add(1)
	})))
	require.NoError(t, e.Add(engine.Update, chunkSys("a", func(*ecs.Chunk) {}, ecs.With[tag]()), engine.After("p")))
	require.NoError(t, e.Add(engine.Update, chunkSys("b", func(*ecs.Chunk) {}, ecs.With[tag]()), engine.After("a")))
	var vpass *engine.Pass
	require.NoError(t, e.Add(engine.Update, &toy{name: "v",
		build: func(b *engine.Builder) error {
			wr := ecs.Write[vel](b.Decl())
			vpass = b.Chunks("p", ecs.NewQuery1(b.Decl(), wr), func(*ecs.Chunk) {
				if pDone.Load() < (2000+63)/64 {
					early.Add(1)
				}
			})
			return nil
		},
		sched: func(f *engine.Frame) error { return f.Run(vpass) }}, engine.After("b")))
	require.NoError(t, e.Build())
	require.Contains(t, e.Explain().String(), "chunk k of b.p waits only for chunk k of a.p")
	for range 3 {
		pDone.Store(0)
		require.NoError(t, e.Tick())
	}
	assert.Zero(t, early.Load(), "chunks of v ran before p finished")
}
