package engine

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
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
	Predicted   [NumPredicted]time.Duration
	// Timeline has one slice per chunk job, for a per-worker view; Start
	// and End are nanoseconds since the step's first job started.
	Timeline []Slice
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
	Ran      bool          // enabled this step
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
	ran          bool
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
}

func (t *Timings) init(e *Engine) {
	t.window = e.cfg.Window
	mk := func(st *StepTimings) {
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
}

// resetWorkers follows a new pool: its counters start from zero.
func (t *Timings) resetWorkers(e *Engine) {
	t.prev = e.run.pool.Stats(t.prev[:0])
	t.cur.Workers = make([]WorkerTimings, len(t.prev))
	for i := range t.ring { // so that filling the window allocates nothing; a slot keeps its step's rows
		w := &t.ring[i].Workers
		*w = slices.Grow(*w, max(0, len(t.prev)-len(*w)))
	}
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
	t.wait, t.playback, t.applied, t.problems = 0, 0, 0, 0
	t.t0Set = false
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
	for i := range events {
		ev := &events[i]
		if ev.Kind != jobs.KindJob {
			t.slot = append(t.slot, -1)
			continue
		}
		t.slot = append(t.slot, int32(len(c.Timeline)))
		si, rows := int32(-1), int32(0)
		if p := e.sched.labels[ev.Label.Name]; p != nil && ev.Label.Chunk >= 0 {
			si = int32(p.sys.index)
			if p.q != nil {
				rows = int32(p.q.q.ChunkLen(ev.Label.Chunk))
			}
			s := &c.Systems[si]
			s.Work += time.Duration(ev.End - ev.Start)
			s.Jobs++
			s.first, s.last = min(s.first, ev.Start), max(s.last, ev.End)
			c.Chunks++
		}
		c.Timeline = append(c.Timeline, Slice{Label: ev.Label.Name, System: si, Chunk: int32(ev.Label.Chunk), Rows: rows,
			Worker: int32(ev.Worker), Start: ev.Start - t.t0, End: ev.End - t.t0})
	}
	g := &t.graph
	g.Build(events)
	c.Work += time.Duration(g.Work())
	var span int64
	t.path, span = g.CriticalPath(t.path[:0])
	c.Span += time.Duration(span)
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
	for i, p := range PredictParticipants() {
		c.Predicted[i] += time.Duration(g.Predict(p))
	}
}

func (t *Timings) end(e *Engine, total time.Duration) {
	c := &t.cur
	c.Total, c.Wait, c.Playback = total, t.wait, t.playback
	c.Commands, c.Problems = t.applied, t.problems
	for i, en := range e.sched.par {
		s := &c.Systems[i]
		s.Schedule, s.Merge, s.Ran = en.timing.sched, en.timing.merge, en.timing.ran
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
		s.Merge, s.Ran = en.timing.merge, en.timing.ran
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
	if c.Span > 0 {
		c.Parallelism = float64(c.Work) / float64(c.Span)
	}
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
	t.record()
}

// record copies the step into the window, keeping each slot's buffers.
func (t *Timings) record() {
	slot := &t.ring[t.next]
	sys, wk := slot.Systems, slot.Workers
	*slot = t.cur
	slot.Systems = append(sys[:0], t.cur.Systems...)
	slot.Workers = append(wk[:0], t.cur.Workers...)
	slot.Critical, slot.Timeline = nil, nil
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

// Stat is a distribution over the window: durations in milliseconds.
type Stat struct{ P50, P95, P99, Max float64 }

// Summary is the window's distributions, for an overlay.
type Summary struct {
	Steps                                         int
	Total, Schedule, Wait, Playback, Merge        Stat
	Work, Span, Parallelism, Jobs, Steals, Chunks Stat
	Predicted                                     [NumPredicted]Stat
	Stages                                        [numStages]Stat // spans
	Systems                                       []SystemSummary
	Workers                                       []Stat // busy
}

// SystemSummary is one system's distributions over the window.
type SystemSummary struct {
	Name                        string
	Stage                       Stage
	Schedule, Span, Work, Merge Stat
	Entities, Jobs              Stat
	NsPerEntity                 float64 // median work per entity, in ns
}

// Summary computes the window's distributions. It reuses its buffers:
// the result is valid until the next call.
func (t *Timings) Summary() *Summary {
	s := &t.sum
	s.Steps = t.n
	ms := func(d time.Duration) float64 { return float64(d) / 1e6 }
	stat := func(get func(st *StepTimings) float64) Stat {
		t.scr = t.scr[:0]
		for i := 0; i < t.n; i++ {
			t.scr = append(t.scr, get(&t.ring[i]))
		}
		return quantiles(t.scr)
	}
	s.Total = stat(func(st *StepTimings) float64 { return ms(st.Total) })
	s.Schedule = stat(func(st *StepTimings) float64 { return ms(st.Schedule) })
	s.Wait = stat(func(st *StepTimings) float64 { return ms(st.Wait) })
	s.Playback = stat(func(st *StepTimings) float64 { return ms(st.Playback) })
	s.Merge = stat(func(st *StepTimings) float64 { return ms(st.Merge) })
	s.Work = stat(func(st *StepTimings) float64 { return ms(st.Work) })
	s.Span = stat(func(st *StepTimings) float64 { return ms(st.Span) })
	s.Parallelism = stat(func(st *StepTimings) float64 { return st.Parallelism })
	s.Jobs = stat(func(st *StepTimings) float64 { return float64(st.Jobs) })
	s.Steals = stat(func(st *StepTimings) float64 { return float64(st.Steals) })
	s.Chunks = stat(func(st *StepTimings) float64 { return float64(st.Chunks) })
	for i := range s.Predicted {
		s.Predicted[i] = stat(func(st *StepTimings) float64 { return ms(st.Predicted[i]) })
	}
	for i := range s.Stages {
		s.Stages[i] = stat(func(st *StepTimings) float64 { return ms(st.Stages[i].Span) })
	}
	for i := range s.Systems {
		ss := &s.Systems[i]
		ss.Name, ss.Stage = t.cur.Systems[i].Name, t.cur.Systems[i].Stage
		ss.Schedule = stat(func(st *StepTimings) float64 { return ms(st.Systems[i].Schedule) })
		ss.Span = stat(func(st *StepTimings) float64 { return ms(st.Systems[i].Span) })
		ss.Work = stat(func(st *StepTimings) float64 { return ms(st.Systems[i].Work) })
		ss.Merge = stat(func(st *StepTimings) float64 { return ms(st.Systems[i].Merge) })
		ss.Entities = stat(func(st *StepTimings) float64 { return float64(st.Systems[i].Entities) })
		ss.Jobs = stat(func(st *StepTimings) float64 { return float64(st.Systems[i].Jobs) })
		ss.NsPerEntity = 0
		if ss.Entities.P50 > 0 {
			ss.NsPerEntity = ss.Work.P50 * 1e6 / ss.Entities.P50
		}
	}
	nw := len(t.cur.Workers)
	if cap(s.Workers) < nw {
		s.Workers = make([]Stat, nw)
	}
	s.Workers = s.Workers[:nw]
	for i := range s.Workers {
		s.Workers[i] = stat(func(st *StepTimings) float64 {
			if i < len(st.Workers) {
				return ms(st.Workers[i].Busy)
			}
			return 0
		})
	}
	return s
}

// quantiles sorts v and reads its nearest-rank percentiles.
func quantiles(v []float64) Stat {
	if len(v) == 0 {
		return Stat{}
	}
	slices.Sort(v)
	at := func(p float64) float64 { return v[max(0, int(math.Ceil(p*float64(len(v))))-1)] }
	return Stat{P50: at(0.50), P95: at(0.95), P99: at(0.99), Max: v[len(v)-1]}
}

// String is the table of WriteTable.
func (t *Timings) String() string {
	var b strings.Builder
	t.WriteTable(&b)
	return b.String()
}

// WriteTable writes the window's distributions and the last step's
// critical path as a text table, for terminals.
func (t *Timings) WriteTable(w io.Writer) error {
	s := t.Summary()
	c := &t.cur
	var b strings.Builder
	row := func(name string, st Stat) {
		fmt.Fprintf(&b, "%-26s %8.3f %8.3f %8.3f %8.3f\n", name, st.P50, st.P95, st.P99, st.Max)
	}
	fmt.Fprintf(&b, "%d steps (window), last step %d, %d workers + owner, dropped %d\n", s.Steps, c.Step, max(len(c.Workers)-1, 0), t.Dropped)
	fmt.Fprintf(&b, "%-26s %8s %8s %8s %8s\n", "ms", "p50", "p95", "p99", "max")
	row("step", s.Total)
	for i, st := range s.Stages {
		row("  stage "+Stage(i).String(), st)
	}
	row("  owner schedule", s.Schedule)
	row("  owner wait", s.Wait)
	row("  playback", s.Playback)
	row("  merge", s.Merge)
	row("work", s.Work)
	row("span (critical path)", s.Span)
	for i, p := range PredictParticipants() {
		row(fmt.Sprintf("predicted, %d participants", p), s.Predicted[i])
	}
	for i, st := range s.Workers {
		name := fmt.Sprintf("busy worker %d", i)
		if i == 0 {
			name = "busy owner"
		}
		row(name, st)
	}
	fmt.Fprintf(&b, "parallelism p50 %.2f, jobs p50 %.0f, chunks p50 %.0f, steals p50 %.0f\n", s.Parallelism.P50, s.Jobs.P50, s.Chunks.P50, s.Steals.P50)
	fmt.Fprintf(&b, "\n%-16s %-10s %8s %8s %8s %8s %8s %9s %6s %8s\n", "system", "stage", "sched", "span", "work", "work p99", "merge", "entities", "jobs", "ns/ent")
	for _, ss := range s.Systems {
		fmt.Fprintf(&b, "%-16s %-10s %8.3f %8.3f %8.3f %8.3f %8.3f %9.0f %6.0f %8.1f\n", ss.Name, ss.Stage, ss.Schedule.P50, ss.Span.P50, ss.Work.P50, ss.Work.P99, ss.Merge.P50, ss.Entities.P50, ss.Jobs.P50, ss.NsPerEntity)
	}
	fmt.Fprintf(&b, "\ncritical path of step %d (%d jobs, %.3f ms):\n", c.Step, len(c.Critical), float64(c.Span)/1e6)
	for _, p := range c.Critical {
		chunks := fmt.Sprintf("chunks %d..%d", p.First, p.Last)
		if p.First < 0 {
			chunks = "(join)"
		}
		fmt.Fprintf(&b, "  %-24s %-16s %8.3f ms\n", p.Label, chunks, float64(p.Cost)/1e6)
	}
	if c.Problems > 0 || c.Lost > 0 {
		fmt.Fprintf(&b, "commands skipped %d, trace events lost %d\n", c.Problems, c.Lost)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
