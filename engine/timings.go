package engine

import (
	"cmp"
	"math"
	"slices"
	"time"

	"github.com/weft-engine/weft/jobs"
)

// NumPredicted is the number of pool sizes StepTimings.Predicted is
// computed for.
const NumPredicted = 5

// PredictParticipants are the pool sizes (owner included) that
// StepTimings.Predicted is computed for: 1, 2, 4, 8 and 16.
func PredictParticipants() [NumPredicted]int { return [NumPredicted]int{1, 2, 4, 8, 16} }

// StepTimings is where one fixed step's time went. Times of jobs come
// from the pool's trace; owner times from the owner's clock.
type StepTimings struct {
	Step     uint64
	Total    time.Duration // the whole step, on the owner
	Schedule time.Duration // owner time in the systems' Schedule
	Wait     time.Duration // owner time in Wait (helping runs jobs meanwhile)
	Playback time.Duration // command playback (World.EndFrame)
	Merge    time.Duration // owner time in Merge and exclusive systems
	Stages   [numStages]StageTimings
	Systems  []SystemTimings // in built order
	Workers  []WorkerTimings // owner first
	Jobs     uint64          // job records executed (range jobs, joins, combines)
	Chunks   int             // chunk slices traced
	Steals   uint64
	Commands int // commands applied
	Problems int // commands skipped (dead entities, missing components)
	Lost     uint64

	// From the recorded job graph (per segment between exclusive systems,
	// added up): work, span, critical path, parallelism, predictions.
	Work, Span  time.Duration
	Parallelism float64
	Critical    []PathJob
	// Predicted is the step time for each of PredictParticipants: the
	// owner's time outside the segments' jobs (Total less each segment's
	// first job start to last job end: scheduling, merges, playback,
	// exclusive systems), which more participants do not shorten, plus
	// each segment's job graph scheduled on that many participants
	// (jobs.Graph.Predict).
	Predicted [NumPredicted]time.Duration
	// Timeline has one slice per chunk job, for a per-worker view; Start
	// and End are nanoseconds since the step's first job started.
	Timeline []Slice
	// Marks are the spans of the systems' markers, on Timeline's clock.
	Marks     []MarkSpan
	MarksLost uint64          // spans of full buffers, not recorded
	Markers   []MarkerTimings // by marker, in the order they were made
	Counters  []CounterValue  // by counter, in the order they were made
}

// StageTimings is a stage's share of a step.
type StageTimings struct {
	Span time.Duration // first job start to last job end of its systems
	Work time.Duration // summed job time of its systems
}

// SystemTimings is a system's share of a step.
type SystemTimings struct {
	Name     string
	Stage    Stage
	Ran      bool          // enabled this step, and its run conditions held
	Skipped  bool          // enabled, but a run condition did not hold: it ran nothing (not "took zero")
	Schedule time.Duration // owner time in its Schedule
	Span     time.Duration // its first job's start to its last job's end
	Work     time.Duration // summed time of its chunk jobs
	Merge    time.Duration // owner time in its Merge (or Run, if exclusive)
	Jobs     int           // chunk jobs run
	Entities int           // rows of its queries' chunks this step

	first, last int64
}

// WorkerTimings is one participant's share of a step.
type WorkerTimings struct {
	Busy   time.Duration
	Jobs   uint64
	Steals uint64
}

// PathJob is one job of the critical path: a system's pass over a range
// of chunks (range jobs run consecutive chunks).
type PathJob struct {
	Label       string
	First, Last int // chunks; -1 for a join or a combine
	Cost        time.Duration
}

// Slice is one chunk job in the timeline.
type Slice struct {
	Label      string // the pass, e.g. "physics.grid"
	System     int32  // index into StepTimings.Systems; -1 for engine jobs
	Chunk      int32
	Rows       int32 // entities in the chunk; 0 for range passes and engine jobs
	Worker     int32 // 0 is the owner
	Critical   bool  // the job is on the step's critical path
	Start, End int64
}

// sysAcc is what the owner measures per system during a step.
type sysAcc struct {
	sched, merge time.Duration
	ran, skipped bool
}

// Timings keeps the last step's timings and a rolling window of them.
// Executed only by the owner.
type Timings struct {
	Dropped uint64 // fixed steps dropped by the Config.MaxSteps cap

	cur   StepTimings
	ring  []StepTimings
	n     int // steps in ring
	next  int
	t0    int64
	t0Set bool
	prev  []jobs.WorkerStats
	stats []jobs.WorkerStats
	graph jobs.Graph
	path  []int32
	slot  []int32 // a segment's event index → its Timeline index, or -1

	sum    Summary
	scr    []float64
	window int

	wait, playback    time.Duration
	applied, problems int
	jobsExtent        int64 // the segments' first job start to last job end, added up
	from, to          int64 // the step's start and end on the marks clock

	marks marks
}

func (t *Timings) init(e *Engine) {
	t.window = e.cfg.Window
	t.marks.init(e)
	mk := func(st *StepTimings) {
		t.marks.rows(st)
		st.Systems = make([]SystemTimings, len(e.sched.par)+len(e.sched.excl))
		for i, en := range e.sched.par {
			st.Systems[i].Name, st.Systems[i].Stage = en.name, en.stage
		}
		for i, en := range e.sched.excl {
			st.Systems[len(e.sched.par)+i].Name, st.Systems[len(e.sched.par)+i].Stage = en.name, en.stage
		}
	}
	mk(&t.cur)
	t.ring = make([]StepTimings, t.window)
	for i := range t.ring {
		mk(&t.ring[i])
	}
	t.scr = make([]float64, 0, t.window)
	t.sum.Systems = make([]SystemSummary, len(t.cur.Systems))
	t.sum.Markers = make([]MarkerSummary, len(t.cur.Markers))
	t.sum.Counters = make([]CounterSummary, len(t.cur.Counters))
}

// resetWorkers follows a new pool: its counters start from zero.
func (t *Timings) resetWorkers(e *Engine) {
	t.prev = e.run.pool.Stats(t.prev[:0])
	t.cur.Workers = make([]WorkerTimings, len(t.prev))
	for i := range t.ring { // so that filling the window allocates nothing; a slot keeps its step's rows
		w := &t.ring[i].Workers
		*w = slices.Grow(*w, max(0, len(t.prev)-len(*w)))
	}
	t.marks.resize(e.run.pool)
}

func (t *Timings) begin(e *Engine) {
	c := &t.cur
	c.Step = e.res.time.Step
	c.Total, c.Schedule, c.Wait, c.Playback, c.Merge = 0, 0, 0, 0, 0
	c.Stages = [numStages]StageTimings{}
	c.Work, c.Span, c.Parallelism, c.Predicted = 0, 0, 0, [NumPredicted]time.Duration{}
	c.Critical, c.Timeline, c.Chunks, c.Lost = c.Critical[:0], c.Timeline[:0], 0, 0
	for i := range c.Systems {
		s := &c.Systems[i]
		*s = SystemTimings{Name: s.Name, Stage: s.Stage, first: math.MaxInt64, last: math.MinInt64}
	}
	for _, en := range e.sched.all {
		en.timing = sysAcc{}
	}
	t.wait, t.playback, t.applied, t.problems, t.jobsExtent = 0, 0, 0, 0, 0
	t.t0Set = false
	t.marks.clear()
	t.from = t.marks.now()
}

// segment folds one segment's trace into the step (executed only by the
// owner, after the segment's Wait: every event of it is recorded): per-system sums, the
// timeline, and the graph measures.
func (t *Timings) segment(e *Engine, events []jobs.Event, lost uint64) {
	c := &t.cur
	c.Lost += lost
	for i := range events { // ReadTrace sorts by start: the first job is the earliest
		if ev := &events[i]; ev.Kind == jobs.KindJob {
			if !t.t0Set || ev.Start < t.t0 {
				t.t0, t.t0Set = ev.Start, true
			}
			break
		}
	}
	t.slot = t.slot[:0]
	first, last := int64(math.MaxInt64), int64(math.MinInt64)
	var name string // the last label looked up, and its pass: a pass's slices come in runs
	var pass *Pass
	for i := range events {
		ev := &events[i]
		if ev.Kind != jobs.KindJob {
			t.slot = append(t.slot, -1)
			continue
		}
		first, last = min(first, ev.Start), max(last, ev.End)
		t.slot = append(t.slot, int32(len(c.Timeline)))
		si, rows := int32(-1), int32(0)
		if ev.Label.Name != name || pass == nil {
			name, pass = ev.Label.Name, e.sched.labels[ev.Label.Name]
		}
		if pass != nil && ev.Label.Chunk >= 0 {
			si, rows = t.chunkJob(pass, ev)
		}
		c.Timeline = append(c.Timeline, Slice{Label: ev.Label.Name, System: si, Chunk: int32(ev.Label.Chunk), Rows: rows,
			Worker: int32(ev.Worker), Start: ev.Start - t.t0, End: ev.End - t.t0})
	}
	if last > first {
		t.jobsExtent += last - first
	}
	g := &t.graph
	g.Build(events)
	c.Work += time.Duration(g.Work())
	var span int64
	t.path, span = g.CriticalPath(t.path[:0])
	c.Span += time.Duration(span)
	t.critical(events)
	for i, p := range PredictParticipants() {
		c.Predicted[i] += time.Duration(g.Predict(p))
	}
}

// chunkJob adds chunk job ev of pass p to its system's sums and returns
// the system's index and the chunk's rows. Executed only by the owner, in
// segment.
func (t *Timings) chunkJob(p *Pass, ev *jobs.Event) (int32, int32) {
	c := &t.cur
	si, rows := int32(p.sys.index), int32(0)
	switch {
	case p.whole:
		rows = int32(p.rows.Load()) // one job ran every chunk
	case p.q != nil:
		rows = int32(p.q.q.ChunkLen(ev.Label.Chunk))
	}
	s := &c.Systems[si]
	s.Work += time.Duration(ev.End - ev.Start)
	s.Jobs++
	s.first, s.last = min(s.first, ev.Start), max(s.last, ev.End)
	c.Chunks++
	return si, rows
}

// critical adds the segment's critical path to the step's and marks its
// slices in the timeline. Executed only by the owner, in segment.
func (t *Timings) critical(events []jobs.Event) {
	c, g := &t.cur, &t.graph
	for _, ni := range t.path {
		nd := &g.Nodes[ni]
		pj := PathJob{Label: nd.Label.Name, First: nd.Label.Chunk, Last: nd.Label.Chunk, Cost: time.Duration(nd.Cost)}
		// Its slices lie within [Start, End], and events are in start
		// order: scan only that window.
		i, _ := slices.BinarySearchFunc(events, nd.Start, func(ev jobs.Event, t int64) int { return cmp.Compare(ev.Start, t) })
		for ; i < len(events) && events[i].Start <= nd.End; i++ {
			if ev := &events[i]; ev.Kind == jobs.KindJob && ev.Job == nd.Job {
				pj.Last = max(pj.Last, ev.Label.Chunk)
				c.Timeline[t.slot[i]].Critical = true
			}
		}
		c.Critical = append(c.Critical, pj)
	}
}

func (t *Timings) end(e *Engine, total time.Duration) {
	c := &t.cur
	t.to = t.marks.now()
	c.Total, c.Wait, c.Playback = total, t.wait, t.playback
	c.Commands, c.Problems = t.applied, t.problems
	for i := range c.Predicted { // the owner's time outside the jobs, as recorded
		c.Predicted[i] += max(0, total-time.Duration(t.jobsExtent))
	}
	t.endSystems(e)
	if c.Span > 0 {
		c.Parallelism = float64(c.Work) / float64(c.Span)
	}
	t.endWorkers(e)
	if err := t.marks.fold(c, t.t0); err != nil {
		e.fail(err)
	}
	t.record()
}

// endSystems completes the systems' and stages' times of the step.
// Executed only by the owner, in end.
func (t *Timings) endSystems(e *Engine) {
	c := &t.cur
	for i, en := range e.sched.par {
		s := &c.Systems[i]
		s.Schedule, s.Merge, s.Ran, s.Skipped = en.timing.sched, en.timing.merge, en.timing.ran, en.timing.skipped
		c.Schedule += s.Schedule
		c.Merge += s.Merge
		for _, q := range en.queries {
			if q.step != e.res.time.Step {
				continue // not prepared this step (disabled): its counts are old
			}
			rows := int64(0)
			for _, p := range q.passes {
				if p.sys == en {
					rows = max(rows, p.rows.Load())
				}
			}
			s.Entities += int(rows)
		}
	}
	for i, en := range e.sched.excl {
		s := &c.Systems[len(e.sched.par)+i]
		s.Merge, s.Ran, s.Skipped = en.timing.merge, en.timing.ran, en.timing.skipped
		c.Merge += s.Merge
		c.Stages[s.Stage].Span += s.Merge
	}
	var firsts, lasts [numStages]int64
	for i := range firsts {
		firsts[i], lasts[i] = math.MaxInt64, math.MinInt64
	}
	for i := range c.Systems {
		s := &c.Systems[i]
		if s.Jobs > 0 {
			s.Span = time.Duration(s.last - s.first)
			firsts[s.Stage], lasts[s.Stage] = min(firsts[s.Stage], s.first), max(lasts[s.Stage], s.last)
		}
		c.Stages[s.Stage].Work += s.Work
	}
	for i := range firsts {
		if lasts[i] > firsts[i] {
			c.Stages[i].Span += time.Duration(lasts[i] - firsts[i])
		}
	}
}

// endWorkers reads the participants' counters for the step. Executed only
// by the owner, in end.
func (t *Timings) endWorkers(e *Engine) {
	c := &t.cur
	t.stats = e.run.pool.Stats(t.stats[:0])
	c.Jobs, c.Steals = 0, 0
	for i := range t.stats {
		if i >= len(t.prev) || i >= len(c.Workers) {
			break
		}
		w := &c.Workers[i]
		w.Busy = t.stats[i].Busy - t.prev[i].Busy
		w.Jobs = t.stats[i].Executed - t.prev[i].Executed
		w.Steals = t.stats[i].Stolen - t.prev[i].Stolen
		c.Jobs += w.Jobs
		c.Steals += w.Steals
	}
	t.prev, t.stats = t.stats, t.prev
}

// record copies the step into the window, keeping each slot's buffers.
func (t *Timings) record() {
	slot := &t.ring[t.next]
	sys, wk, mks, cts := slot.Systems, slot.Workers, slot.Markers, slot.Counters
	*slot = t.cur
	slot.Systems = append(sys[:0], t.cur.Systems...)
	slot.Workers = append(wk[:0], t.cur.Workers...)
	slot.Markers = append(mks[:0], t.cur.Markers...)
	slot.Counters = append(cts[:0], t.cur.Counters...)
	slot.Critical, slot.Timeline, slot.Marks = nil, nil, nil
	t.next = (t.next + 1) % len(t.ring)
	t.n = min(t.n+1, len(t.ring))
}

// Last is the last step's timings, valid until the next step.
func (t *Timings) Last() *StepTimings { return &t.cur }

// System is the timings of the named system, or nil.
func (st *StepTimings) System(name string) *SystemTimings {
	for i := range st.Systems {
		if st.Systems[i].Name == name {
			return &st.Systems[i]
		}
	}
	return nil
}
