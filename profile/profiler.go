package profile

import (
	"github.com/weft-engine/weft/engine"
)

// Options configure a Profiler; zero fields take the defaults.
type Options struct {
	Window int // steps kept (default 120)
	// Detail is how many of the last steps keep their detail: timeline,
	// phases, gaps, marker spans, critical path and GC pauses (default
	// and at most Window). Older steps keep their figures only, so that a
	// long window costs little memory.
	Detail int
}

// Profiler keeps the timings of an engine's last steps, a window of them,
// from the engine's step records. Every method is executed only by the
// engine's owner, between steps.
type Profiler struct {
	ring   []StepTimings
	n      int // steps in ring
	next   int
	detail int
	an     analyser
	sum    Summary
	scr    []float64
	stop   func()
	empty  StepTimings
}

// New makes a profiler that observes e from its next step on.
func New(e *engine.Engine, o Options) *Profiler {
	p := NewDetached(o)
	p.stop = e.Observe(p.Add)
	return p
}

// NewDetached makes a profiler fed only by Add: for records saved or made
// by hand.
func NewDetached(o Options) *Profiler {
	if o.Window < 1 {
		o.Window = 120
	}
	if o.Detail < 1 || o.Detail > o.Window {
		o.Detail = o.Window
	}
	return &Profiler{ring: make([]StepTimings, o.Window), detail: o.Detail}
}

// Close stops observing the engine; the window stays readable.
func (p *Profiler) Close() {
	if p.stop != nil {
		p.stop()
		p.stop = nil
	}
}

// Add computes rec's timings into the window, replacing the oldest step
// when the window is full. After warm-up it allocates nothing.
func (p *Profiler) Add(rec *engine.StepRecord) {
	if p.n == 0 {
		p.reserve(rec)
	}
	slot := &p.ring[p.next]
	if p.n >= p.detail { // the step Detail steps back hands its detail's buffers on
		if old := &p.ring[(p.next-p.detail+len(p.ring))%len(p.ring)]; old != slot {
			slot.takeDetail(old)
		}
	}
	p.an.analyse(slot, rec)
	p.next = (p.next + 1) % len(p.ring)
	p.n = min(p.n+1, len(p.ring))
}

// Len is the number of steps in the window.
func (p *Profiler) Len() int { return p.n }

// At is the window's step i, 0 the oldest and Len()-1 the last, valid
// until the window drops it.
func (p *Profiler) At(i int) *StepTimings {
	if i < 0 || i >= p.n {
		return &p.empty
	}
	return &p.ring[(p.next-p.n+i+len(p.ring))%len(p.ring)]
}

// Last is the last step's timings; before the first step, empty ones.
func (p *Profiler) Last() *StepTimings { return p.At(p.n - 1) }

// Find is the timings of the given step, or nil if the window does not
// hold it.
func (p *Profiler) Find(step uint64) *StepTimings {
	for i := range p.n {
		if st := p.At(i); st.Step == step {
			return st
		}
	}
	return nil
}

// reserve gives every slot of the window its per-system, per-participant,
// per-marker and per-counter rows from one array each, so that filling
// the window allocates nothing more than the detail's buffers.
func (p *Profiler) reserve(rec *engine.StepRecord) {
	l, w := rec.Layout, len(p.ring)
	sys := make([]SystemTimings, w*len(l.Systems))
	wk := make([]engine.WorkerRecord, w*len(rec.Workers))
	mk := make([]MarkerTimings, w*len(l.Markers))
	ct := make([]CounterValue, w*len(l.Counters))
	for i := range p.ring {
		st := &p.ring[i]
		st.Systems = carve(sys, i, len(l.Systems))
		st.Workers = carve(wk, i, len(rec.Workers))
		st.Markers = carve(mk, i, len(l.Markers))
		st.Counters = carve(ct, i, len(l.Counters))
	}
}

// carve is the i-th run of n elements of all, its capacity n.
func carve[T any](all []T, i, n int) []T { return all[i*n : i*n : (i+1)*n] }

// takeDetail takes old's detail buffers, leaving old its figures.
func (st *StepTimings) takeDetail(old *StepTimings) {
	st.Timeline, old.Timeline = old.Timeline[:0], nil
	st.Phases, old.Phases = old.Phases[:0], nil
	st.Gaps, old.Gaps = old.Gaps[:0], nil
	st.Marks, old.Marks = old.Marks[:0], nil
	st.Critical, old.Critical = old.Critical[:0], nil
	st.GC, old.GC = old.GC[:0], nil
}
