package engine

import (
	"math"
	"sync/atomic"
	"time"

	"github.com/weft-engine/weft/jobs"
)

// Markers and counters are an author's own measures inside jobs, as
// Unity's ProfilerMarker and ProfilerCounter: a Marker times a named span
// of a job, a Counter adds up a named count. Both are made once, at Build
// time (Builder.Marker, Builder.Counter), and used inside a chunk job with
// the participant that runs it (ecs.Chunk.Worker): each participant writes
// its own buffer, so they take no lock and allocate nothing. Between steps
// the owner folds the buffers into the step's timings: StepTimings.Marks
// (nested spans for the timeline), StepTimings.Markers and Counters (per
// step totals the window's Summary and the table read) and the Chrome
// trace (Trace).

// Marker names a span inside a job: Begin starts it, the Span's End ends
// it. The zero Marker records nothing.
type Marker struct {
	m  *marks
	id int32
}

// Counter names a count that jobs add to; the step's total is reported.
// The zero Counter counts nothing.
type Counter struct {
	m  *marks
	id int32
}

// Span is a running span of a Marker; End ends it. The zero Span's End
// does nothing.
type Span struct {
	m            *marks
	id, w, depth int32
	start        int64
}

// MarkSpan is one marker span of a step, for a timeline: Start and End are
// nanoseconds since the step's first job started, as Slice's; Depth is 0
// for a span directly in a job, 1 inside another span, and so on.
type MarkSpan struct {
	Marker     int32 // index into StepTimings.Markers
	Worker     int32 // 0 is the owner
	Depth      int32
	Start, End int64
}

// MarkerTimings is a marker's share of a step.
type MarkerTimings struct {
	Name   string // "system.marker"
	System int32  // index into StepTimings.Systems
	Time   time.Duration
	Calls  int
}

// CounterValue is a counter's total over a step.
type CounterValue struct {
	Name   string // "system.counter"
	System int32  // index into StepTimings.Systems
	Value  int64
}

// Marker makes a marker named name within the system (shown as
// "system.name"); the same name gives the same marker.
func (b *Builder) Marker(name string) Marker {
	return Marker{m: &b.e.out.timings.marks, id: b.e.out.timings.marks.name(&b.e.out.timings.marks.markers, b.s, name)}
}

// Counter makes a counter named name within the system (shown as
// "system.name"); the same name gives the same counter.
func (b *Builder) Counter(name string) Counter {
	return Counter{m: &b.e.out.timings.marks, id: b.e.out.timings.marks.name(&b.e.out.timings.marks.counters, b.s, name)}
}

// Begin starts a span of m in the job that participant w runs; pass the
// chunk's c.Worker(). Called only by participant w, inside a job.
func (m Marker) Begin(w int) Span {
	if m.m == nil || !m.m.spans {
		return Span{} // small enough to inline: spans off cost a test
	}
	return m.m.begin(m.id, w)
}

func (mk *marks) begin(id int32, w int) Span {
	if uint(w) >= uint(len(mk.parts)) {
		mk.misuse(mk.markers.names[id], w)
		return Span{}
	}
	p := &mk.parts[w]
	d := p.depth
	p.depth++
	return Span{m: mk, id: id, w: int32(w), depth: d, start: mk.now()}
}

// End ends the span; a span of a full buffer is counted as lost (the
// buffer grows before the next step). Called only by the participant that
// began it, inside the same job.
func (s Span) End() {
	if s.m != nil {
		s.m.end(&s)
	}
}

func (mk *marks) end(s *Span) {
	end := mk.now()
	p := &mk.parts[s.w]
	p.depth--
	if len(p.buf) == cap(p.buf) {
		p.lost++
		return
	}
	p.buf = append(p.buf, rawSpan{id: s.id, depth: s.depth, start: s.start, end: end})
}

// Add adds n to the counter, in the job that participant w runs; pass the
// chunk's c.Worker(). Called only by participant w, inside a job.
func (c Counter) Add(w int, n int64) {
	mk := c.m
	if mk == nil {
		return
	}
	if uint(w) >= uint(len(mk.parts)) {
		mk.misuse(mk.counters.names[c.id], w)
		return
	}
	mk.parts[w].counts[c.id] += n
}

// SetMarkerSpans turns the recording of marker spans on (the default) or
// off; counters count either way. Executed only by the owner, between
// steps.
func (t *Timings) SetMarkerSpans(on bool) { t.marks.spans = on }

// rawSpan is a span as a participant records it: times on the marks clock.
type rawSpan struct {
	id, depth  int32
	start, end int64
}

// part is one participant's buffers, written only by that participant
// during a step and read and cleared by the owner between steps.
type part struct {
	buf    []rawSpan
	counts []int64
	depth  int32
	lost   int
	_      [64]byte // apart from the next participant's
}

// named are the markers or the counters, by id.
type named struct {
	names   []string
	entries []*entry // their systems
	sys     []int32  // index into StepTimings.Systems, set by init
}

// marks is the engine's markers and counters. Its fields are written by
// the owner outside of steps, parts by the participants as above.
type marks struct {
	markers, counters named
	parts             []part
	spans             bool
	epoch             time.Time
	off               int64                  // pool clock minus marks clock
	bad               atomic.Pointer[misuse] // the first of the step
	capacity          int
	cal               []jobs.Event
}

// name finds or adds "system.name" to n. Executed only by the owner, in Build.
func (mk *marks) name(n *named, en *entry, name string) int32 {
	full := en.name + "." + name
	for i, s := range n.names {
		if s == full {
			return int32(i)
		}
	}
	n.names = append(n.names, full)
	n.entries = append(n.entries, en)
	return int32(len(n.names) - 1)
}

func (mk *marks) now() int64 { return int64(time.Since(mk.epoch)) }

// misuse is a marker or counter used with a wrong participant index.
type misuse struct {
	name string
	w    int
}

// misuse remembers the first wrong participant index of a step, for the
// owner to report. Called by any goroutine.
func (mk *marks) misuse(name string, w int) {
	mk.bad.CompareAndSwap(nil, &misuse{name, w})
}

// init resolves the systems' indices. Executed only by the owner, at the
// end of Build.
func (mk *marks) init(e *Engine) {
	mk.spans, mk.epoch, mk.capacity = true, time.Now(), 1024
	for _, n := range []*named{&mk.markers, &mk.counters} {
		n.sys = n.sys[:0]
		for _, en := range n.entries {
			n.sys = append(n.sys, int32(systemIndex(e, en)))
		}
	}
}

// systemIndex is en's index in StepTimings.Systems: parallel systems
// first, then exclusive ones, each in built order.
func systemIndex(e *Engine, en *entry) int {
	for i, p := range e.sched.par {
		if p == en {
			return i
		}
	}
	for i, x := range e.sched.excl {
		if x == en {
			return len(e.sched.par) + i
		}
	}
	return -1
}

// resize gives each participant of a new pool its buffers and measures
// the pool clock against the marks clock. Executed only by the owner,
// between steps, with no job in flight.
func (mk *marks) resize(p *jobs.Pool) {
	mk.parts = make([]part, p.Workers()+1)
	for i := range mk.parts {
		mk.parts[i].buf = make([]rawSpan, 0, mk.capacity)
		mk.parts[i].counts = make([]int64, len(mk.counters.names))
	}
	mk.calibrate(p)
}

// calibrate runs a few empty jobs that read the marks clock: the pool's
// trace says when each ran on the pool clock, so the narrowest gives the
// offset between the two clocks to a fraction of a microsecond.
func (mk *marks) calibrate(p *jobs.Pool) {
	var at int64
	job := jobs.Job{Label: jobs.Label{Name: "engine.clock", Chunk: -1}, Run: func(*jobs.Ctx) { at = mk.now() }}
	best := int64(math.MaxInt64)
	for range 8 {
		h, err := p.Schedule(job)
		if err == nil {
			err = p.Wait(h)
		}
		mk.cal, _ = p.ReadTrace(mk.cal[:0])
		p.Reset()
		if err != nil {
			return
		}
		for _, ev := range mk.cal {
			if ev.Kind == jobs.KindJob && ev.End-ev.Start < best {
				best, mk.off = ev.End-ev.Start, (ev.Start+ev.End)/2-at
			}
		}
	}
}

// clear empties the participants' buffers for a step, growing the span
// buffers if the last step lost spans. Executed only by the owner,
// between steps.
func (mk *marks) clear() {
	lost := false
	for i := range mk.parts {
		lost = lost || mk.parts[i].lost > 0
	}
	if lost {
		mk.capacity *= 2
	}
	for i := range mk.parts {
		p := &mk.parts[i]
		if cap(p.buf) < mk.capacity {
			p.buf = make([]rawSpan, 0, mk.capacity)
		}
		p.buf, p.depth, p.lost = p.buf[:0], 0, 0
		clear(p.counts)
	}
}

// fold adds the step's spans and counts to c: t0 is the timeline's origin
// on the pool clock. It returns the misuse of the step, if any. Executed
// only by the owner, after the step's last Wait.
func (mk *marks) fold(c *StepTimings, t0 int64) error {
	c.Marks = c.Marks[:0]
	for i := range c.Markers {
		c.Markers[i].Time, c.Markers[i].Calls = 0, 0
	}
	for i := range c.Counters {
		c.Counters[i].Value = 0
	}
	c.MarksLost = 0
	for w := range mk.parts {
		p := &mk.parts[w]
		c.MarksLost += uint64(p.lost)
		for _, s := range p.buf {
			m := &c.Markers[s.id]
			m.Time += time.Duration(s.end - s.start)
			m.Calls++
			c.Marks = append(c.Marks, MarkSpan{Marker: s.id, Worker: int32(w), Depth: s.depth,
				Start: s.start + mk.off - t0, End: s.end + mk.off - t0})
		}
		for i, n := range p.counts {
			c.Counters[i].Value += n
		}
	}
	if m := mk.bad.Swap(nil); m != nil {
		return errorf(CodeJob, "", nil, "marker or counter %q used with participant %d; pass the chunk's c.Worker() (0 to %d this step)", m.name, m.w, len(mk.parts)-1)
	}
	return nil
}

// rows makes c's per-marker and per-counter rows. Executed only by the
// owner, in init.
func (mk *marks) rows(c *StepTimings) {
	c.Markers = make([]MarkerTimings, len(mk.markers.names))
	for i := range c.Markers {
		c.Markers[i] = MarkerTimings{Name: mk.markers.names[i], System: mk.markers.sys[i]}
	}
	c.Counters = make([]CounterValue, len(mk.counters.names))
	for i := range c.Counters {
		c.Counters[i] = CounterValue{Name: mk.counters.names[i], System: mk.counters.sys[i]}
	}
}
