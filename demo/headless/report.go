package main

import (
	"fmt"

	"github.com/weft-engine/weft/demo/internal/game"
	"github.com/weft-engine/weft/engine"
	"github.com/weft-engine/weft/profile"
)

// report is the -json output.
type report struct {
	Steps       int          `json:"steps"`    // fixed steps run
	Entities    int          `json:"entities"` // alive at the end
	Visible     int          `json:"visible"`
	Workers     int          `json:"workers"`
	Batch       int          `json:"batch"`
	Checks      bool         `json:"checks"`
	Window      int          `json:"window"`  // steps the distributions cover: the last ones
	Dropped     uint64       `json:"dropped"` // fixed steps dropped by the MaxSteps cap
	Step        stat         `json:"step_ms"`
	Stages      []stage      `json:"stages"`
	Schedule    stat         `json:"owner_schedule_ms"`
	InWait      stat         `json:"owner_in_wait_ms"`      // the owner in Wait, running jobs or idle
	WaitIdle    stat         `json:"owner_in_wait_idle_ms"` // of it, not running jobs
	Playback    stat         `json:"playback_ms"`
	Merge       stat         `json:"merge_ms"`
	Work        stat         `json:"work_ms"`
	Span        stat         `json:"span_ms"`
	Parallelism stat         `json:"parallelism"`
	Jobs        stat         `json:"jobs"`
	Chunks      stat         `json:"chunks"`
	Steals      stat         `json:"steals"`
	Busy        []stat       `json:"busy_ms"` // per participant, the owner first
	Systems     []system     `json:"systems"`
	Markers     []marker     `json:"markers"`
	Counters    []counter    `json:"counters"`
	Last        lastStep     `json:"last_step"`
	Critical    critical     `json:"critical_path"`
	Prediction  []prediction `json:"prediction"`
	// Heap allocations per step over the run's second half, once most
	// buffers have grown: a few, then 0 in steady state.
	AllocsPerStep float64 `json:"allocs_per_step"`
	Hash          string  `json:"hash"` // hex, 64 bits
}

// stat is a distribution over the window, in milliseconds for times.
type stat struct {
	P50 float64 `json:"p50"`
	P95 float64 `json:"p95"`
	P99 float64 `json:"p99"`
	Max float64 `json:"max"`
}

type system struct {
	Name        string  `json:"name"`
	Stage       string  `json:"stage"`
	Schedule    stat    `json:"schedule_ms"`
	Span        stat    `json:"span_ms"`
	Work        stat    `json:"work_ms"`
	Merge       stat    `json:"merge_ms"`
	Entities    float64 `json:"entities"` // p50
	Jobs        float64 `json:"jobs"`     // p50
	NsPerEntity float64 `json:"ns_per_entity"`
	Ran         int     `json:"ran_steps"`     // steps of the window it ran in
	Skipped     int     `json:"skipped_steps"` // steps a run condition skipped it
}

// stage is a stage's span per step.
type stage struct {
	Name string `json:"name"`
	Span stat   `json:"span_ms"`
}

// marker is a marker's summed time and spans per step.
type marker struct {
	Name   string `json:"name"`
	System string `json:"system"`
	Ms     stat   `json:"ms"`
	Spans  stat   `json:"spans"`
}

// counter is a counter's total per step.
type counter struct {
	Name   string `json:"name"`
	System string `json:"system"`
	Value  stat   `json:"value"`
}

// lastStep counts the last step's jobs: the ones executed (chunk, range,
// join and combine jobs), its timeline slices (one per traced job, one
// "X" event each in the trace), and the chunk jobs among them.
type lastStep struct {
	Jobs     uint64 `json:"jobs"`
	Slices   int    `json:"slices"`
	Chunks   int    `json:"chunks"`
	Steals   uint64 `json:"steals"`
	Commands int    `json:"commands"`
}

// critical is the last step's critical path.
type critical struct {
	Step uint64    `json:"step"`
	Ms   float64   `json:"ms"`
	Jobs []pathJob `json:"jobs"`
}

type pathJob struct {
	Label string  `json:"label"`
	First int     `json:"first_chunk"` // -1 for a join or a combine
	Last  int     `json:"last_chunk"`
	Ms    float64 `json:"ms"`
}

// prediction is the step time predicted from the measured job graph for
// a pool of this many participants (the owner included).
type prediction struct {
	Participants int  `json:"participants"`
	Ms           stat `json:"ms"`
}

func toStat(s profile.Stat) stat { return stat{s.P50, s.P95, s.P99, s.Max} }

func ms(d interface{ Nanoseconds() int64 }) float64 { return float64(d.Nanoseconds()) / 1e6 }

func newReport(o options, g *game.Game, allocs float64, hash uint64) *report {
	e := g.Engine()
	s, last := g.Profile().Summary(), g.Profile().Last()
	r := &report{Steps: o.steps, Entities: g.Len(), Visible: g.Visible(), Workers: e.Workers(), Batch: e.Batch(), Checks: e.Checks(),
		Window: s.Steps, Dropped: e.Dropped(), Step: toStat(s.Total), Schedule: toStat(s.Schedule), InWait: toStat(s.Wait),
		WaitIdle: toStat(s.WaitIdle), Playback: toStat(s.Playback), Merge: toStat(s.Merge),
		Work: toStat(s.Work), Span: toStat(s.Span), Parallelism: toStat(s.Parallelism),
		Jobs: toStat(s.Jobs), Chunks: toStat(s.Chunks), Steals: toStat(s.Steals), Markers: []marker{}, Counters: []counter{},
		Last:    lastStep{Jobs: last.Jobs, Slices: len(last.Timeline), Chunks: last.Chunks, Steals: last.Steals, Commands: last.Commands},
		Systems: []system{}, Critical: critical{Step: last.Step, Ms: ms(last.Span), Jobs: []pathJob{}},
		AllocsPerStep: allocs, Hash: fmt.Sprintf("%016x", hash)}
	for _, ss := range s.Systems {
		r.Systems = append(r.Systems, system{Name: ss.Name, Stage: ss.Stage.String(), Schedule: toStat(ss.Schedule), Span: toStat(ss.Span),
			Work: toStat(ss.Work), Merge: toStat(ss.Merge), Entities: ss.Entities.P50, Jobs: ss.Jobs.P50, NsPerEntity: ss.NsPerEntity,
			Ran: ss.Ran, Skipped: ss.Skipped})
	}
	for i, st := range s.Stages {
		r.Stages = append(r.Stages, stage{Name: engine.Stage(i).String(), Span: toStat(st)})
	}
	for _, b := range s.Workers {
		r.Busy = append(r.Busy, toStat(b))
	}
	for _, m := range s.Markers {
		r.Markers = append(r.Markers, marker{Name: m.Name, System: s.Systems[m.System].Name, Ms: toStat(m.Time), Spans: toStat(m.Calls)})
	}
	for _, n := range s.Counters {
		r.Counters = append(r.Counters, counter{Name: n.Name, System: s.Systems[n.System].Name, Value: toStat(n.Value)})
	}
	for _, p := range last.Critical {
		r.Critical.Jobs = append(r.Critical.Jobs, pathJob{Label: p.Label, First: p.First, Last: p.Last, Ms: ms(p.Cost)})
	}
	for i, p := range profile.PredictParticipants() {
		r.Prediction = append(r.Prediction, prediction{Participants: p, Ms: toStat(s.Predicted[i])})
	}
	return r
}
