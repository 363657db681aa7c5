package engine

import (
	"time"

	"github.com/weft-engine/weft/jobs"
)

// StepRecord is what one fixed step did, as plain data: the owner's
// phases, the pool's job trace, the systems' outcomes, the markers' spans,
// the counters' totals and the GC pauses. The engine publishes one per
// step (Engine.Observe, Engine.LastRecord) and knows nothing of how it is
// summarised: the profile package keeps, summarises, compares and writes
// them. Every time is nanoseconds on the engine's clock (Engine.Clock), so
// the owner's phases, the jobs, the markers and the GC pauses share one
// axis, from Start to End.
//
// A record and its slices are reused by the next step: an observer copies
// what it keeps.
type StepRecord struct {
	Step       uint64
	Start, End int64   // the whole step on the owner, settings and bookkeeping included
	Layout     *Layout // the built schedule's description; the same for every step
	Batch      int     // rows per chunk this step
	Phases     []Phase // the owner's, in time order; gaps between them are time the owner was not in the step's code

	Systems []SystemRecord // by Layout.Systems index

	// Jobs is the pool's trace of the step (job slices, dependency edges,
	// splits), sorted by start, times on the engine's clock; JobInfo is
	// parallel to it. Segments[i] is the index in Jobs of segment i's first
	// event: exclusive systems cut a step into segments, whose job graphs
	// are separate.
	Jobs     []jobs.Event
	JobInfo  []JobInfo
	Segments []int
	JobsLost uint64 // events lost to full trace buffers (the next pool's are larger)

	Workers []WorkerRecord // per participant, the owner first

	Marks     []MarkRecord // the markers' spans
	MarksLost uint64       // spans of full buffers, not recorded (the buffers grow)
	Counters  []int64      // by Layout.Counters index

	// GC is the pauses that ended since the previous step's record was made,
	// in time order: a pause between steps has times before Start.
	GC []GCPause

	Commands int    // commands applied in playback
	Observed int    // observer calls in playback (their time is in the playback phases)
	Problems int    // commands skipped (dead entities, missing components)
	Dropped  uint64 // fixed steps dropped by Config.MaxSteps so far
}

// Layout describes the built schedule: what a record's indices name.
type Layout struct {
	Systems  []SystemInfo // the parallel systems in built order, then the exclusive ones
	Passes   []NameInfo   // passes by label ("system.pass")
	Markers  []NameInfo   // in the order they were made ("system.marker")
	Counters []NameInfo   // in the order they were made ("system.counter")
}

// SystemInfo is one system of a Layout.
type SystemInfo struct {
	Name      string
	Stage     Stage
	Exclusive bool
}

// NameInfo is a pass, marker or counter of a Layout and its system.
type NameInfo struct {
	Name   string
	System int32 // index into Layout.Systems
}

// PhaseKind is what the owner was doing in a Phase.
type PhaseKind uint8

// The owner's phases of a step.
const (
	PhaseSettings   PhaseKind = iota // applying SetWorkers, SetBatch, SetChecks (a new pool)
	PhaseConditions                  // evaluating the run conditions
	PhaseExclusive                   // an exclusive system's Run
	PhaseSchedule                    // a system's Schedule
	PhaseWait                        // waiting for a segment's jobs, running some of them
	PhasePlayback                    // playing the commands back
	PhaseMerge                       // a system's Merge
	PhaseSnapshot                    // publishing the render snapshot
	PhaseRecord                      // reading the trace and resetting the pool
	numPhases
)

var phaseNames = [numPhases]string{"settings", "conditions", "exclusive", "schedule", "wait", "playback", "merge", "snapshot", "record"}

func (k PhaseKind) String() string {
	if k < numPhases {
		return phaseNames[k]
	}
	return "phase(?)"
}

// Phase is a span of the owner's time in a step.
type Phase struct {
	Kind       PhaseKind
	System     int32 // index into Layout.Systems for Exclusive, Schedule and Merge; -1 otherwise
	Start, End int64
}

// SystemState is how a system took part in a step.
type SystemState uint8

// The states of a system in a step.
const (
	SystemRan      SystemState = iota // its Schedule (or Run) was called and every job of it succeeded
	SystemDisabled                    // switched off (Engine.Enable, Disabled)
	SystemSkipped                     // a run condition did not hold: it ran nothing
	SystemFailed                      // its Schedule, Merge or Run returned an error or panicked, or a job of it failed
	SystemBlocked                     // its jobs did not run: an earlier system's job failed (SystemRecord.Cause)
)

var stateNames = [...]string{"ran", "disabled", "skipped", "failed", "blocked"}

func (s SystemState) String() string {
	if int(s) < len(stateNames) {
		return stateNames[s]
	}
	return "state(?)"
}

// SystemRecord is one system's part of a step.
type SystemRecord struct {
	State    SystemState
	Cause    string // SystemFailed: its failure; SystemBlocked: the failure that blocked it
	Entities int    // rows of its queries' chunks this step
}

// JobInfo attributes one trace event to its system.
type JobInfo struct {
	System int32 // index into Layout.Systems; -1 for an edge, a split, a join or an engine job
	Rows   int32 // entities of a chunk job, items of a range job; 0 otherwise
}

// WorkerRecord is one participant's share of a step.
type WorkerRecord struct {
	Busy   time.Duration
	Jobs   uint64
	Steals uint64
}

// MarkRecord is one marker span. Depth is 0 for a span directly in a job,
// 1 inside another span, and so on.
type MarkRecord struct {
	Marker     int32 // index into Layout.Markers
	Worker     int32 // 0 is the owner
	Depth      int32
	Start, End int64
}

// GCPause is one stop-the-world pause of the garbage collector.
type GCPause struct {
	Cycle      uint32 // the GC cycle, counted since the program started
	Start, End int64
}

// Observe calls fn on the owner after every step, with the step's record,
// until stop is called. The record is valid only during the call. Executed
// only by the owner, between steps.
func (e *Engine) Observe(fn func(*StepRecord)) (stop func()) {
	o := &observer{fn: fn}
	e.out.rec.observers = append(e.out.rec.observers, o)
	return func() { o.fn = nil }
}

// LastRecord is the last step's record (zero before the first step),
// valid until the next step. Executed only by the owner, between steps.
func (e *Engine) LastRecord() *StepRecord { return &e.out.rec.cur }

// Clock is the engine's clock, which records' times are on: nanoseconds
// since the engine was made.
func (e *Engine) Clock() int64 { return e.out.rec.now() }

// ClockZero is the wall-clock time of the engine's clock's zero.
func (e *Engine) ClockZero() time.Time { return e.out.rec.epoch }

// Dropped is the number of fixed steps dropped by Config.MaxSteps so far.
func (e *Engine) Dropped() uint64 { return e.out.rec.dropped }

// NumStages is the number of stages, PreUpdate to PreRender.
const NumStages = int(numStages)
