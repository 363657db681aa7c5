package profile

import (
	"cmp"
	"math"
	"slices"
	"time"

	"github.com/weft-engine/weft/engine"
	"github.com/weft-engine/weft/jobs"
)

// NumPredicted is the number of pool sizes StepTimings.Predicted is
// computed for.
const NumPredicted = 5

// PredictParticipants are the pool sizes (owner included) that
// StepTimings.Predicted is computed for: 1, 2, 4, 8 and 16.
func PredictParticipants() [NumPredicted]int {
	return [NumPredicted]int{1, 2, 4, 8, 16}
}

// StepTimings is where one fixed step's time went, computed from its
// engine.StepRecord. Every Start and End is nanoseconds since the step's
// start: the axis runs from 0 to Total and holds everything the owner
// did, the jobs, the markers and the GC pauses of the step.
type StepTimings struct {
	Step     uint64
	Total    time.Duration // the whole step, on the owner
	Schedule time.Duration // owner time in the systems' Schedule
	Wait     time.Duration // owner time in Wait (helping runs jobs meanwhile)
	Playback time.Duration // command playback (World.EndFrame)
	Merge    time.Duration // owner time in Merge and exclusive systems
	Batch    int           // rows per chunk
	Stages   [engine.NumStages]StageTimings
	Systems  []SystemTimings // by engine.Layout.Systems index
	Workers  []engine.WorkerRecord
	Jobs     uint64 // job records executed (range jobs, joins, combines)
	Chunks   int    // chunk slices traced
	Steals   uint64
	Commands int    // commands applied
	Problems int    // commands skipped (dead entities, missing components)
	Lost     uint64 // trace events lost
	Dropped  uint64 // fixed steps dropped by the engine's MaxSteps so far

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

	Timeline []Slice    // one per job slice, for a per-participant view
	Phases   []Phase    // the owner's, in time order
	Gaps     []Gap      // the owner's time outside every phase, named
	Marks    []MarkSpan // the markers' spans
	Markers  []MarkerTimings
	Counters []CounterValue
	// MarksLost counts spans of full buffers, not recorded.
	MarksLost uint64

	// GC is the pauses the step's record brought: those during the step,
	// and those since the previous step (negative Start: between steps).
	GC []GCPause
	// GCTime is the pause time within the step; GCOutside the pause time
	// between the previous step and this one; GCPauses and GCMaxPause
	// count and measure all of GC's pauses.
	GCTime, GCOutside time.Duration
	GCPauses          int
	GCMaxPause        time.Duration

	// Start is the step's start on the engine's clock (engine.Engine.Clock),
	// to place the step among frames and other steps.
	Start int64
}

// StageTimings is a stage's share of a step.
type StageTimings struct {
	Span time.Duration // first job start to last job end of its systems, exclusive systems' Run added
	Work time.Duration // summed job time of its systems
}

// SystemTimings is a system's share of a step.
type SystemTimings struct {
	Name      string
	Stage     engine.Stage
	Exclusive bool
	State     engine.SystemState
	Cause     string        // engine.SystemFailed, engine.SystemBlocked: the failure
	Ran       bool          // its Schedule (or Run) was called: ran, or failed
	Skipped   bool          // enabled, but a run condition did not hold: it ran nothing (not "took zero")
	Schedule  time.Duration // owner time in its Schedule
	Span      time.Duration // its first job's start to its last job's end
	Work      time.Duration // summed time of its chunk jobs
	Merge     time.Duration // owner time in its Merge (or Run, if exclusive)
	Jobs      int           // chunk jobs run
	Entities  int           // rows of its queries' chunks this step

	first, last int64
}

// PathJob is one job of the critical path: a system's pass over a range
// of chunks (range jobs run consecutive chunks).
type PathJob struct {
	Label       string
	First, Last int // chunks; -1 for a join or a combine
	Cost        time.Duration
}

// Slice is one job slice in the timeline.
type Slice struct {
	Label      string // the pass, e.g. "physics.grid"
	System     int32  // index into StepTimings.Systems; -1 for engine jobs
	Chunk      int32
	Rows       int32 // entities of a chunk, items of a range; 0 for joins and engine jobs
	Worker     int32 // 0 is the owner
	Critical   bool  // the job is on the step's critical path
	Start, End int64
}

// Phase is a span of the owner's time: what it did, for which system.
type Phase struct {
	Kind       engine.PhaseKind
	System     int32 // index into StepTimings.Systems; -1 if none
	Start, End int64
}

// Gap is owner time outside every phase of at least MinGap: Cause says
// why, "GC" where a GC pause overlaps it, else "owner not running" (the
// operating system ran something else, or the engine's own bookkeeping).
type Gap struct {
	Cause      string
	Start, End int64
}

// MinGap is the shortest owner time outside the phases that Gaps names.
const MinGap = 10 * time.Microsecond

// MarkSpan is one marker span. Depth is 0 for a span directly in a job,
// 1 inside another span, and so on.
type MarkSpan struct {
	Marker     int32 // index into StepTimings.Markers
	Worker     int32 // 0 is the owner
	Depth      int32
	Start, End int64
}

// MarkerTimings is a marker's share of a step.
type MarkerTimings struct {
	Name   string // "system.marker"
	System int32  // index into StepTimings.Systems
	Time   time.Duration
	Calls  int
}

// CounterValue is a counter's total over a step.
type CounterValue struct {
	Name   string // "system.counter"
	System int32  // index into StepTimings.Systems
	Value  int64
}

// GCPause is one GC pause, on the step's axis.
type GCPause struct {
	Cycle      uint32
	Start, End int64
}

// System is the timings of the named system, or nil.
func (st *StepTimings) System(name string) *SystemTimings {
	for i := range st.Systems {
		if st.Systems[i].Name == name {
			return &st.Systems[i]
		}
	}
	return nil
}

// analyser computes StepTimings from records, reusing its buffers.
type analyser struct {
	graph jobs.Graph
	path  []int32
	slot  []int32 // a segment's event index → its Timeline index, or -1
	most  struct{ systems, workers, jobs, phases, marks, markers, counters, gc int }
}

// room is s emptied, with room for n elements: grown, if it must be, to
// a quarter more than the most any step needed so far (most), so that
// the slots of a window settle after one round instead of growing each
// time a step is larger than the last that used them.
func room[T any](s []T, n int, most *int) []T {
	*most = max(*most, n)
	if cap(s) < n {
		return make([]T, 0, *most+*most/4)
	}
	return s[:0]
}

// Analyse computes st from rec, reusing st's buffers: after warm-up it
// allocates nothing.
func Analyse(st *StepTimings, rec *engine.StepRecord) {
	var a analyser
	a.analyse(st, rec)
}

func (a *analyser) analyse(st *StepTimings, rec *engine.StepRecord) {
	l := rec.Layout
	m := &a.most
	*st = StepTimings{Step: rec.Step, Start: rec.Start, Total: time.Duration(rec.End - rec.Start), Batch: rec.Batch,
		Commands: rec.Commands, Problems: rec.Problems, Lost: rec.JobsLost, Dropped: rec.Dropped, MarksLost: rec.MarksLost,
		Systems: room(st.Systems, len(l.Systems), &m.systems), Workers: append(room(st.Workers, len(rec.Workers), &m.workers), rec.Workers...),
		Critical: room(st.Critical, len(rec.Jobs), &m.jobs), Timeline: room(st.Timeline, len(rec.Jobs), &m.jobs),
		Phases: room(st.Phases, len(rec.Phases), &m.phases), Gaps: room(st.Gaps, len(rec.Phases)+1, &m.phases),
		Marks: room(st.Marks, len(rec.Marks), &m.marks), Markers: room(st.Markers, len(l.Markers), &m.markers),
		Counters: room(st.Counters, len(l.Counters), &m.counters), GC: room(st.GC, len(rec.GC), &m.gc)}
	for i, si := range l.Systems {
		r := rec.Systems[i]
		st.Systems = append(st.Systems, SystemTimings{Name: si.Name, Stage: si.Stage, Exclusive: si.Exclusive,
			State: r.State, Cause: r.Cause, Entities: r.Entities,
			Ran: r.State == engine.SystemRan || r.State == engine.SystemFailed, Skipped: r.State == engine.SystemSkipped,
			first: math.MaxInt64, last: math.MinInt64})
	}
	for _, w := range st.Workers {
		st.Jobs += w.Jobs
		st.Steals += w.Steals
	}
	a.phases(st, rec)
	var extent int64 // the segments' first job start to last job end, added up
	for k, lo := range rec.Segments {
		hi := len(rec.Jobs)
		if k+1 < len(rec.Segments) {
			hi = rec.Segments[k+1]
		}
		extent += a.segment(st, rec, lo, hi)
	}
	for i := range st.Predicted { // the owner's time outside the jobs, as recorded
		st.Predicted[i] += max(0, st.Total-time.Duration(extent))
	}
	a.endSystems(st)
	if st.Span > 0 {
		st.Parallelism = float64(st.Work) / float64(st.Span)
	}
	a.marks(st, rec)
	a.gc(st, rec)
	a.gaps(st, rec)
}

// phases moves the owner's phases onto the step's axis and adds them up.
func (a *analyser) phases(st *StepTimings, rec *engine.StepRecord) {
	for _, p := range rec.Phases {
		st.Phases = append(st.Phases, Phase{Kind: p.Kind, System: p.System, Start: p.Start - rec.Start, End: p.End - rec.Start})
		d := time.Duration(p.End - p.Start)
		switch p.Kind {
		case engine.PhaseSchedule:
			st.Schedule += d
			st.Systems[p.System].Schedule += d
		case engine.PhaseWait:
			st.Wait += d
		case engine.PhasePlayback:
			st.Playback += d
		case engine.PhaseMerge, engine.PhaseExclusive:
			st.Merge += d
			st.Systems[p.System].Merge += d
		}
	}
}

// segment folds the segment rec.Jobs[lo:hi] into st: per-system sums, the
// timeline, and the graph measures. It returns the segment's first job
// start to last job end.
func (a *analyser) segment(st *StepTimings, rec *engine.StepRecord, lo, hi int) int64 {
	events := rec.Jobs[lo:hi]
	a.slot = a.slot[:0]
	first, last := int64(math.MaxInt64), int64(math.MinInt64)
	for i := range events {
		ev, info := &events[i], rec.JobInfo[lo+i]
		if ev.Kind != jobs.KindJob {
			a.slot = append(a.slot, -1)
			continue
		}
		first, last = min(first, ev.Start), max(last, ev.End)
		a.slot = append(a.slot, int32(len(st.Timeline)))
		if info.System >= 0 {
			s := &st.Systems[info.System]
			s.Work += time.Duration(ev.End - ev.Start)
			s.Jobs++
			s.first, s.last = min(s.first, ev.Start), max(s.last, ev.End)
			st.Chunks++
		}
		st.Timeline = append(st.Timeline, Slice{Label: ev.Label.Name, System: info.System, Chunk: int32(ev.Label.Chunk), Rows: info.Rows,
			Worker: int32(ev.Worker), Start: ev.Start - rec.Start, End: ev.End - rec.Start})
	}
	g := &a.graph
	g.Build(events)
	st.Work += time.Duration(g.Work())
	var span int64
	a.path, span = g.CriticalPath(a.path[:0])
	st.Span += time.Duration(span)
	a.critical(st, events)
	for i, p := range PredictParticipants() {
		st.Predicted[i] += time.Duration(g.Predict(p))
	}
	if last > first {
		return last - first
	}
	return 0
}

// critical adds the segment's critical path to the step's and marks its
// slices in the timeline.
func (a *analyser) critical(st *StepTimings, events []jobs.Event) {
	g := &a.graph
	for _, ni := range a.path {
		nd := &g.Nodes[ni]
		pj := PathJob{Label: nd.Label.Name, First: nd.Label.Chunk, Last: nd.Label.Chunk, Cost: time.Duration(nd.Cost)}
		// Its slices lie within [Start, End], and events are in start
		// order: scan only that window.
		i, _ := slices.BinarySearchFunc(events, nd.Start, func(ev jobs.Event, t int64) int { return cmp.Compare(ev.Start, t) })
		for ; i < len(events) && events[i].Start <= nd.End; i++ {
			if ev := &events[i]; ev.Kind == jobs.KindJob && ev.Job == nd.Job {
				pj.Last = max(pj.Last, ev.Label.Chunk)
				st.Timeline[a.slot[i]].Critical = true
			}
		}
		st.Critical = append(st.Critical, pj)
	}
}

// endSystems completes the systems' and stages' spans.
func (a *analyser) endSystems(st *StepTimings) {
	var firsts, lasts [engine.NumStages]int64
	for i := range firsts {
		firsts[i], lasts[i] = math.MaxInt64, math.MinInt64
	}
	for i := range st.Systems {
		s := &st.Systems[i]
		if s.Exclusive {
			st.Stages[s.Stage].Span += s.Merge
		}
		if s.Jobs > 0 {
			s.Span = time.Duration(s.last - s.first)
			firsts[s.Stage], lasts[s.Stage] = min(firsts[s.Stage], s.first), max(lasts[s.Stage], s.last)
		}
		st.Stages[s.Stage].Work += s.Work
	}
	for i := range firsts {
		if lasts[i] > firsts[i] {
			st.Stages[i].Span += time.Duration(lasts[i] - firsts[i])
		}
	}
}

// marks folds the markers' spans and the counters into st.
func (a *analyser) marks(st *StepTimings, rec *engine.StepRecord) {
	for _, m := range rec.Layout.Markers {
		st.Markers = append(st.Markers, MarkerTimings{Name: m.Name, System: m.System})
	}
	for i, n := range rec.Layout.Counters {
		st.Counters = append(st.Counters, CounterValue{Name: n.Name, System: n.System, Value: rec.Counters[i]})
	}
	for _, s := range rec.Marks {
		m := &st.Markers[s.Marker]
		m.Time += time.Duration(s.End - s.Start)
		m.Calls++
		st.Marks = append(st.Marks, MarkSpan{Marker: s.Marker, Worker: s.Worker, Depth: s.Depth, Start: s.Start - rec.Start, End: s.End - rec.Start})
	}
}

// gc moves the GC pauses onto the step's axis and sums them.
func (a *analyser) gc(st *StepTimings, rec *engine.StepRecord) {
	for _, g := range rec.GC {
		p := GCPause{Cycle: g.Cycle, Start: g.Start - rec.Start, End: g.End - rec.Start}
		st.GC = append(st.GC, p)
		in := min(p.End, int64(st.Total)) - max(p.Start, 0)
		st.GCTime += time.Duration(max(0, in))
		st.GCOutside += time.Duration(max(0, min(p.End, 0)-p.Start))
		st.GCPauses++
		st.GCMaxPause = max(st.GCMaxPause, time.Duration(p.End-p.Start))
	}
}

// gaps names the owner's time outside its phases.
func (a *analyser) gaps(st *StepTimings, rec *engine.StepRecord) {
	at := int64(0)
	add := func(end int64) {
		if end-at >= int64(MinGap) {
			cause := "owner not running"
			for _, g := range st.GC {
				if g.Start < end && g.End > at {
					cause = "GC"
				}
			}
			st.Gaps = append(st.Gaps, Gap{Cause: cause, Start: at, End: end})
		}
	}
	for _, p := range st.Phases {
		add(p.Start)
		at = max(at, p.End)
	}
	add(int64(st.Total))
}
