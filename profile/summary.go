package profile

import (
	"math"
	"slices"
	"time"

	"github.com/weft-engine/weft/engine"
)

// Stat is a distribution over the window: durations in milliseconds.
type Stat struct {
	P50 float64 `json:"p50"`
	P95 float64 `json:"p95"`
	P99 float64 `json:"p99"`
	Max float64 `json:"max"`
}

// Summary is the window's distributions, for an overlay or a report.
type Summary struct {
	Steps                                         int
	Total, Schedule, Wait, WaitIdle, Playback     Stat // WaitIdle: Wait less the owner's jobs
	Merge                                         Stat
	Work, Span, Parallelism, Jobs, Steals, Chunks Stat
	GC, GCOutside                                 Stat // pause time within steps, and between them
	Predicted                                     [NumPredicted]Stat
	Stages                                        [engine.NumStages]Stat // spans
	Systems                                       []SystemSummary
	Workers                                       []Stat // busy
	Markers                                       []MarkerSummary
	Counters                                      []CounterSummary
}

// MarkerSummary is one marker's distributions over the window: its summed
// time per step and its spans per step.
type MarkerSummary struct {
	Name        string
	System      int32 // index into Systems
	Time, Calls Stat
}

// CounterSummary is one counter's distribution over the window: its total
// per step.
type CounterSummary struct {
	Name   string
	System int32 // index into Systems
	Value  Stat
}

// SystemSummary is one system's distributions over the window.
type SystemSummary struct {
	Name                        string
	Stage                       engine.Stage
	Schedule, Span, Work, Merge Stat
	Entities, Jobs              Stat
	NsPerEntity                 float64 // median work per entity, in ns
	// Ran, Skipped, Failed and Blocked count the window's steps in which
	// the system ran (failed ones included), in which a run condition
	// did not hold, in which it failed, and in which another system's
	// failure blocked its jobs. The stats above are over every step of
	// the window, skipped ones too.
	Ran, Skipped, Failed, Blocked int
}

// Summary computes the window's distributions. It reuses its buffers:
// the result is valid until the next call.
func (p *Profiler) Summary() *Summary {
	s := &p.sum
	s.Steps = p.n
	s.Total = p.stat(func(st *StepTimings) float64 { return ms(st.Total) })
	s.Schedule = p.stat(func(st *StepTimings) float64 { return ms(st.Schedule) })
	s.Wait = p.stat(func(st *StepTimings) float64 { return ms(st.Wait) })
	s.WaitIdle = p.stat(func(st *StepTimings) float64 { return ms(st.Wait - ownerBusy(st)) })
	s.Playback = p.stat(func(st *StepTimings) float64 { return ms(st.Playback) })
	s.Merge = p.stat(func(st *StepTimings) float64 { return ms(st.Merge) })
	s.Work = p.stat(func(st *StepTimings) float64 { return ms(st.Work) })
	s.Span = p.stat(func(st *StepTimings) float64 { return ms(st.Span) })
	s.Parallelism = p.stat(func(st *StepTimings) float64 { return st.Parallelism })
	s.Jobs = p.stat(func(st *StepTimings) float64 { return float64(st.Jobs) })
	s.Steals = p.stat(func(st *StepTimings) float64 { return float64(st.Steals) })
	s.Chunks = p.stat(func(st *StepTimings) float64 { return float64(st.Chunks) })
	s.GC = p.stat(func(st *StepTimings) float64 { return ms(st.GCTime) })
	s.GCOutside = p.stat(func(st *StepTimings) float64 { return ms(st.GCOutside) })
	for i := range s.Predicted {
		s.Predicted[i] = p.stat(func(st *StepTimings) float64 { return ms(st.Predicted[i]) })
	}
	for i := range s.Stages {
		s.Stages[i] = p.stat(func(st *StepTimings) float64 { return ms(st.Stages[i].Span) })
	}
	p.summarizeSystems(s)
	p.summarizeMarks(s)
	nw := len(p.Last().Workers)
	if cap(s.Workers) < nw {
		s.Workers = make([]Stat, nw)
	}
	s.Workers = s.Workers[:nw]
	for i := range s.Workers {
		s.Workers[i] = p.stat(func(st *StepTimings) float64 {
			if i < len(st.Workers) {
				return ms(st.Workers[i].Busy)
			}
			return 0
		})
	}
	return s
}

func ms(d time.Duration) float64 { return float64(d) / 1e6 }

// ownerBusy is the owner's job time in the step: in Wait, helping.
func ownerBusy(st *StepTimings) time.Duration {
	if len(st.Workers) == 0 {
		return 0
	}
	return min(st.Workers[0].Busy, st.Wait)
}

// stat is the distribution of get over the window's steps.
func (p *Profiler) stat(get func(st *StepTimings) float64) Stat {
	p.scr = p.scr[:0]
	for i := 0; i < p.n; i++ {
		p.scr = append(p.scr, get(&p.ring[i]))
	}
	return quantiles(p.scr)
}

func (p *Profiler) summarizeSystems(s *Summary) {
	last := p.Last()
	s.Systems = resize(s.Systems, len(last.Systems))
	for i := range s.Systems {
		ss := &s.Systems[i]
		ss.Name, ss.Stage = last.Systems[i].Name, last.Systems[i].Stage
		ss.Schedule = p.stat(func(st *StepTimings) float64 { return ms(st.Systems[i].Schedule) })
		ss.Span = p.stat(func(st *StepTimings) float64 { return ms(st.Systems[i].Span) })
		ss.Work = p.stat(func(st *StepTimings) float64 { return ms(st.Systems[i].Work) })
		ss.Merge = p.stat(func(st *StepTimings) float64 { return ms(st.Systems[i].Merge) })
		ss.Entities = p.stat(func(st *StepTimings) float64 { return float64(st.Systems[i].Entities) })
		ss.Jobs = p.stat(func(st *StepTimings) float64 { return float64(st.Systems[i].Jobs) })
		ss.Ran, ss.Skipped, ss.Failed, ss.Blocked = 0, 0, 0, 0
		for k := 0; k < p.n; k++ {
			st := &p.ring[k].Systems[i]
			ss.Ran += b2i(st.Ran)
			ss.Skipped += b2i(st.Skipped)
			ss.Failed += b2i(st.State == engine.SystemFailed)
			ss.Blocked += b2i(st.State == engine.SystemBlocked)
		}
		ss.NsPerEntity = 0
		if ss.Entities.P50 > 0 {
			ss.NsPerEntity = ss.Work.P50 * 1e6 / ss.Entities.P50
		}
	}
}

func (p *Profiler) summarizeMarks(s *Summary) {
	last := p.Last()
	s.Markers = resize(s.Markers, len(last.Markers))
	for i := range s.Markers {
		m := &s.Markers[i]
		m.Name, m.System = last.Markers[i].Name, last.Markers[i].System
		m.Time = p.stat(func(st *StepTimings) float64 { return ms(st.Markers[i].Time) })
		m.Calls = p.stat(func(st *StepTimings) float64 { return float64(st.Markers[i].Calls) })
	}
	s.Counters = resize(s.Counters, len(last.Counters))
	for i := range s.Counters {
		n := &s.Counters[i]
		n.Name, n.System = last.Counters[i].Name, last.Counters[i].System
		n.Value = p.stat(func(st *StepTimings) float64 { return float64(st.Counters[i].Value) })
	}
}

// resize is s with length n, reusing its array when it can.
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
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

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
