package engine

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"
)

// Stat is a distribution over the window: durations in milliseconds.
type Stat struct{ P50, P95, P99, Max float64 }

// Summary is the window's distributions, for an overlay.
type Summary struct {
	Steps                                         int
	Total, Schedule, Wait, WaitIdle, Playback     Stat // WaitIdle: Wait less the owner's jobs
	Merge                                         Stat
	Work, Span, Parallelism, Jobs, Steals, Chunks Stat
	Predicted                                     [NumPredicted]Stat
	Stages                                        [numStages]Stat // spans
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
	Stage                       Stage
	Schedule, Span, Work, Merge Stat
	Entities, Jobs              Stat
	NsPerEntity                 float64 // median work per entity, in ns
}

// Summary computes the window's distributions. It reuses its buffers:
// the result is valid until the next call. Executed only by the owner.
func (t *Timings) Summary() *Summary {
	s := &t.sum
	s.Steps = t.n
	s.Total = t.stat(func(st *StepTimings) float64 { return ms(st.Total) })
	s.Schedule = t.stat(func(st *StepTimings) float64 { return ms(st.Schedule) })
	s.Wait = t.stat(func(st *StepTimings) float64 { return ms(st.Wait) })
	s.WaitIdle = t.stat(func(st *StepTimings) float64 { return ms(st.Wait - ownerBusy(st)) })
	s.Playback = t.stat(func(st *StepTimings) float64 { return ms(st.Playback) })
	s.Merge = t.stat(func(st *StepTimings) float64 { return ms(st.Merge) })
	s.Work = t.stat(func(st *StepTimings) float64 { return ms(st.Work) })
	s.Span = t.stat(func(st *StepTimings) float64 { return ms(st.Span) })
	s.Parallelism = t.stat(func(st *StepTimings) float64 { return st.Parallelism })
	s.Jobs = t.stat(func(st *StepTimings) float64 { return float64(st.Jobs) })
	s.Steals = t.stat(func(st *StepTimings) float64 { return float64(st.Steals) })
	s.Chunks = t.stat(func(st *StepTimings) float64 { return float64(st.Chunks) })
	for i := range s.Predicted {
		s.Predicted[i] = t.stat(func(st *StepTimings) float64 { return ms(st.Predicted[i]) })
	}
	for i := range s.Stages {
		s.Stages[i] = t.stat(func(st *StepTimings) float64 { return ms(st.Stages[i].Span) })
	}
	t.summarizeSystems(s)
	t.summarizeMarks(s)
	nw := len(t.cur.Workers)
	if cap(s.Workers) < nw {
		s.Workers = make([]Stat, nw)
	}
	s.Workers = s.Workers[:nw]
	for i := range s.Workers {
		s.Workers[i] = t.stat(func(st *StepTimings) float64 {
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
func (t *Timings) stat(get func(st *StepTimings) float64) Stat {
	t.scr = t.scr[:0]
	for i := 0; i < t.n; i++ {
		t.scr = append(t.scr, get(&t.ring[i]))
	}
	return quantiles(t.scr)
}

func (t *Timings) summarizeSystems(s *Summary) {
	for i := range s.Systems {
		ss := &s.Systems[i]
		ss.Name, ss.Stage = t.cur.Systems[i].Name, t.cur.Systems[i].Stage
		ss.Schedule = t.stat(func(st *StepTimings) float64 { return ms(st.Systems[i].Schedule) })
		ss.Span = t.stat(func(st *StepTimings) float64 { return ms(st.Systems[i].Span) })
		ss.Work = t.stat(func(st *StepTimings) float64 { return ms(st.Systems[i].Work) })
		ss.Merge = t.stat(func(st *StepTimings) float64 { return ms(st.Systems[i].Merge) })
		ss.Entities = t.stat(func(st *StepTimings) float64 { return float64(st.Systems[i].Entities) })
		ss.Jobs = t.stat(func(st *StepTimings) float64 { return float64(st.Systems[i].Jobs) })
		ss.NsPerEntity = 0
		if ss.Entities.P50 > 0 {
			ss.NsPerEntity = ss.Work.P50 * 1e6 / ss.Entities.P50
		}
	}
}

func (t *Timings) summarizeMarks(s *Summary) {
	for i := range s.Markers {
		m := &s.Markers[i]
		m.Name, m.System = t.cur.Markers[i].Name, t.cur.Markers[i].System
		m.Time = t.stat(func(st *StepTimings) float64 { return ms(st.Markers[i].Time) })
		m.Calls = t.stat(func(st *StepTimings) float64 { return float64(st.Markers[i].Calls) })
	}
	for i := range s.Counters {
		n := &s.Counters[i]
		n.Name, n.System = t.cur.Counters[i].Name, t.cur.Counters[i].System
		n.Value = t.stat(func(st *StepTimings) float64 { return float64(st.Counters[i].Value) })
	}
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

// WriteTable writes the window's distributions, the systems with their
// markers and counters, and the last step's critical path as a text
// table, for terminals. Executed only by the owner.
func (t *Timings) WriteTable(w io.Writer) error {
	s := t.Summary()
	c := &t.cur
	var b strings.Builder
	row := func(name string, st Stat) {
		fmt.Fprintf(&b, "%-26s %8.3f %8.3f %8.3f %8.3f\n", name, st.P50, st.P95, st.P99, st.Max)
	}
	fmt.Fprintf(&b, "timings of the last %d steps (the window), last step %d, %d workers + owner, steps dropped %d\n", s.Steps, c.Step, max(len(c.Workers)-1, 0), t.Dropped)
	fmt.Fprintf(&b, "%-26s %8s %8s %8s %8s\n", "ms per step", "p50", "p95", "p99", "max")
	row("step", s.Total)
	for i, st := range s.Stages {
		row("  stage "+Stage(i).String(), st)
	}
	row("  owner schedule", s.Schedule)
	row("  owner in Wait", s.Wait)
	row("    of it idle", s.WaitIdle)
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
			name = "busy owner (jobs in Wait)"
		}
		row(name, st)
	}
	fmt.Fprintf(&b, "parallelism p50 %.2f, jobs p50 %.0f, chunks p50 %.0f, steals p50 %.0f\n", s.Parallelism.P50, s.Jobs.P50, s.Chunks.P50, s.Steals.P50)
	writeSystems(&b, s)
	fmt.Fprintf(&b, "\ncritical path of step %d (%d jobs, %.3f ms):\n", c.Step, len(c.Critical), float64(c.Span)/1e6)
	for _, p := range c.Critical {
		chunks := fmt.Sprintf("chunks %d..%d", p.First, p.Last)
		if p.First < 0 {
			chunks = "(join)"
		}
		fmt.Fprintf(&b, "  %-24s %-16s %8.3f ms\n", p.Label, chunks, float64(p.Cost)/1e6)
	}
	if c.Problems > 0 || c.Lost > 0 || c.MarksLost > 0 {
		fmt.Fprintf(&b, "commands skipped %d, trace events lost %d, marker spans lost %d\n", c.Problems, c.Lost, c.MarksLost)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeSystems writes a row per system, each followed by its markers'
// and counters' rows.
func writeSystems(b *strings.Builder, s *Summary) {
	fmt.Fprintf(b, "\n%-16s %-10s %8s %8s %8s %8s %8s %9s %6s %8s\n", "system", "stage", "sched", "span", "work", "work p99", "merge", "entities", "jobs", "ns/ent")
	for i, ss := range s.Systems {
		fmt.Fprintf(b, "%-16s %-10s %8.3f %8.3f %8.3f %8.3f %8.3f %9.0f %6.0f %8.1f\n", ss.Name, ss.Stage, ss.Schedule.P50, ss.Span.P50, ss.Work.P50, ss.Work.P99, ss.Merge.P50, ss.Entities.P50, ss.Jobs.P50, ss.NsPerEntity)
		for _, m := range s.Markers {
			if int(m.System) == i {
				fmt.Fprintf(b, "  marker %-26s ms p50 %.3f p99 %.3f, spans p50 %.0f\n", m.Name, m.Time.P50, m.Time.P99, m.Calls.P50)
			}
		}
		for _, n := range s.Counters {
			if int(n.System) == i {
				fmt.Fprintf(b, "  counter %-25s p50 %.0f p99 %.0f max %.0f\n", n.Name, n.Value.P50, n.Value.P99, n.Value.Max)
			}
		}
	}
}
