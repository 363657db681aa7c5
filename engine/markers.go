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
// the owner moves the buffers into the step's record (StepRecord.Marks,
// StepRecord.Counters), which the profile package summarises.

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

// Marker makes a marker named name within the system (shown as
// "system.name"); the same name gives the same marker.
func (b *Builder) Marker(name string) Marker {
	mk := &b.e.out.rec.marks
	return Marker{m: mk, id: mk.name(&mk.markers, b.s, name)}
}

// Counter makes a counter named name within the system (shown as
// "system.name"); the same name gives the same counter.
func (b *Builder) Counter(name string) Counter {
	mk := &b.e.out.rec.marks
	return Counter{m: mk, id: mk.name(&mk.counters, b.s, name)}
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
		mk.misuse(mk.markers.names[id], mk.markers.entries[id].name, w)
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
		mk.misuse(mk.counters.names[c.id], mk.counters.entries[c.id].name, w)
		return
	}
	mk.parts[w].counts[c.id] += n
}

// SetMarkerSpans turns the recording of marker spans on (the default) or
// off; counters count either way. Executed only by the owner, between
// steps.
func (e *Engine) SetMarkerSpans(on bool) { e.out.rec.marks.spans = on }

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
	sys     []int32  // index into Layout.Systems, set by init
}

// marks is the engine's markers and counters. Its fields are written by
// the owner outside of steps, parts by the participants as above.
type marks struct {
	markers, counters named
	parts             []part
	spans             bool
	epoch             time.Time              // the engine's clock's zero
	off               int64                  // pool clock minus the engine's clock
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
	name, sys string // the marker's or counter's, and its system's
	w         int
}

// misuse remembers the first wrong participant index of a step, for the
// owner to report. Called by any goroutine.
func (mk *marks) misuse(name, sys string, w int) {
	mk.bad.CompareAndSwap(nil, &misuse{name, sys, w})
}

// init resolves the systems' indices. Executed only by the owner, at the
// end of Build, once every system has its slot.
func (mk *marks) init() {
	mk.spans, mk.capacity = true, 1024
	for _, n := range []*named{&mk.markers, &mk.counters} {
		n.sys = n.sys[:0]
		for _, en := range n.entries {
			n.sys = append(n.sys, int32(en.slot))
		}
	}
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

// fold moves the step's spans and counts into c. It returns the misuse
// of the step, if any. Executed only by the owner, after the step's last
// Wait.
func (mk *marks) fold(c *StepRecord) error {
	c.Marks = c.Marks[:0]
	clear(c.Counters)
	c.MarksLost = 0
	for w := range mk.parts {
		p := &mk.parts[w]
		c.MarksLost += uint64(p.lost)
		for _, s := range p.buf {
			c.Marks = append(c.Marks, MarkRecord{Marker: s.id, Worker: int32(w), Depth: s.depth, Start: s.start, End: s.end})
		}
		for i, n := range p.counts {
			c.Counters[i] += n
		}
	}
	if m := mk.bad.Swap(nil); m != nil {
		return errorf(ErrJob, m.sys, nil, "marker or counter %q used with participant %d; pass the chunk's c.Worker() (0 to %d this step)", m.name, m.w, len(mk.parts)-1)
	}
	return nil
}
