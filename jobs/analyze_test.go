package jobs

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// handBuilt makes trace events for jobs with given costs and edges, laid
// out as if run one after another (start times only order the nodes).
func handBuilt(costs []int64, edges [][2]int) []Event {
	var ev []Event
	h := func(i int) Handle { return Handle{pool: 1, gen: 1, idx: uint32(i)} }
	t := int64(0)
	for i, c := range costs {
		ev = append(ev, Event{Kind: KindJob, Job: h(i), Label: Label{Name: "n", Chunk: i}, Start: t, End: t + c})
		t += c
	}
	for _, e := range edges {
		ev = append(ev, Event{Kind: KindEdge, From: h(e[0]), Job: h(e[1])})
	}
	return ev
}

func TestGraphKnownAnswers(t *testing.T) {
	cases := []struct {
		name    string
		costs   []int64
		edges   [][2]int // from, to
		path    []int32
		span    int64
		predict map[int]int64
	}{
		{"single", []int64{5}, nil, []int32{0}, 5, map[int]int64{1: 5, 4: 5}},
		{"chain", []int64{1, 2, 3}, [][2]int{{0, 1}, {1, 2}}, []int32{0, 1, 2}, 6, map[int]int64{1: 6, 2: 6}},
		{"independent", []int64{4, 4, 4, 4}, nil, []int32{0}, 4, map[int]int64{1: 16, 2: 8, 4: 4, 8: 4}},
		// diamond: 0 -> {1 (cost 10), 2 (cost 1)} -> 3
		{"diamond", []int64{2, 10, 1, 3}, [][2]int{{0, 1}, {0, 2}, {1, 3}, {2, 3}}, []int32{0, 1, 3}, 15, map[int]int64{1: 16, 2: 15}},
		// fork-join of 1 + 6 jobs of 3 + 1: 2 workers take 3 rounds of 3
		{"wide", []int64{1, 3, 3, 3, 3, 3, 3, 1}, [][2]int{{0, 1}, {0, 2}, {0, 3}, {0, 4}, {0, 5}, {0, 6}, {1, 7}, {2, 7}, {3, 7}, {4, 7}, {5, 7}, {6, 7}},
			[]int32{0, 1, 7}, 5, map[int]int64{1: 20, 2: 11, 3: 8, 6: 5, 16: 5}},
		// duplicate edges (a job released twice) count once
		{"dup", []int64{1, 1}, [][2]int{{0, 1}, {0, 1}}, []int32{0, 1}, 2, map[int]int64{2: 2}},
	}
	var g Graph
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g.Build(handBuilt(c.costs, c.edges))
			require.Len(t, g.Nodes, len(c.costs))
			var sum int64
			for _, x := range c.costs {
				sum += x
			}
			assert.Equal(t, sum, g.Work())
			path, span := g.CriticalPath(nil)
			assert.Equal(t, c.path, path)
			assert.Equal(t, c.span, span)
			for p, want := range c.predict {
				assert.Equal(t, want, g.Predict(p), "%d participants", p)
			}
		})
	}
}

// A range job split off another inherits its prerequisites: it cannot
// start before they finish. Jobs 0 (cost 2) -> 1 (cost 1, a range job) ->
// 3 (its join); 2 (cost 10) was split off 1 and also ends in 3. The
// critical path runs 0, 2, 3 (15), not from 2 alone (13).
func TestGraphSplitInheritsPrerequisites(t *testing.T) {
	ev := handBuilt([]int64{2, 1, 10, 3}, [][2]int{{0, 1}, {1, 3}, {2, 3}})
	h := func(i int) Handle { return Handle{pool: 1, gen: 1, idx: uint32(i)} }
	ev = append(ev, Event{Kind: KindSplit, Job: h(2), From: h(1)})
	var g Graph
	g.Build(ev)
	path, span := g.CriticalPath(nil)
	assert.Equal(t, []int32{0, 2, 3}, path)
	assert.Equal(t, int64(15), span)
	assert.Equal(t, []int32{0}, g.Preds(2))
}

// A serial trace runs a ParallelFor as one range job, its chunks one slice
// each. The chunks are separable: A (2) -> range R, 4 chunks of 5 -> join J
// (0) -> B (1) takes 23 on one participant, 13 on two, 8 on four, not 23
// for every count as when R was one node.
func TestGraphSplitsRangeJobIntoChunks(t *testing.T) {
	h := func(i int) Handle { return Handle{pool: 1, gen: 1, idx: uint32(i)} }
	ev := []Event{{Kind: KindJob, Job: h(0), Label: Label{Name: "a"}, Start: 0, End: 2}}
	for c := range 4 {
		ev = append(ev, Event{Kind: KindJob, Job: h(1), Label: Label{Name: "r", Chunk: c}, Start: int64(2 + 5*c), End: int64(7 + 5*c)})
	}
	ev = append(ev,
		Event{Kind: KindJob, Job: h(2), Label: Label{Name: "j", Chunk: -1}, Start: 22, End: 22},
		Event{Kind: KindJob, Job: h(3), Label: Label{Name: "b"}, Start: 22, End: 23},
		Event{Kind: KindEdge, From: h(0), Job: h(1)},
		Event{Kind: KindEdge, From: h(1), Job: h(2)},
		Event{Kind: KindEdge, From: h(2), Job: h(3)})
	var g Graph
	g.Build(ev)
	require.Len(t, g.Nodes, 7, "a, four chunks, j, b")
	for c := range 4 {
		assert.Equal(t, c, g.Nodes[1+c].Label.Chunk)
		assert.Equal(t, []int32{0}, g.Preds(1+c), "chunk %d depends on a only", c)
	}
	assert.Equal(t, []int32{1, 2, 3, 4}, g.Preds(5))
	assert.Equal(t, int64(23), g.Work())
	path, span := g.CriticalPath(nil)
	assert.Equal(t, []int32{0, 1, 5, 6}, path)
	assert.Equal(t, int64(8), span)
	for p, want := range map[int]int64{1: 23, 2: 13, 3: 13, 4: 8, 16: 8} {
		assert.Equal(t, want, g.Predict(p), "%d participants", p)
	}
}

func TestGraphFromRealTrace(t *testing.T) {
	p, err := New(Options{Workers: 2})
	require.NoError(t, err)
	defer p.Close()
	p.SetTracing(true)
	spin := func(*Ctx) {
		x := 0
		for i := range 20000 {
			x += i * i
		}
		_ = x
	}
	a := mustSchedule(t, p, Job{Label: Label{Name: "a"}, Run: spin})
	b := mustSchedule(t, p, Job{Label: Label{Name: "b"}, Run: spin}, a)
	c := mustSchedule(t, p, Job{Label: Label{Name: "c"}, Run: spin}, a)
	pf, err := p.ParallelFor(Job{Label: Label{Name: "pf"}, Run: spin}, 8, 1, b, c)
	require.NoError(t, err)
	require.NoError(t, p.Wait(pf))
	require.NoError(t, p.Reset())
	events, _ := p.ReadTrace(nil)
	var g Graph
	g.Build(events)
	path, span := g.CriticalPath(nil)
	require.NotEmpty(t, path)
	assert.Equal(t, "a", g.Nodes[path[0]].Label.Name)
	assert.Equal(t, "pf", g.Nodes[path[len(path)-1]].Label.Name, "the join ends the frame")
	assert.LessOrEqual(t, span, g.Work())
	assert.Equal(t, g.Work(), g.Predict(1), "one participant runs all the work back to back")
	assert.GreaterOrEqual(t, g.Predict(16), span, "no schedule beats the span")
	assert.LessOrEqual(t, g.Predict(2), g.Predict(1))

	// Steady state: rebuilding and analysing allocates nothing.
	var dst []int32
	allocs := testing.AllocsPerRun(50, func() {
		g.Build(events)
		dst, _ = g.CriticalPath(dst[:0])
		for _, w := range []int{1, 2, 4, 8, 16} {
			g.Predict(w)
		}
	})
	assert.Zero(t, allocs)
}

// TestGraphOfTwoFrames: a trace of two frames reuses arena indices under a
// new generation; Build keeps their jobs apart (the second frame's handles
// take the index's map, the first's its slice).
func TestGraphOfTwoFrames(t *testing.T) {
	frame := func(gen uint32, t0 int64) []Event {
		ev := handBuilt([]int64{3, 4}, [][2]int{{0, 1}})
		for i := range ev {
			ev[i].Job.gen, ev[i].From.gen = gen, gen
			ev[i].Start, ev[i].End = ev[i].Start+t0, ev[i].End+t0
		}
		return ev
	}
	var g Graph
	for range 2 { // the second Build reuses the index
		g.Build(append(frame(1, 0), frame(2, 100)...))
		require.Len(t, g.Nodes, 4)
		assert.Equal(t, int64(14), g.Work())
		path, span := g.CriticalPath(nil)
		assert.Equal(t, int64(7), span)
		assert.Len(t, path, 2)
		for i := range g.Nodes { // each frame's second job waits for its first, of its own frame
			if p := g.Preds(i); len(p) > 0 {
				require.Len(t, p, 1)
				assert.Equal(t, g.Nodes[i].Job.gen, g.Nodes[p[0]].Job.gen)
				assert.Equal(t, int64(3), g.Nodes[p[0]].Cost)
			}
		}
	}
}

// stepLike makes the trace of a frame like the engine's step at 50k with
// one worker: passes of chunks alternating between two participants, each
// pass a range job after a join of the one before, and the join.
func stepLike() []Event {
	var ev []Event
	h := func(i int) Handle { return Handle{pool: 1, gen: 1, idx: uint32(i)} }
	t, id := int64(0), 0
	prev := -1
	for pass := range 12 {
		rng := id
		id++
		for c := range 40 {
			ev = append(ev, Event{Kind: KindJob, Worker: c % 2, Job: h(rng), Label: Label{Name: "pass", Chunk: c}, Start: t + int64(c/2)*80, End: t + int64(c/2)*80 + 75})
		}
		t += 20*80 + 10
		join := id
		id++
		ev = append(ev, Event{Kind: KindJob, Job: h(join), Label: Label{Name: "join", Chunk: -1}, Start: t, End: t + 1})
		ev = append(ev, Event{Kind: KindEdge, From: h(rng), Job: h(join), Start: t})
		if prev >= 0 {
			ev = append(ev, Event{Kind: KindEdge, From: h(prev), Job: h(rng), Start: t - 20*80})
		}
		prev = join
		t += 5
		_ = pass
	}
	slices.SortStableFunc(ev, byStart)
	return ev
}

// BenchmarkGraphStep: what the engine's owner does with a step's trace,
// serial time in every step: Build, the critical path, and the
// predictions for 2, 4, 8 and 16 participants.
func BenchmarkGraphStep(b *testing.B) {
	ev := stepLike()
	var g Graph
	var path []int32
	b.ReportAllocs()
	for b.Loop() {
		g.Build(ev)
		path, _ = g.CriticalPath(path[:0])
		for _, p := range []int{2, 4, 8, 16} {
			g.Predict(p)
		}
	}
}
