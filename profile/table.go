package profile

import (
	"fmt"
	"io"
	"strings"

	"github.com/weft-engine/weft/engine"
)

// String is the table of WriteTable.
func (p *Profiler) String() string {
	var b strings.Builder
	p.WriteTable(&b)
	return b.String()
}

// WriteTable writes the window's distributions, the systems with their
// markers and counters, and the last step's critical path as a text
// table, for terminals.
func (p *Profiler) WriteTable(w io.Writer) error {
	s := p.Summary()
	c := p.Last()
	var b strings.Builder
	row := func(name string, st Stat) {
		fmt.Fprintf(&b, "%-26s %8.3f %8.3f %8.3f %8.3f\n", name, st.P50, st.P95, st.P99, st.Max)
	}
	fmt.Fprintf(&b, "timings of the last %d steps (the window), last step %d, %d workers + owner, steps dropped %d\n", s.Steps, c.Step, max(len(c.Workers)-1, 0), c.Dropped)
	fmt.Fprintf(&b, "%-26s %8s %8s %8s %8s\n", "ms per step", "p50", "p95", "p99", "max")
	row("step", s.Total)
	for i, st := range s.Stages {
		row("  stage "+engine.Stage(i).String(), st)
	}
	row("  owner schedule", s.Schedule)
	row("  owner in Wait", s.Wait)
	row("    of it idle", s.WaitIdle)
	row("  playback", s.Playback)
	row("  merge", s.Merge)
	row("GC pauses in the step", s.GC)
	row("GC pauses between steps", s.GCOutside)
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
	writeSystems(&b, s, c)
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
// and counters' rows, and by the failure that failed or blocked it in the
// last step.
func writeSystems(b *strings.Builder, s *Summary, last *StepTimings) {
	fmt.Fprintf(b, "\n%-16s %-10s %8s %8s %8s %8s %8s %9s %6s %8s\n", "system", "stage", "sched", "span", "work", "work p99", "merge", "entities", "jobs", "ns/ent")
	for i, ss := range s.Systems {
		fmt.Fprintf(b, "%-16s %-10s %8.3f %8.3f %8.3f %8.3f %8.3f %9.0f %6.0f %8.1f\n", ss.Name, ss.Stage, ss.Schedule.P50, ss.Span.P50, ss.Work.P50, ss.Work.P99, ss.Merge.P50, ss.Entities.P50, ss.Jobs.P50, ss.NsPerEntity)
		if ss.Skipped > 0 {
			fmt.Fprintf(b, "  skipped by a run condition in %d of %d steps (ran in %d)\n", ss.Skipped, s.Steps, ss.Ran)
		}
		if ss.Failed+ss.Blocked > 0 {
			fmt.Fprintf(b, "  failed in %d of %d steps, blocked by another system's failure in %d\n", ss.Failed, s.Steps, ss.Blocked)
		}
		if i < len(last.Systems) && last.Systems[i].Cause != "" {
			fmt.Fprintf(b, "  %s in step %d: %s\n", last.Systems[i].State, last.Step, last.Systems[i].Cause)
		}
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
