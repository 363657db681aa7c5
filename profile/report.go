package profile

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/weft-engine/weft/engine"
)

// ReportFormat names the JSON layout of Report; a reader refuses others.
const ReportFormat = "weft-profile/1"

// Report is a capture of the window's steps as one JSON value: what
// `go run ./demo/headless -json` prints (with the demo's own fields
// beside it) and `headless -compare` reads. Times are milliseconds; a
// Stat is a distribution over the window's steps (p50 is the median).
type Report struct {
	Format  string  `json:"format"` // ReportFormat
	Machine Machine `json:"machine"`
	Window  int     `json:"window"`  // steps the distributions cover: the last ones
	Dropped uint64  `json:"dropped"` // fixed steps dropped by the engine's MaxSteps so far
	Workers int     `json:"workers"` // worker goroutines besides the owner, in the last step
	Batch   int     `json:"batch"`   // rows per chunk in the last step

	Step        Stat          `json:"step_ms"`
	Stages      []StageReport `json:"stages"`
	Schedule    Stat          `json:"owner_schedule_ms"`
	InWait      Stat          `json:"owner_in_wait_ms"`      // the owner in Wait, running jobs or idle
	WaitIdle    Stat          `json:"owner_in_wait_idle_ms"` // of it, not running jobs
	Playback    Stat          `json:"playback_ms"`
	Merge       Stat          `json:"merge_ms"`
	Work        Stat          `json:"work_ms"`
	Span        Stat          `json:"span_ms"`
	Parallelism Stat          `json:"parallelism"`
	Jobs        Stat          `json:"jobs"`
	Chunks      Stat          `json:"chunks"`
	Steals      Stat          `json:"steals"`
	Busy        []Stat        `json:"busy_ms"` // per participant, the owner first

	Systems  []SystemReport  `json:"systems"`
	Markers  []MarkerReport  `json:"markers"`
	Counters []CounterReport `json:"counters"`

	GC   GCReport   `json:"gc"`
	Lost LostReport `json:"lost"`

	Last       LastStep           `json:"last_step"`
	Critical   CriticalPath       `json:"critical_path"`
	Prediction []PredictionReport `json:"prediction"`
}

// Machine is where a capture ran.
type Machine struct {
	GOMAXPROCS int    `json:"gomaxprocs"`
	NumCPU     int    `json:"num_cpu"`
	CPU        string `json:"cpu"` // the model, from /proc/cpuinfo; "" where unknown
	OS         string `json:"os"`
	Arch       string `json:"arch"`
	GoVersion  string `json:"go_version"`
	Commit     string `json:"commit"`   // the build's vcs.revision; "" when built without version control (go run, go test)
	Modified   bool   `json:"modified"` // the build's vcs.modified: uncommitted changes
}

// StageReport is a stage's span per step.
type StageReport struct {
	Name string `json:"name"`
	Span Stat   `json:"span_ms"`
}

// SystemReport is a system over the window.
type SystemReport struct {
	Name        string  `json:"name"`
	Stage       string  `json:"stage"`
	Schedule    Stat    `json:"schedule_ms"`
	Span        Stat    `json:"span_ms"`
	Work        Stat    `json:"work_ms"`
	Merge       Stat    `json:"merge_ms"`
	Entities    float64 `json:"entities"` // p50
	Jobs        float64 `json:"jobs"`     // p50
	NsPerEntity float64 `json:"ns_per_entity"`
	Ran         int     `json:"ran_steps"`     // steps it ran in (failed ones included)
	Skipped     int     `json:"skipped_steps"` // steps a run condition skipped it
	Failed      int     `json:"failed_steps"`  // steps it failed in
	Blocked     int     `json:"blocked_steps"` // steps another system's failure kept its jobs from running
}

// MarkerReport is a marker's summed time and spans per step.
type MarkerReport struct {
	Name   string `json:"name"`
	System string `json:"system"`
	Ms     Stat   `json:"ms"`
	Spans  Stat   `json:"spans"`
}

// CounterReport is a counter's total per step.
type CounterReport struct {
	Name   string `json:"name"`
	System string `json:"system"`
	Value  Stat   `json:"value"`
}

// GCReport is the garbage collector's pauses over the window.
type GCReport struct {
	InStep     Stat    `json:"in_step_ms"`       // pause time within a step
	Between    Stat    `json:"between_steps_ms"` // pause time between a step and the one before
	Pauses     int     `json:"pauses"`
	TotalMs    float64 `json:"total_ms"`
	MaxPauseMs float64 `json:"max_pause_ms"`
}

// LostReport counts what the window's steps did not record or apply.
type LostReport struct {
	TraceEvents     uint64 `json:"trace_events"`     // job trace events of full buffers
	MarkerSpans     uint64 `json:"marker_spans"`     // marker spans of full buffers
	CommandsSkipped int    `json:"commands_skipped"` // commands on dead entities or missing components
}

// LastStep counts the last step's jobs: the ones executed (chunk, range,
// join and combine jobs), its timeline slices (one per traced job, one
// "X" event each in the trace), and the chunk jobs among them.
type LastStep struct {
	Step     uint64 `json:"step"`
	Jobs     uint64 `json:"jobs"`
	Slices   int    `json:"slices"`
	Chunks   int    `json:"chunks"`
	Steals   uint64 `json:"steals"`
	Commands int    `json:"commands"`
}

// CriticalPath is the last step's critical path.
type CriticalPath struct {
	Step uint64       `json:"step"`
	Ms   float64      `json:"ms"`
	Jobs []PathReport `json:"jobs"`
}

// PathReport is one job of the critical path.
type PathReport struct {
	Label string  `json:"label"`
	First int     `json:"first_chunk"` // -1 for a join or a combine
	Last  int     `json:"last_chunk"`
	Ms    float64 `json:"ms"`
}

// PredictionReport is the step time predicted from the measured job
// graph for a pool of this many participants (the owner included).
type PredictionReport struct {
	Participants int  `json:"participants"`
	Ms           Stat `json:"ms"`
}

// ThisMachine describes the machine and build the program runs on.
func ThisMachine() Machine {
	m := Machine{GOMAXPROCS: runtime.GOMAXPROCS(0), NumCPU: runtime.NumCPU(), OS: runtime.GOOS, Arch: runtime.GOARCH,
		GoVersion: runtime.Version(), CPU: cpuModel()}
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				m.Commit = s.Value
			case "vcs.modified":
				m.Modified = s.Value == "true"
			}
		}
	}
	return m
}

// cpuModel is the first "model name" of /proc/cpuinfo, or "".
func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// Report captures the window as a Report, on this machine.
func (p *Profiler) Report() *Report {
	s, last := p.Summary(), p.Last()
	r := &Report{Format: ReportFormat, Machine: ThisMachine(), Window: s.Steps, Dropped: last.Dropped,
		Workers: max(len(last.Workers)-1, 0), Batch: last.Batch,
		Step: s.Total, Schedule: s.Schedule, InWait: s.Wait, WaitIdle: s.WaitIdle, Playback: s.Playback, Merge: s.Merge,
		Work: s.Work, Span: s.Span, Parallelism: s.Parallelism, Jobs: s.Jobs, Chunks: s.Chunks, Steals: s.Steals,
		Busy: append([]Stat{}, s.Workers...), Systems: []SystemReport{}, Markers: []MarkerReport{}, Counters: []CounterReport{},
		Last:     LastStep{Step: last.Step, Jobs: last.Jobs, Slices: len(last.Timeline), Chunks: last.Chunks, Steals: last.Steals, Commands: last.Commands},
		Critical: CriticalPath{Step: last.Step, Ms: ms(last.Span), Jobs: []PathReport{}}}
	for i, st := range s.Stages {
		r.Stages = append(r.Stages, StageReport{Name: engine.Stage(i).String(), Span: st})
	}
	for _, ss := range s.Systems {
		r.Systems = append(r.Systems, SystemReport{Name: ss.Name, Stage: ss.Stage.String(), Schedule: ss.Schedule, Span: ss.Span,
			Work: ss.Work, Merge: ss.Merge, Entities: ss.Entities.P50, Jobs: ss.Jobs.P50, NsPerEntity: ss.NsPerEntity,
			Ran: ss.Ran, Skipped: ss.Skipped, Failed: ss.Failed, Blocked: ss.Blocked})
	}
	for _, m := range s.Markers {
		r.Markers = append(r.Markers, MarkerReport{Name: m.Name, System: s.Systems[m.System].Name, Ms: m.Time, Spans: m.Calls})
	}
	for _, n := range s.Counters {
		r.Counters = append(r.Counters, CounterReport{Name: n.Name, System: s.Systems[n.System].Name, Value: n.Value})
	}
	for _, j := range last.Critical {
		r.Critical.Jobs = append(r.Critical.Jobs, PathReport{Label: j.Label, First: j.First, Last: j.Last, Ms: ms(j.Cost)})
	}
	for i, n := range PredictParticipants() {
		r.Prediction = append(r.Prediction, PredictionReport{Participants: n, Ms: s.Predicted[i]})
	}
	r.GC = GCReport{InStep: s.GC, Between: s.GCOutside}
	for i := range p.n {
		st := p.At(i)
		r.Lost.TraceEvents += st.Lost
		r.Lost.MarkerSpans += st.MarksLost
		r.Lost.CommandsSkipped += st.Problems
		r.GC.TotalMs += ms(st.GCTime + st.GCOutside)
		r.GC.Pauses += st.GCPauses
		r.GC.MaxPauseMs = max(r.GC.MaxPauseMs, ms(st.GCMaxPause))
	}
	return r
}

// ReadReport reads a Report written as JSON (other fields beside it, as
// headless writes them, are ignored).
func ReadReport(rd io.Reader) (*Report, error) {
	var r Report
	if err := json.NewDecoder(rd).Decode(&r); err != nil {
		return nil, fmt.Errorf("profile: reading a report: %w", err)
	}
	if r.Format != ReportFormat {
		return nil, fmt.Errorf("profile: the report's format is %q, not %q; write it again with this version (headless -json)", r.Format, ReportFormat)
	}
	return &r, nil
}
