package engine

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/jobs"
)

// handles are distinct job handles of a real pool, for hand-built traces.
func handles(t *testing.T, p *jobs.Pool, n int) []jobs.Handle {
	var hs []jobs.Handle
	for range n {
		h, err := p.Schedule(jobs.Job{})
		require.NoError(t, err)
		hs = append(hs, h)
	}
	return hs
}

// A hand-built trace of two systems: a's range job h0 runs chunks 0 (10 ns)
// and 1 (15 ns), a second range job h1 chunk 2 (12 ns), a's join h2, and
// b's single chunk h3 (20 ns) after the join. Chunks are separable: the
// critical path runs through the longest chunk (1), the join and b.
func TestTimingsFromHandBuiltTrace(t *testing.T) {
	p, err := jobs.New(jobs.Options{Workers: 0})
	require.NoError(t, err)
	defer p.Close()
	h := handles(t, p, 4)
	job := func(i int, name string, chunk, worker int, start, end int64) jobs.Event {
		return jobs.Event{Kind: jobs.KindJob, Job: h[i], Label: jobs.Label{Name: name, Chunk: chunk}, Worker: worker, Start: start, End: end}
	}
	edge := func(from, to int, at int64) jobs.Event {
		return jobs.Event{Kind: jobs.KindEdge, From: h[from], Job: h[to], Start: at}
	}
	events := []jobs.Event{ // in start order, as ReadTrace gives them
		job(0, "a.p", 0, 0, 100, 110), job(1, "a.p", 2, 1, 100, 112), job(0, "a.p", 1, 0, 110, 125),
		edge(1, 2, 112), job(2, "a.p", -1, 0, 125, 125), edge(0, 2, 125), edge(2, 3, 125), job(3, "b.p", 0, 0, 125, 145),
	}
	a, b := &entry{name: "a", stage: Update}, &entry{name: "b", stage: PreRender, index: 1}
	e := &Engine{cfg: Config{Window: 3}, res: resources{time: &Time{}}, run: runner{pool: p},
		sched: schedule{labels: map[string]*Pass{"a.p": {sys: a}, "b.p": {sys: b}}, par: []*entry{a, b}, all: []*entry{a, b}}}
	tm := &e.out.timings
	tm.init(e)
	tm.resetWorkers(e)
	for step, total := range []time.Duration{3, 1, 2, 9} {
		e.res.time.Step = uint64(step + 1)
		tm.begin(e)
		tm.segment(e, events, 0)
		tm.end(e, total)
	}
	st := tm.Last()
	sa, sb := st.System("a"), st.System("b")
	assert.Equal(t, SystemTimings{Name: "a", Stage: Update, Span: 25, Work: 37, Jobs: 3, first: 100, last: 125}, *sa)
	assert.Equal(t, SystemTimings{Name: "b", Stage: PreRender, Span: 20, Work: 20, Jobs: 1, first: 125, last: 145}, *sb)
	assert.Equal(t, StageTimings{Span: 25, Work: 37}, st.Stages[Update])
	assert.Equal(t, StageTimings{Span: 20, Work: 20}, st.Stages[PreRender])
	assert.Equal(t, time.Duration(57), st.Work)
	assert.Equal(t, time.Duration(35), st.Span)
	assert.InDelta(t, 57.0/35, st.Parallelism, 1e-9)
	assert.Equal(t, []PathJob{{"a.p", 1, 1, 15}, {"a.p", -1, -1, 0}, {"b.p", 0, 0, 20}}, st.Critical)
	// 2 participants: chunks 0 and 1 at once, chunk 2 after chunk 0 (10 +
	// 12), then the join and b: 42.
	assert.Equal(t, [5]time.Duration{57, 42, 35, 35, 35}, st.Predicted)
	assert.Equal(t, 4, st.Chunks)
	assert.Len(t, st.Timeline, 5)
	assert.Equal(t, Slice{Label: "a.p", System: 0, Chunk: 2, Worker: 1, Start: 0, End: 12}, st.Timeline[1])
	assert.Equal(t, int32(-1), st.Timeline[3].System) // the join is the engine's
	assert.Equal(t, Slice{Label: "b.p", System: 1, Chunk: 0, Worker: 0, Critical: true, Start: 25, End: 45}, st.Timeline[4])
	var critical []bool
	for _, s := range st.Timeline {
		critical = append(critical, s.Critical)
	}
	assert.Equal(t, []bool{false, false, true, true, true}, critical, "h0's chunk 1, the join and b; not chunk 0 or h1")
	// The window keeps the last 3 steps: totals 1, 2, 9 ns.
	s := tm.Summary()
	assert.Equal(t, 3, s.Steps)
	assert.Equal(t, Stat{P50: 2e-6, P95: 9e-6, P99: 9e-6, Max: 9e-6}, s.Total)
	assert.Equal(t, Stat{P50: 37e-6, P95: 37e-6, P99: 37e-6, Max: 37e-6}, s.Systems[0].Work)
	assert.Contains(t, tm.String(), "a.p                      chunks 1..1")

	// A step of 60 ns whose jobs spanned 45 (100 to 145): the owner's 15 ns
	// outside the jobs (scheduling, merges, playback) come on top of every
	// prediction, since more participants do not shorten them.
	e.res.time.Step++
	tm.begin(e)
	tm.segment(e, events, 0)
	tm.end(e, 60)
	assert.Equal(t, [5]time.Duration{72, 57, 50, 50, 50}, tm.Last().Predicted)
}

func TestQuantiles(t *testing.T) {
	v := make([]float64, 100)
	for i := range v {
		v[i] = float64(100 - i)
	}
	assert.Equal(t, Stat{P50: 50, P95: 95, P99: 99, Max: 100}, quantiles(v))
	assert.Equal(t, Stat{P50: 7, P95: 7, P99: 7, Max: 7}, quantiles([]float64{7}))
	assert.Equal(t, Stat{}, quantiles(nil))
}
