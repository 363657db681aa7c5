package profile

import (
	"fmt"
	"io"
	"math"
	"strings"
	"time"
)

// Figure is one named value of a step or a capture: Kind is "step",
// "system", "marker", "counter" or "gc"; Name the system, marker or
// counter ("" for the step and GC); Measure what was measured, with its
// unit ("work ms", "entities", "value").
type Figure struct {
	Kind, Name, Measure string
	Value               float64
}

// Difference is one figure of two steps or captures side by side: Value
// is the first's, Other the second's, Diff their difference (Value less
// Other). A figure that only one side has is 0 on the other, with In
// saying which side has it: 0 both, 1 the first only, 2 the second only.
type Difference struct {
	Kind, Name, Measure string
	Value, Other, Diff  float64
	In                  int
}

// Figures is the step's values: the step's times, each system's,
// marker's and counter's, and its GC pause time.
func (st *StepTimings) Figures() []Figure {
	f := []Figure{
		{"step", "", "total ms", ms(st.Total)}, {"step", "", "owner schedule ms", ms(st.Schedule)},
		{"step", "", "owner in Wait ms", ms(st.Wait)}, {"step", "", "playback ms", ms(st.Playback)},
		{"step", "", "merge ms", ms(st.Merge)}, {"step", "", "work ms", ms(st.Work)}, {"step", "", "span ms", ms(st.Span)},
		{"gc", "", "in step ms", ms(st.GCTime)}, {"gc", "", "between steps ms", ms(st.GCOutside)},
	}
	for _, s := range st.Systems {
		f = append(f, Figure{"system", s.Name, "schedule ms", ms(s.Schedule)}, Figure{"system", s.Name, "span ms", ms(s.Span)},
			Figure{"system", s.Name, "work ms", ms(s.Work)}, Figure{"system", s.Name, "merge ms", ms(s.Merge)},
			Figure{"system", s.Name, "entities", float64(s.Entities)})
	}
	for _, m := range st.Markers {
		f = append(f, Figure{"marker", m.Name, "ms", ms(m.Time)}, Figure{"marker", m.Name, "spans", float64(m.Calls)})
	}
	for _, c := range st.Counters {
		f = append(f, Figure{"counter", c.Name, "value", float64(c.Value)})
	}
	return f
}

// Figures is the capture's medians, figure for figure as
// StepTimings.Figures.
func (r *Report) Figures() []Figure {
	f := []Figure{
		{"step", "", "total ms", r.Step.P50}, {"step", "", "owner schedule ms", r.Schedule.P50},
		{"step", "", "owner in Wait ms", r.InWait.P50}, {"step", "", "playback ms", r.Playback.P50},
		{"step", "", "merge ms", r.Merge.P50}, {"step", "", "work ms", r.Work.P50}, {"step", "", "span ms", r.Span.P50},
		{"gc", "", "in step ms", r.GC.InStep.P50}, {"gc", "", "between steps ms", r.GC.Between.P50},
	}
	for _, s := range r.Systems {
		f = append(f, Figure{"system", s.Name, "schedule ms", s.Schedule.P50}, Figure{"system", s.Name, "span ms", s.Span.P50},
			Figure{"system", s.Name, "work ms", s.Work.P50}, Figure{"system", s.Name, "merge ms", s.Merge.P50},
			Figure{"system", s.Name, "entities", s.Entities})
	}
	for _, m := range r.Markers {
		f = append(f, Figure{"marker", m.Name, "ms", m.Ms.P50}, Figure{"marker", m.Name, "spans", m.Spans.P50})
	}
	for _, c := range r.Counters {
		f = append(f, Figure{"counter", c.Name, "value", c.Value.P50})
	}
	return f
}

// Compare sets figures a and b side by side, in a's order, then those
// only b has, in b's.
func Compare(a, b []Figure) []Difference {
	key := func(f Figure) string { return f.Kind + "\x00" + f.Name + "\x00" + f.Measure }
	inB := make(map[string]int, len(b))
	for i, f := range b {
		inB[key(f)] = i
	}
	seen := make([]bool, len(b))
	d := make([]Difference, 0, len(a)+len(b))
	for _, f := range a {
		x := Difference{Kind: f.Kind, Name: f.Name, Measure: f.Measure, Value: f.Value, Diff: f.Value, In: 1}
		if i, ok := inB[key(f)]; ok {
			seen[i] = true
			x.Other, x.Diff, x.In = b[i].Value, f.Value-b[i].Value, 0
		}
		d = append(d, x)
	}
	for i, f := range b {
		if !seen[i] {
			d = append(d, Difference{Kind: f.Kind, Name: f.Name, Measure: f.Measure, Other: f.Value, Diff: -f.Value, In: 2})
		}
	}
	return d
}

// WriteComparison writes d as a text table: each figure's value, the
// other's, the difference and the difference in percent of the other's;
// aName and bName head the columns.
func WriteComparison(w io.Writer, aName, bName string, d []Difference) error {
	rows := [][]string{{"figure", "measure", aName, bName, "difference", "%"}}
	for _, x := range d {
		name := x.Kind
		if x.Name != "" {
			name += " " + x.Name
		}
		pct := "-"
		if x.In == 0 && x.Other != 0 {
			pct = fmt.Sprintf("%+.1f", 100*x.Diff/math.Abs(x.Other))
		}
		a, o := num(x.Value), num(x.Other)
		switch x.In {
		case 1:
			o = "absent"
		case 2:
			a = "absent"
		}
		rows = append(rows, []string{name, x.Measure, a, o, signed(x.Diff), pct})
	}
	width := make([]int, len(rows[0]))
	for _, r := range rows {
		for i, c := range r {
			width[i] = max(width[i], len(c))
		}
	}
	var b strings.Builder
	for _, r := range rows {
		for i, c := range r {
			if i < 2 { // names left, numbers right
				fmt.Fprintf(&b, "%-*s  ", width[i], c)
			} else {
				fmt.Fprintf(&b, "%*s  ", width[i], c)
			}
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, strings.ReplaceAll(b.String(), "  \n", "\n"))
	return err
}

// num prints v with three decimals, or as an integer when it is one.
func num(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.3f", v)
}

func signed(v float64) string {
	if v >= 0 {
		return "+" + num(v)
	}
	return num(v)
}

// GC is the GC pause time and the number of pauses that ended in
// (from, to] on the engine's clock (engine.Engine.Clock), among the pauses
// of the steps whose detail the window keeps: a frame's GC time, for
// example, pauses between its steps included.
func (p *Profiler) GC(from, to int64) (time.Duration, int) {
	var total time.Duration
	n := 0
	for i := range p.n {
		st := p.At(i)
		for _, g := range st.GC {
			if end := st.Start + g.End; end > from && end <= to {
				total += time.Duration(g.End - g.Start)
				n++
			}
		}
	}
	return total, n
}
