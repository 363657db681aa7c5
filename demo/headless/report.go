package main

import (
	"fmt"

	"github.com/weft-engine/weft/demo/game"
	"github.com/weft-engine/weft/engine"
)

// report is the -json output.
type report struct {
	Frames      int          `json:"frames"`
	Entities    int          `json:"entities"` // alive at the end
	Visible     int          `json:"visible"`
	Workers     int          `json:"workers"`
	Batch       int          `json:"batch"`
	Checks      bool         `json:"checks"`
	Window      int          `json:"window"` // steps the distributions cover
	Step        stat         `json:"step_ms"`
	Work        stat         `json:"work_ms"`
	Span        stat         `json:"span_ms"`
	Parallelism stat         `json:"parallelism"`
	Systems     []system     `json:"systems"`
	Last        lastStep     `json:"last_step"`
	Critical    critical     `json:"critical_path"`
	Prediction  []prediction `json:"prediction"`
	// Heap allocations per step over the run's second half, once the
	// buffers have grown: 0 in steady state.
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

func toStat(s engine.Stat) stat { return stat{s.P50, s.P95, s.P99, s.Max} }

func ms(d interface{ Nanoseconds() int64 }) float64 { return float64(d.Nanoseconds()) / 1e6 }

func newReport(o options, g *game.Game, allocs float64) *report {
	e := g.Engine()
	s, last := e.Timings().Summary(), e.Timings().Last()
	r := &report{Frames: o.frames, Entities: g.Len(), Visible: g.Visible(), Workers: e.Workers(), Batch: e.Batch(), Checks: e.Checks(),
		Window: s.Steps, Step: toStat(s.Total), Work: toStat(s.Work), Span: toStat(s.Span), Parallelism: toStat(s.Parallelism),
		Last:    lastStep{Jobs: last.Jobs, Slices: len(last.Timeline), Chunks: last.Chunks, Steals: last.Steals, Commands: last.Commands},
		Systems: []system{}, Critical: critical{Step: last.Step, Ms: ms(last.Span), Jobs: []pathJob{}},
		AllocsPerStep: allocs, Hash: fmt.Sprintf("%016x", g.Hash())}
	for _, ss := range s.Systems {
		r.Systems = append(r.Systems, system{Name: ss.Name, Stage: ss.Stage.String(), Schedule: toStat(ss.Schedule), Span: toStat(ss.Span),
			Work: toStat(ss.Work), Merge: toStat(ss.Merge), Entities: ss.Entities.P50, Jobs: ss.Jobs.P50, NsPerEntity: ss.NsPerEntity})
	}
	for _, p := range last.Critical {
		r.Critical.Jobs = append(r.Critical.Jobs, pathJob{Label: p.Label, First: p.First, Last: p.Last, Ms: ms(p.Cost)})
	}
	for i, p := range engine.PredictParticipants() {
		r.Prediction = append(r.Prediction, prediction{Participants: p, Ms: toStat(s.Predicted[i])})
	}
	return r
}
