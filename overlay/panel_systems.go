package overlay

import (
	"fmt"
	"math"
	"strings"

	"github.com/weft-engine/weft/profile"
)

// The systems table's columns and rows, in the panel's pixels.
const (
	sysBarX, sysBarW = 90, 80
	sysTextX         = 176
	rowH, subRowH    = 18, lineH
	sparkW           = 48 // a counter's graph
)

// sysRow is one row of the systems table: a system, or one of its
// markers or counters under it.
type sysRow struct {
	name       string
	sys        int32 // the system's index; -1 for a marker's or counter's row
	counter    int   // the counter's index on a counter's row, else -1
	span, work float64
	text       string
	y          int // its top, in the panel, at the last layout
}

// systemsPanel is the systems table in execution order: a bar for each
// system's span over a darker one for its work, then its figures; under
// each its markers and counters (with a small graph of the counter over
// the graph's steps). Live it shows the window's medians; with a step
// selected, that step's values with the median beside; with a baseline
// held, the shown step's value, the baseline's and the difference.
// Clicking a system shows only its jobs and markers in the timeline.
func (o *Overlay) systemsPanel() Panel {
	return Panel{Name: "systems", Dock: Left, Layout: o.layoutSystems, Input: func(p Pointer) bool {
		if !p.Click {
			return false
		}
		for _, r := range o.sysRows {
			if r.sys >= 0 && p.Y >= r.y && p.Y < r.y+rowH {
				if o.view.filter == r.sys {
					o.view.filter = -1
				} else {
					o.view.filter = r.sys
				}
				o.redo = 0
				return true
			}
		}
		return false
	}}
}

func (o *Overlay) layoutSystems(c *Canvas) int {
	limit := c.H - o.predictHeight(c.W) - 4 // the predictions under it show on every screen (4: the table's foot)
	o.systemRows(o.sum)
	y := c.Wrap(6, 0, o.systemsHead(), 2)
	scale := 0.0
	for _, r := range o.sysRows {
		scale = max(scale, r.work, r.span)
	}
	for i := range o.sysRows {
		r := &o.sysRows[i]
		h := rowH
		if r.sys < 0 {
			h = subRowH
		}
		if y+h+lineH > limit && i < len(o.sysRows)-1 { // keep a line to say what is left out
			y += c.Text(6, y, fmt.Sprintf("... %d more rows", len(o.sysRows)-i))
			break
		}
		r.y = y
		o.layoutRow(c, r, scale)
		y += h
	}
	return y + 4
}

// systemsHead is the table's title: what its columns show.
func (o *Overlay) systemsHead() string {
	switch {
	case o.base.lanes > 0:
		return fmt.Sprintf("systems: step %d | baseline step %d | difference (click: filter)", o.tl.step, o.base.step)
	case o.cap != nil && o.frozen:
		return fmt.Sprintf("systems: step %d | %s p50 | difference, span ms", o.tl.step, o.cap.name)
	case o.cap != nil:
		return fmt.Sprintf("systems: p50 | %s p50 | difference, span ms", o.cap.name)
	case o.frozen:
		return fmt.Sprintf("systems at step %d: span work ms (p50 span work) entities", o.tl.step)
	}
	return "systems p50 (click: filter): span work ms entities"
}

// layoutRow draws one row: its name, its bars, its figures.
func (o *Overlay) layoutRow(c *Canvas, r *sysRow, scale float64) {
	ry := float32(r.y)
	dy := 0
	if r.sys < 0 {
		if r.work > 0 && scale > 0 {
			c.rect(sysBarX, ry+4, float32(r.work/scale*sysBarW)+1, 4, colMarker)
		}
		if r.counter >= 0 {
			o.spark(c, r.counter, sysBarX, ry+1)
		}
	} else {
		col := systemColor(r.sys)
		c.rect(sysBarX, ry+2, sysBarW, 13, colLane)
		if scale > 0 {
			c.rect(sysBarX, ry+3, float32(r.span/scale*sysBarW)+1, 5, col)
			c.rect(sysBarX, ry+9, float32(r.work/scale*sysBarW)+1, 5, col.scaled(0.6))
		}
		if r.sys == o.view.filter {
			c.frame(2, ry, float32(c.W-4), rowH, 1, colText)
		}
	}
	c.Text(6, r.y+dy, ellipsis(r.name, (sysBarX-8)/charW))
	c.Text(sysTextX, r.y+dy, r.text)
}

// spark draws counter k's value over the graph's steps as a small bar
// graph, sparkW wide, scaled to its largest.
func (o *Overlay) spark(c *Canvas, k int, x, y float32) {
	var top int64 = 1
	for i := range sparkW {
		if _, tl := o.hist.at(graphLen - sparkW + i); k < len(tl.counters) {
			top = max(top, tl.counters[k].Value)
		}
	}
	c.rect(x, y, sparkW, 10, colLane)
	for i := range sparkW {
		if _, tl := o.hist.at(graphLen - sparkW + i); k < len(tl.counters) {
			h := float32(tl.counters[k].Value) / float32(top) * 10
			c.rect(x+float32(i), y+10-h, 1, h, colMarker)
		}
	}
}

// systemRows makes a row per system, each followed by its markers' and
// counters' rows, with the figures the mode asks for.
func (o *Overlay) systemRows(sum *profile.Summary) {
	o.sysRows = o.sysRows[:0]
	for i := range sum.Systems {
		s := &sum.Systems[i]
		r := sysRow{name: s.Name, sys: int32(i), counter: -1, span: s.Span.P50, work: s.Work.P50}
		r.text = o.systemText(sum, i)
		if st := o.stepSystem(&o.tl, i); st != nil && o.frozen {
			r.span, r.work = msf(st.Span), msf(st.Work)
		}
		o.sysRows = append(o.sysRows, r)
		for k := range sum.Markers {
			if m := &sum.Markers[k]; int(m.System) == i {
				o.sysRows = append(o.sysRows, sysRow{name: "  " + strings.TrimPrefix(m.Name, s.Name+"."), sys: -1, counter: -1,
					work: m.Time.P50, text: o.markerText(sum, k)})
			}
		}
		for k := range sum.Counters {
			if n := &sum.Counters[k]; int(n.System) == i {
				o.sysRows = append(o.sysRows, sysRow{name: "  " + strings.TrimPrefix(n.Name, s.Name+"."), sys: -1, counter: k,
					text: o.counterText(sum, k)})
			}
		}
	}
}

// stepSystem is system i's timings in t, or nil.
func (o *Overlay) stepSystem(t *timeline, i int) *profile.SystemTimings {
	if t.lanes == 0 || i >= len(t.systems) {
		return nil
	}
	return &t.systems[i]
}

func msf(d interface{ Seconds() float64 }) float64 { return d.Seconds() * 1000 }

// systemText is system i's figures: medians live; the selected step's
// and the medians; or the shown step's, the baseline's and the change.
func (o *Overlay) systemText(sum *profile.Summary, i int) string {
	s := &sum.Systems[i]
	cur, base := o.stepSystem(&o.tl, i), o.stepSystem(&o.base, i)
	switch {
	case base != nil && cur != nil:
		a, b := msf(cur.Span), msf(base.Span)
		return fmt.Sprintf("%6.2f | %6.2f | %+6.2f ms", a, b, change(a-b, 2))
	case o.hasCap("system", s.Name, "span ms"):
		a, b := o.capPair("system", s.Name, "span ms", s.Span.P50, cur != nil, func() float64 { return msf(cur.Span) })
		return fmt.Sprintf("%6.2f | %6.2f | %+6.2f", a, b, change(a-b, 2))
	case o.frozen && cur != nil && cur.Skipped:
		return fmt.Sprintf("skipped (p50 %.2f %.2f)", s.Span.P50, s.Work.P50)
	case o.frozen && cur != nil:
		return fmt.Sprintf("%5.2f %5.2f (%5.2f %5.2f) %d", msf(cur.Span), msf(cur.Work), s.Span.P50, s.Work.P50, cur.Entities)
	case s.Skipped > 0: // a run condition held in only some steps: medians alone would read as "free"
		return fmt.Sprintf("%5.2f %5.2f p99, ran %d/%d", s.Span.P99, s.Work.P99, s.Ran, s.Ran+s.Skipped)
	}
	return fmt.Sprintf("%5.2f %5.2f ms %6.0f", s.Span.P50, s.Work.P50, s.Entities.P50)
}

// markerText is marker k's figures, as systemText's.
func (o *Overlay) markerText(sum *profile.Summary, k int) string {
	m := &sum.Markers[k]
	cur, base := stepMarker(&o.tl, k), stepMarker(&o.base, k)
	switch {
	case base != nil && cur != nil:
		return fmt.Sprintf("%9s | %9s | %9s", dur(float64(cur.Time)), dur(float64(base.Time)), signedDur(float64(cur.Time-base.Time)))
	case o.hasCap("marker", m.Name, "ms"):
		a, b := o.capPair("marker", m.Name, "ms", m.Time.P50, cur != nil, func() float64 { return msf(cur.Time) })
		return fmt.Sprintf("%9s | %9s | %9s", dur(a*1e6), dur(b*1e6), signedDur((a-b)*1e6))
	case o.frozen && cur != nil:
		return fmt.Sprintf("%s %d spans (p50 %s)", dur(float64(cur.Time)), cur.Calls, dur(m.Time.P50*1e6))
	}
	return fmt.Sprintf("%s %.0f spans", dur(m.Time.P50*1e6), m.Calls.P50)
}

// hasCap reports whether the baseline capture is compared with and has
// the figure.
func (o *Overlay) hasCap(kind, name, measure string) bool {
	_, ok := o.capFig(kind, name, measure)
	return ok
}

// capPair is a figure and the capture's: the median, or the selected
// step's (step, when the step has the figure), and the capture's.
func (o *Overlay) capPair(kind, name, measure string, p50 float64, atStep bool, step func() float64) (a, b float64) {
	a = p50
	if o.frozen && atStep {
		a = step()
	}
	b, _ = o.capFig(kind, name, measure)
	return a, b
}

func stepMarker(t *timeline, k int) *profile.MarkerTimings {
	if t.lanes == 0 || k >= len(t.markers) {
		return nil
	}
	return &t.markers[k]
}

// counterText is counter k's figures, as systemText's.
func (o *Overlay) counterText(sum *profile.Summary, k int) string {
	n := &sum.Counters[k]
	var cur, base *profile.CounterValue
	if o.tl.lanes > 0 && k < len(o.tl.counters) {
		cur = &o.tl.counters[k]
	}
	if o.base.lanes > 0 && k < len(o.base.counters) {
		base = &o.base.counters[k]
	}
	switch {
	case base != nil && cur != nil:
		return fmt.Sprintf("%6d | %6d | %+6d", cur.Value, base.Value, cur.Value-base.Value)
	case o.hasCap("counter", n.Name, "value"):
		a, b := o.capPair("counter", n.Name, "value", n.Value.P50, cur != nil, func() float64 { return float64(cur.Value) })
		return fmt.Sprintf("%6.0f | %6.0f | %+6.0f", a, b, change(a-b, 0))
	case o.frozen && cur != nil:
		return fmt.Sprintf("%d (p50 %.0f)", cur.Value, n.Value.P50)
	}
	return fmt.Sprintf("%.0f /step (p99 %.0f)", n.Value.P50, n.Value.P99)
}

// change is a difference as printed with places decimals: 0 when it
// rounds to zero, so that it never reads "-0.00".
func change(d float64, places int) float64 {
	if math.Abs(d) < 0.5*math.Pow(10, -float64(places)) {
		return 0
	}
	return d
}

// signedDur is dur of a difference, with its sign: "+1.2 µs", "-300 ns",
// "0 ns".
func signedDur(ns float64) string {
	switch {
	case math.Abs(ns) < 0.5:
		return "0 ns"
	case ns > 0:
		return "+" + dur(ns)
	}
	return dur(ns)
}
