package profile

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/engine"
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

// handBuilt is a record of two systems: a's range job h0 runs chunks 0
// (10 ns) and 1 (15 ns), a second range job h1 chunk 2 (12 ns), a's join
// h2, and b's single chunk h3 (20 ns) after the join. Chunks are
// separable: the critical path runs through the longest chunk (1), the
// join and b. The step starts at 100, when the first job does.
func handBuilt(t *testing.T) *engine.StepRecord {
	p, err := jobs.New(jobs.Options{Workers: 0})
	require.NoError(t, err)
	t.Cleanup(func() { p.Close() })
	h := handles(t, p, 4)
	job := func(i int, name string, chunk, worker int, start, end int64) jobs.Event {
		return jobs.Event{Kind: jobs.KindJob, Job: h[i], Label: jobs.Label{Name: name, Chunk: chunk}, Worker: worker, Start: start, End: end}
	}
	edge := func(from, to int, at int64) jobs.Event {
		return jobs.Event{Kind: jobs.KindEdge, From: h[from], Job: h[to], Start: at}
	}
	a, b, none := engine.JobInfo{System: 0, Rows: 10}, engine.JobInfo{System: 1, Rows: 5}, engine.JobInfo{System: -1}
	l := &engine.Layout{Systems: []engine.SystemInfo{{Name: "a", Stage: engine.Update}, {Name: "b", Stage: engine.PreRender}}}
	rec := &engine.StepRecord{Layout: l, Start: 100, Systems: make([]engine.SystemRecord, 2), Segments: []int{0},
		Jobs: []jobs.Event{ // in start order, as ReadTrace gives them
			job(0, "a.p", 0, 0, 100, 110), job(1, "a.p", 2, 1, 100, 112), job(0, "a.p", 1, 0, 110, 125),
			edge(1, 2, 112), job(2, "a.p", -1, 0, 125, 125), edge(0, 2, 125), edge(2, 3, 125), job(3, "b.p", 0, 0, 125, 145),
		},
		JobInfo: []engine.JobInfo{a, a, a, none, none, none, none, b},
	}
	return rec
}

func TestTimingsFromHandBuiltRecord(t *testing.T) {
	rec := handBuilt(t)
	p := NewDetached(Options{Window: 3})
	for step, total := range []int64{3, 1, 2, 9} {
		rec.Step, rec.End = uint64(step+1), rec.Start+total
		p.Add(rec)
	}
	st := p.Last()
	assert.Equal(t, uint64(4), st.Step)
	sa, sb := st.System("a"), st.System("b")
	assert.Equal(t, SystemTimings{Name: "a", Stage: engine.Update, Ran: true, Span: 25, Work: 37, Jobs: 3, first: 100, last: 125}, *sa)
	assert.Equal(t, SystemTimings{Name: "b", Stage: engine.PreRender, Ran: true, Span: 20, Work: 20, Jobs: 1, first: 125, last: 145}, *sb)
	assert.Equal(t, StageTimings{Span: 25, Work: 37}, st.Stages[engine.Update])
	assert.Equal(t, StageTimings{Span: 20, Work: 20}, st.Stages[engine.PreRender])
	assert.Equal(t, time.Duration(57), st.Work)
	assert.Equal(t, time.Duration(35), st.Span)
	assert.InDelta(t, 57.0/35, st.Parallelism, 1e-9)
	assert.Equal(t, []PathJob{{"a.p", 1, 1, 15}, {"a.p", -1, -1, 0}, {"b.p", 0, 0, 20}}, st.Critical)
	// 2 participants: chunks 0 and 1 at once, chunk 2 after chunk 0 (10 +
	// 12), then the join and b: 42.
	assert.Equal(t, [5]time.Duration{57, 42, 35, 35, 35}, st.Predicted)
	assert.Equal(t, 4, st.Chunks)
	assert.Len(t, st.Timeline, 5)
	assert.Equal(t, Slice{Label: "a.p", System: 0, Chunk: 2, Rows: 10, Worker: 1, Start: 0, End: 12}, st.Timeline[1])
	assert.Equal(t, int32(-1), st.Timeline[3].System) // the join is the engine's
	assert.Equal(t, Slice{Label: "b.p", System: 1, Chunk: 0, Rows: 5, Worker: 0, Critical: true, Start: 25, End: 45}, st.Timeline[4])
	var critical []bool
	for _, s := range st.Timeline {
		critical = append(critical, s.Critical)
	}
	assert.Equal(t, []bool{false, false, true, true, true}, critical, "h0's chunk 1, the join and b; not chunk 0 or h1")
	// The window keeps the last 3 steps: totals 1, 2, 9 ns.
	s := p.Summary()
	assert.Equal(t, 3, s.Steps)
	assert.Equal(t, Stat{P50: 2e-6, P95: 9e-6, P99: 9e-6, Max: 9e-6}, s.Total)
	assert.Equal(t, Stat{P50: 37e-6, P95: 37e-6, P99: 37e-6, Max: 37e-6}, s.Systems[0].Work)
	assert.Contains(t, p.String(), "a.p                      chunks 1..1")
	assert.Equal(t, uint64(2), p.At(0).Step, "the oldest kept")
	assert.Equal(t, uint64(3), p.Find(3).Step)
	assert.Nil(t, p.Find(1), "dropped from the window")

	// A step of 60 ns whose jobs spanned 45 (100 to 145): the owner's 15 ns
	// outside the jobs (scheduling, merges, playback) come on top of every
	// prediction, since more participants do not shorten them.
	rec.Step, rec.End = 5, rec.Start+60
	p.Add(rec)
	assert.Equal(t, [5]time.Duration{72, 57, 50, 50, 50}, p.Last().Predicted)
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

// The owner's time outside its phases is named: "GC" where a pause
// overlaps it, "owner not running" otherwise; gaps under MinGap are not.
func TestGaps(t *testing.T) {
	us := int64(time.Microsecond)
	rec := &engine.StepRecord{Layout: &engine.Layout{}, Start: 1000, End: 1000 + 200*us,
		Phases: []engine.Phase{
			{Kind: engine.PhaseSettings, System: -1, Start: 1000, End: 1000 + 10*us},
			{Kind: engine.PhaseConditions, System: -1, Start: 1000 + 15*us, End: 1000 + 20*us}, // 5 µs: not a gap
			{Kind: engine.PhaseWait, System: -1, Start: 1000 + 70*us, End: 1000 + 100*us},      // 50 µs, GC in it
			{Kind: engine.PhaseRecord, System: -1, Start: 1000 + 150*us, End: 1000 + 160*us},   // 50 µs, no GC
		},
		GC: []engine.GCPause{{Cycle: 7, Start: 1000 + 30*us, End: 1000 + 40*us}, {Cycle: 6, Start: 0, End: 500}},
	}
	var st StepTimings
	Analyse(&st, rec)
	assert.Equal(t, []Gap{
		{Cause: "GC", Start: 20 * us, End: 70 * us},
		{Cause: "owner not running", Start: 100 * us, End: 150 * us},
		{Cause: "owner not running", Start: 160 * us, End: 200 * us},
	}, st.Gaps)
	assert.Equal(t, time.Duration(10*us), st.GCTime)
	assert.Equal(t, time.Duration(500), st.GCOutside, "the pause before the step")
	assert.Equal(t, []GCPause{{Cycle: 7, Start: 30 * us, End: 40 * us}, {Cycle: 6, Start: -1000, End: -500}}, st.GC)
}

// Only the last Detail steps keep their detail (timeline, phases, marks,
// critical path, GC); older ones keep their figures; the buffers pass on,
// so a full window allocates nothing.
func TestDetail(t *testing.T) {
	rec := handBuilt(t)
	rec.Phases = []engine.Phase{{Kind: engine.PhaseWait, System: -1, Start: 100, End: 145}}
	p := NewDetached(Options{Window: 5, Detail: 2})
	for step := range 7 {
		rec.Step, rec.End = uint64(step+1), rec.Start+50
		p.Add(rec)
	}
	require.Equal(t, 5, p.Len())
	for i := range p.Len() {
		st := p.At(i)
		assert.Equal(t, uint64(i+3), st.Step)
		assert.Equal(t, time.Duration(57), st.Work, "figures kept: step %d", st.Step)
		if i < 3 {
			assert.Empty(t, st.Timeline, "step %d: detail dropped", st.Step)
			assert.Empty(t, st.Phases)
		} else {
			assert.Len(t, st.Timeline, 5, "step %d: detail kept", st.Step)
			assert.Len(t, st.Phases, 1)
		}
	}
	assert.Zero(t, testing.AllocsPerRun(20, func() { rec.Step++; p.Add(rec) }))
}
