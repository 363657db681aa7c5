package engine_test

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
	"github.com/weft-engine/weft/profile"
)

// marked is a system whose chunk job marks an outer span, an inner one
// nested in it, and counts its rows; worker overrides the participant
// index passed (for misuse), when not -1.
func marked(worker *int) *toy {
	var pass *engine.Pass
	var outer, inner engine.Marker
	var rows engine.Counter
	return &toy{name: "marked",
		build: func(b *engine.Builder) error {
			d := b.Decl()
			w := ecs.Write[pos](d)
			outer, inner, rows = b.Marker("outer"), b.Marker("inner"), b.Counter("rows")
			if b.Marker("outer") != outer {
				return errors.New("the same name must give the same marker")
			}
			pass = b.Chunks("move", ecs.NewQuery1(d, w), func(c *ecs.Chunk) {
				wk := c.Worker()
				if worker != nil && *worker != -1 {
					wk = *worker
				}
				o := outer.Begin(wk)
				in := inner.Begin(wk)
				for i := range w.Column(c) {
					w.Column(c)[i].X++
				}
				in.End()
				o.End()
				rows.Add(wk, int64(c.Len()))
			})
			return nil
		},
		sched: func(f *engine.Frame) error { return f.Run(pass) },
	}
}

func TestMarkersAndCounters(t *testing.T) {
	for _, workers := range []int{0, 2} {
		e := newEngine(t, world(t, 1000), engine.Config{Workers: workers, Serial: workers == 0, Batch: 100})
		e.Add(engine.Update, marked(nil))
		require.NoError(t, e.Build())
		prof := profile.New(e, profile.Options{})
		for range 3 {
			require.NoError(t, e.Tick())
		}
		st := lastTimings(e)
		require.Len(t, st.Markers, 2)
		assert.Equal(t, "marked.outer", st.Markers[0].Name)
		assert.Equal(t, "marked.inner", st.Markers[1].Name)
		assert.Equal(t, int32(0), st.Markers[0].System)
		assert.Equal(t, 10, st.Markers[0].Calls, "a span a chunk")
		assert.Equal(t, 10, st.Markers[1].Calls)
		require.Len(t, st.Counters, 1)
		assert.Equal(t, profile.CounterValue{Name: "marked.rows", System: 0, Value: 1000}, st.Counters[0])
		require.Len(t, st.Marks, 20)
		depths := map[int32]int32{}
		for _, m := range st.Marks {
			depths[m.Marker] = m.Depth
			assert.LessOrEqual(t, m.Start, m.End)
			assert.Less(t, int(m.Worker), workers+1)
		}
		assert.Equal(t, map[int32]int32{0: 0, 1: 1}, depths, "inner nests in outer")
		assert.Zero(t, st.MarksLost)

		sum := prof.Summary()
		require.Len(t, sum.Markers, 2)
		assert.Equal(t, 10.0, sum.Markers[0].Calls.P50)
		assert.Equal(t, 1000.0, sum.Counters[0].Value.Max)
		table := prof.String()
		assert.Contains(t, table, "marker marked.outer")
		assert.Contains(t, table, "counter marked.rows")

		e.SetMarkerSpans(false)
		require.NoError(t, e.Tick())
		st = lastTimings(e)
		assert.Empty(t, st.Marks, "spans off")
		assert.Zero(t, st.Markers[0].Calls)
		assert.Equal(t, int64(1000), st.Counters[0].Value, "counters count with spans off")
	}
}

// A participant index out of range is reported with the marker's name
// and what to pass; the engine stays usable.
func TestMarkerWrongWorker(t *testing.T) {
	wk := 7
	e := newEngine(t, world(t, 300), engine.Config{Workers: 1, Batch: 100})
	e.Add(engine.Update, marked(&wk))
	require.NoError(t, e.Build())
	err := e.Tick()
	require.Error(t, err)
	assert.True(t, errors.Is(err, engine.ErrJob), "%v", err)
	assert.Contains(t, err.Error(), `"marked.outer" used with participant 7`)
	assert.Contains(t, err.Error(), "c.Worker()")
	wk = -1
	require.NoError(t, e.Tick(), "usable after")
	assert.Equal(t, int64(300), lastTimings(e).Counters[0].Value)
}

// Marking and counting allocate nothing, with spans on and off, and when
// the buffer is full.
func TestMarkerAllocs(t *testing.T) {
	var m engine.Marker
	var n engine.Counter
	e := newEngine(t, world(t, 10), engine.Config{Serial: true})
	e.Add(engine.Update, &toy{name: "s",
		build: func(b *engine.Builder) error { m, n = b.Marker("m"), b.Counter("n"); return nil },
		sched: func(*engine.Frame) error { return nil }})
	require.NoError(t, e.Build())
	require.NoError(t, e.Tick())
	for _, on := range []bool{true, false} {
		e.SetMarkerSpans(on)
		// 5000 runs: the span buffer fills, then spans are counted lost.
		assert.Zero(t, testing.AllocsPerRun(5000, func() {
			sp := m.Begin(0)
			n.Add(0, 1)
			sp.End()
		}), "spans %v", on)
	}
	var zero engine.Marker
	zero.Begin(0).End() // the zero marker records nothing
	engine.Counter{}.Add(0, 1)
}

// BenchmarkMarker is the cost of a Begin/End pair on the owner, with
// spans recorded and not: ns/marker. An op is a step's worth of 1000
// pairs and then a step, which empties the buffers; the step is not in
// ns/marker.
func BenchmarkMarker(b *testing.B) {
	for _, on := range []bool{true, false} {
		name := "spans=off"
		if on {
			name = "spans=on"
		}
		b.Run(name, func(b *testing.B) {
			var m engine.Marker
			w := ecs.NewWorld(ecs.Options{})
			e, err := engine.New(w, engine.Config{Serial: true})
			require.NoError(b, err)
			defer e.Close()
			e.Add(engine.Update, &toy{name: "s",
				build: func(bd *engine.Builder) error { m = bd.Marker("m"); return nil },
				sched: func(*engine.Frame) error { return nil }})
			require.NoError(b, e.Build())
			require.NoError(b, e.Tick())
			e.SetMarkerSpans(on)
			b.ReportAllocs()
			var in time.Duration
			for b.Loop() {
				t := time.Now()
				for range 1000 {
					m.Begin(0).End()
				}
				in += time.Since(t)
				if err := e.Tick(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(in.Nanoseconds())/float64(b.N)/1000, "ns/marker")
			if on && lastTimings(e).MarksLost > 0 {
				b.Fatal("spans lost: the buffer was too small for a step's worth")
			}
		})
	}
}
