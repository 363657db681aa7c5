package main

import (
	"fmt"
	"math"
	"time"

	"github.com/weft-engine/weft/demo/internal/game"
	"github.com/weft-engine/weft/engine"
)

// timeline is one step's job slices and marker spans, copied from the
// engine's timings so that it outlives the step; its buffers are reused,
// so that a ring of them (the spike history) allocates nothing once grown.
type timeline struct {
	slices  []engine.Slice
	marks   []engine.MarkSpan
	names   []string // system names, by index
	markers []string // marker names, by index
	lanes   int      // participants: the owner and the workers
	step    uint64
	jobs    uint64
	total   time.Duration // the whole step
	end     int64         // the last slice's end, ns since the first start
	span    time.Duration
	path    time.Duration // the critical path's cost
	pathLen int
	gc      bool // a GC cycle ended during the step
}

func (t *timeline) copyFrom(st *engine.StepTimings, gc bool) {
	t.slices = append(t.slices[:0], st.Timeline...)
	t.marks = append(t.marks[:0], st.Marks...)
	t.names = t.names[:0]
	for i := range st.Systems {
		t.names = append(t.names, st.Systems[i].Name)
	}
	t.markers = t.markers[:0]
	for i := range st.Markers {
		t.markers = append(t.markers, st.Markers[i].Name)
	}
	t.lanes, t.step, t.jobs, t.span, t.total, t.gc = len(st.Workers), st.Step, st.Jobs, st.Span, st.Total, gc
	t.end, t.path = 0, 0
	for i := range t.slices {
		t.end = max(t.end, t.slices[i].End)
	}
	for _, p := range st.Critical {
		t.path += p.Cost
	}
	t.pathLen = len(st.Critical)
}

// copyTimeline copies src into t, reusing t's buffers.
func (t *timeline) copyTimeline(src *timeline) {
	sl, mk, nm, mn := t.slices, t.marks, t.names, t.markers
	*t = *src
	t.slices = append(sl[:0], src.slices...)
	t.marks = append(mk[:0], src.marks...)
	t.names = append(nm[:0], src.names...)
	t.markers = append(mn[:0], src.markers...)
}

// tlView is the part of the timeline shown: a window of time, zoomed and
// panned with the wheel and dragging over the timeline, and a filter by
// system (click its row in the systems table).
type tlView struct {
	from, to int64 // ns since the step's first job; to == 0 shows the whole step
	filter   int32 // the system shown, or -1 for all
	dragX    int   // the cursor's x at the last frame of a drag, or -1
}

// window is the shown time range for a step that ends at end.
func (v *tlView) window(end int64) (from, to int64) {
	if v.to <= v.from {
		return 0, max(end, 1)
	}
	return v.from, v.to
}

// zoom zooms by k (< 1 zooms in) about the time under x, on a timeline
// width pixels wide that ends at end.
func (v *tlView) zoom(k float64, x, width float32, end int64) {
	from, to := v.window(end)
	at := from + int64(float64(to-from)*float64(min(max(x, 0), width)/width))
	span := min(max(int64(float64(to-from)*k), 1000), max(end, 1)) // 1 µs at most zoomed in
	v.from = min(max(at-int64(float64(at-from)*k), 0), max(end-span, 0))
	v.to = v.from + span
	if v.from == 0 && v.to >= end {
		v.from, v.to = 0, 0 // all of it again
	}
}

// pan moves the shown range by dx pixels of a timeline width pixels wide.
func (v *tlView) pan(dx, width float32, end int64) {
	from, to := v.window(end)
	if v.to <= v.from {
		return // the whole step shows: nothing to pan to
	}
	d := int64(float64(dx) / float64(width) * float64(to-from))
	span := to - from
	v.from = min(max(from-d, 0), max(end-span, 0))
	v.to = v.from + span
}

// shows reports whether the view's filter lets system sys through.
func (v *tlView) shows(sys int32) bool { return v.filter < 0 || sys == v.filter }

// msTick is the spacing of the ms axis' ticks for a range of span ms: 1,
// 2 or 5 times a power of ten, at most 10 ticks.
func msTick(span float64) float64 {
	for tick := 0.001; ; tick *= 10 {
		for _, m := range [...]float64{1, 2, 5} {
			if span/(tick*m) <= 10 {
				return tick * m
			}
		}
	}
}

// tickLabel is a tick's text: ms with as many decimals as the spacing needs.
func tickLabel(ms, tick float64) string {
	switch {
	case tick >= 1:
		return fmt.Sprintf("%.0f ms", ms)
	case tick >= 0.1:
		return fmt.Sprintf("%.1f", ms)
	case tick >= 0.01:
		return fmt.Sprintf("%.2f", ms)
	}
	return fmt.Sprintf("%.3f", ms)
}

// box is slice i's box in the timeline; the timeline spans width pixels
// of the screen from laneLabelW. ok is false when the box is outside the
// shown range or filtered out.
func (o *overlay) box(i int, width float32) (x, y, w, h float32, ok bool) {
	sl := &o.tl.slices[i]
	x, w, ok = o.span(sl.Start, sl.End, width)
	return x, float32(o.timelineTop + lineH + int(sl.Worker)*o.lh), w, float32(o.lh - 1), ok && o.view.shows(sl.System)
}

// span is the horizontal extent of [start, end] in the shown range.
func (o *overlay) span(start, end int64, width float32) (x, w float32, ok bool) {
	from, to := o.view.window(o.tl.end)
	if end < from || start > to {
		return 0, 0, false
	}
	scale := width / float32(to-from)
	x0 := laneLabelW + float32(max(start, from)-from)*scale
	x1 := laneLabelW + float32(min(end, to)-from)*scale
	return x0, max(x1-x0, 1), true
}

func tlWidth(sw int) float32 { return float32(sw - laneLabelW - 8) }

// markBox is marker span i's box: a thinner box inside its job's,
// lower for each level of nesting.
func (o *overlay) markBox(i int, width float32) (x, y, w, h float32, ok bool) {
	m := &o.tl.marks[i]
	x, w, ok = o.span(m.Start, m.End, width)
	inset := float32(3 + 2*m.Depth)
	return x, float32(o.timelineTop+lineH+int(m.Worker)*o.lh) + inset, w, max(float32(o.lh-1)-2*inset, 2), ok
}

// paintTimeline adds the lanes, the ms axis' ticks, a box per job
// (coloured by system, bright with a yellow foot on the critical path,
// dimmed elsewhere) and the markers' boxes inside them.
func (o *overlay) paintTimeline(s *shapes, sw int) {
	y, width := float32(o.timelineTop+lineH), tlWidth(sw)
	for l := range o.tl.lanes {
		s.rect(laneLabelW, y+float32(l*o.lh), width, float32(o.lh-1), colLane)
	}
	from, to := o.view.window(o.tl.end)
	o.ticks = o.ticks[:0]
	tick := msTick(float64(to-from) / 1e6)
	for t := float64(int64(float64(from)/1e6/tick)) * tick; t*1e6 <= float64(to); t += tick {
		if t*1e6 < float64(from) {
			continue
		}
		x := laneLabelW + float32((t*1e6-float64(from))/float64(to-from))*width
		s.rect(x, y, 1, float32(o.tl.lanes*o.lh), colGrid)
		o.ticks = append(o.ticks, axisTick{x: int(x), label: tickLabel(t, tick)})
	}
	if o.tl.gc {
		s.rect(laneLabelW, y-3, width, 2, colGC)
	}
	for i := range o.tl.slices {
		sl := &o.tl.slices[i]
		bx, by, bw, bh, ok := o.box(i, width)
		if !ok {
			continue
		}
		c := systemColor(sl.System)
		if !sl.Critical {
			c = c.scaled(0.55)
		}
		s.rect(bx, by, bw, bh, c)
		if sl.Critical {
			s.rect(bx, by+bh-2, bw, 2, colCritical)
		}
	}
	for i := range o.tl.marks {
		if bx, by, bw, bh, ok := o.markBox(i, width); ok {
			s.rect(bx, by, bw, bh, colMarker)
		}
	}
}

// axisTick is a tick of the ms axis, labelled under the lanes.
type axisTick struct {
	x     int
	label string
}

// timelineLabels draws the lane names, the axis' labels, and the names of
// the boxes wide enough to hold them, with print.
func (o *overlay) timelineLabels(print func(s string, x, y int), sw int) {
	width := tlWidth(sw)
	for l := range o.tl.lanes {
		print(laneName(l), 6, o.timelineTop+lineH+l*o.lh+(o.lh-lineH)/2)
	}
	axisY := o.timelineTop + lineH + o.tl.lanes*o.lh
	for _, t := range o.ticks {
		print(t.label, t.x+2, axisY)
	}
	if o.lh < lineH-2 {
		return // no room for names inside the boxes
	}
	for i := range o.tl.slices {
		bx, by, bw, _, ok := o.box(i, width)
		name := o.tl.slices[i].Label
		if ok && int(bw) > len(name)*charW+4 {
			print(name, int(bx)+2, int(by)+(o.lh-lineH)/2)
		}
	}
}

// onTimeline reports whether the screen point is over the timeline's lanes.
func (o *overlay) onTimeline(x, y int) bool {
	return o.timelineTop > 0 && y >= o.timelineTop+lineH && y < o.timelineTop+lineH+o.tl.lanes*o.lh && x >= laneLabelW
}

// zoomAt zooms the timeline about x by wheel steps (up zooms in), if
// (x, y) is over it, and reports whether it was.
func (o *overlay) zoomAt(x, y int, wheel float64) bool {
	if wheel == 0 || !o.onTimeline(x, y) {
		return false
	}
	o.view.zoom(math.Pow(0.8, wheel), float32(x-laneLabelW), tlWidth(game.ScreenW), o.tl.end)
	o.refresh = 0
	return true
}

// dragAt pans the timeline while the button is down over it.
func (o *overlay) dragAt(x, y int, down bool) {
	switch {
	case !down:
		o.view.dragX = -1
	case o.view.dragX >= 0:
		if dx := x - o.view.dragX; dx != 0 {
			o.view.pan(float32(dx), tlWidth(game.ScreenW), o.tl.end)
			o.refresh = 0
		}
		o.view.dragX = x
	case o.onTimeline(x, y):
		o.view.dragX = x
	}
}

// wholeStep shows all of the timeline's step again.
func (o *overlay) wholeStep() {
	o.view.from, o.view.to = 0, 0
	o.refresh = 0
}

// clickAt handles a click on the left panel: a bar of the graph opens its
// step's timeline (opened: the caller freezes it), a system's row shows
// only that system's jobs, or all again.
func (o *overlay) clickAt(x, y int) (opened bool) {
	if y >= o.graphY && y < o.graphY+graphH && x >= 8 && x < 8+graphLen {
		return o.open(x - 8)
	}
	for i := range o.sys {
		r := &o.sys[i]
		if r.sys >= 0 && y >= r.y && y < r.y+rowH && x < panelW {
			if o.view.filter == r.sys {
				o.view.filter = -1
			} else {
				o.view.filter = r.sys
			}
			o.refresh = 0
		}
	}
	return false
}
