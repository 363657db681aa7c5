package overlay

import (
	"fmt"
	"time"

	"github.com/weft-engine/weft/profile"
)

// timeline is one step's timings, copied from the profiler so that it
// outlives the step: its job slices, marker spans, the owner's phases and
// gaps and the GC pauses for the timeline, and its systems', markers' and
// counters' values for the tables. Every time is ns since the step's
// start, so the axis holds the whole step. Its
// buffers are reused, so that a ring of them (the history) allocates
// nothing once grown.
type timeline struct {
	slices    []profile.Slice
	marks     []profile.MarkSpan
	systems   []profile.SystemTimings
	markers   []profile.MarkerTimings
	counters  []profile.CounterValue
	phases    []profile.Phase
	gaps      []profile.Gap
	pauses    []profile.GCPause // those of the step, and since the previous one (negative Start)
	lanes     int               // participants: the owner and the workers
	step      uint64
	jobs      uint64
	total     time.Duration // the whole step
	end       int64         // the step's end: its total, or a later job's end
	span      time.Duration
	path      time.Duration // the critical path's cost
	pathLen   int
	par       float64 // parallelism: work / span
	pred      [profile.NumPredicted]time.Duration
	gc, gcOut time.Duration // GC pause time in the step, and between the previous step and it
}

// copyFrom copies st, the engine's last step, reusing t's buffers.
func (t *timeline) copyFrom(st *profile.StepTimings) {
	if st == nil {
		return
	}
	t.slices = append(t.slices[:0], st.Timeline...)
	t.marks = append(t.marks[:0], st.Marks...)
	t.systems = append(t.systems[:0], st.Systems...)
	t.markers = append(t.markers[:0], st.Markers...)
	t.counters = append(t.counters[:0], st.Counters...)
	t.phases = append(t.phases[:0], st.Phases...)
	t.gaps = append(t.gaps[:0], st.Gaps...)
	t.pauses = append(t.pauses[:0], st.GC...)
	t.lanes, t.step, t.jobs, t.span, t.total = len(st.Workers), st.Step, st.Jobs, st.Span, st.Total
	t.par, t.pred, t.gc, t.gcOut = st.Parallelism, st.Predicted, st.GCTime, st.GCOutside
	t.end, t.path = int64(st.Total), 0
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
	sl, mk, sy, mr, cn, ph, gp, ps := t.slices, t.marks, t.systems, t.markers, t.counters, t.phases, t.gaps, t.pauses
	*t = *src
	t.phases = append(ph[:0], src.phases...)
	t.gaps = append(gp[:0], src.gaps...)
	t.pauses = append(ps[:0], src.pauses...)
	t.slices = append(sl[:0], src.slices...)
	t.marks = append(mk[:0], src.marks...)
	t.systems = append(sy[:0], src.systems...)
	t.markers = append(mr[:0], src.markers...)
	t.counters = append(cn[:0], src.counters...)
}

// name is system i's name, or "(engine)" for the engine's own jobs.
func (t *timeline) name(i int32) string {
	if i >= 0 && int(i) < len(t.systems) {
		return t.systems[i].Name
	}
	return "(engine)"
}

// tlView is the part of the timeline shown: a window of time, zoomed and
// panned with the wheel and dragging over the timeline, and a filter by
// system (click its row in the systems table).
type tlView struct {
	from, to int64 // ns since the step's start; to == 0 shows the whole step
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

// tickLabel is a tick's text: ms with as many decimals as the spacing
// needs; µs below 10 µs.
func tickLabel(ms, tick float64) string {
	switch {
	case tick >= 1:
		return fmt.Sprintf("%.0f ms", ms)
	case tick >= 0.1:
		return fmt.Sprintf("%.1f", ms)
	case tick >= 0.01:
		return fmt.Sprintf("%.2f", ms)
	case tick >= 0.001:
		return fmt.Sprintf("%.0f µs", ms*1e3)
	}
	return fmt.Sprintf("%.1f µs", ms*1e3)
}
