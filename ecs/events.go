package ecs

import (
	"reflect"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/weft-engine/weft/safety"
)

// Events are typed messages between systems: "a body landed", "a door
// opened". A system declares that it emits events of type T with Emit and
// another that it reads them with ReadEvents; the engine orders every
// reader after the writers of its stage and of earlier stages.
//
// Writing needs no lock: a chunk job appends to its chunk's own buffer,
// as it records Commands, and the owner appends in Schedule or Merge.
//
// Lifetime: each writer keeps two parts, the events of its current step
// and of the previous one. A reader sees every event emitted since it
// last ran, once: from the writers before it in built order, their events
// of this step; from the writers after it (a later stage), their events of
// the previous step. Events emitted in Merge, which runs after the step's
// readers, join the writer's next step. So a reader that runs every step
// misses nothing, and an event that nobody reads is dropped two steps
// later: memory is bounded by two steps of events, and buffers are reused,
// so the steady state allocates nothing.
//
// Order: the older step first, as they were emitted: the previous parts
// of the writers at or after the reader, then the current parts of those
// before it; within each, by (writer's built order, writer's owner events
// first, then its queries and chunks in order, then the sequence within a
// chunk): the same for every worker count and batch size.
//
// A Range pass has no chunk, so its jobs cannot emit: emit from a chunk
// pass, or gather in the system's own buffers and EmitOwner in Merge.

// stream is the world's stream of events of one type.
type stream[T any] struct {
	key     safety.Key
	writers []*emitState[T] // sorted by built order at each step start
	step    uint64          // the world's step count at the last rotation
	obs     []*observer     // its observers, in registration order (observe_events.go)
}

// eventStream is a stream seen without its type, for the world's step start.
type eventStream interface {
	rotate(step uint64)
	save(dst any) any // snapshot.go
	load(src any)
	encode(src any) (fileEvents, error) // save.go
	decode(fe fileEvents) (any, error)
	eventType() reflect.Type
	observe(w *World, seg int) // observe_events.go
	emitted() bool
}

// part is what one writer emitted in one step.
type part[T any] struct {
	owner  []T     // emitted on the owner: in Merge of the step before, then in Schedule
	chunks [][][]T // by query (the Decl's query rank), then chunk index
}

// emitState is one writing system's parts.
type emitState[T any] struct {
	d         *Decl
	cur, prev part[T]
	pending   []T  // emitted outside a frame (Merge): joins the next step's part
	observed  bool // its observers have seen cur (observe_events.go)
}

func streamOf[T any](w *World) *stream[T] {
	tp := reflect.TypeFor[T]()
	if s, ok := w.streams[tp]; ok {
		return s.(*stream[T])
	}
	key, err := w.reg.Register("events " + typeName(tp))
	if err != nil {
		panic(err)
	}
	s := &stream[T]{key: key}
	w.streams[tp] = s
	w.streamOrder = append(w.streamOrder, s)
	return s
}

// Emitter is the token of a system's declared emission of events T.
type Emitter[T any] struct {
	u *use
	s *emitState[T]
}

// Emit declares that d's system emits events of type T. Executed only by
// the owner, at build time.
func Emit[T any](d *Decl) Emitter[T] {
	if d.obs != nil {
		typ := reflect.TypeFor[T]().String()
		d.fail(errorf(ErrBadArgument, d.name, typ, "ecs.Emit[%s] on observer %q: an observer does not emit; record its outcome in Observed.Commands or a resource it declares, and emit from a system that reads them", typ, d.name))
	}
	st := streamOf[T](d.w)
	u := d.declare(kindEmit, st.key, reflect.TypeFor[T]().String())
	es := &emitState[T]{d: d}
	es.queries(d.nq)
	st.writers = append(st.writers, es)
	d.emitters = append(d.emitters, es)
	return Emitter[T]{u, es}
}

// Emit appends ev to the events of chunk c. Executed only by the job that
// owns c, a chunk of a query of the token's system; it takes no lock and
// allocates only while the chunk's buffer grows past its largest size.
func (e Emitter[T]) Emit(c *Chunk, ev T) {
	if e.u == nil {
		zero[T](kindEmit)
	}
	if c == nil {
		e.s.d.w.refuse(errorf(ErrBadArgument, e.s.d.name, reflect.TypeFor[T]().String(), "Emit(nil, ev) with the %[2]v emitter of system %[1]q: Emit takes the calling job's chunk; on the owner (Schedule, Merge) emit with EmitOwner(ev); a Range pass has no chunk and cannot emit: emit from a Chunks pass, or keep its results in the system's own buffers and EmitOwner them in Merge (they join the next step)", e.s.d.name, reflect.TypeFor[T]()))
	}
	e.u.in(c)
	b := &e.s.cur.chunks[c.q.seq][c.index]
	*b = append(*b, ev)
}

// EmitOwner appends ev to the system's owner events. Executed only by the
// owner, in the token's system's Schedule (the event is part of this
// step, before its chunk events) or Merge (the event joins the next step:
// this step's readers have run).
func (e Emitter[T]) EmitOwner(ev T) {
	if e.u == nil {
		zero[T](kindEmit)
	}
	e.u.here()
	w := e.s.d.w
	if w.inFrame && w.owner != nil && w.owner.InJob() { // the owner part has no lock
		w.refuse(errorf(ErrRacyWrite, e.s.d.name, reflect.TypeFor[T]().String(),
			"a job of system %q called EmitOwner(%v), which only the owner may call (in Schedule or Merge), while other jobs may emit at the same time; in a chunk job emit with Emit(chunk, ev)",
			e.s.d.name, reflect.TypeFor[T]()))
	}
	if w.inFrame {
		e.s.cur.owner = append(e.s.cur.owner, ev)
	} else {
		e.s.pending = append(e.s.pending, ev)
	}
}

// emitter is an emitState seen without its type, by the Decl's queries.
type emitter interface {
	queries(n int)
	grow(seq, n int)
}

// queries makes room for the buffers of n queries in both parts.
// Executed only by the owner, at build time, so that jobs indexing the
// list of queries never meet a reallocation.
func (e *emitState[T]) queries(n int) {
	for _, p := range [2]*part[T]{&e.cur, &e.prev} {
		for len(p.chunks) < n {
			p.chunks = append(p.chunks, nil)
		}
	}
}

// grow makes room for n chunk buffers of query seq in the current part.
// Executed only by the owner, in the query's Prepare, before its jobs
// exist; jobs of the system's other queries touch other elements.
func (e *emitState[T]) grow(seq, n int) {
	q := &e.cur.chunks[seq]
	for len(*q) < n {
		*q = append(*q, nil)
	}
}

// rotate starts a step: the current part becomes the previous one and the
// old previous one, emptied, takes the pending owner events. Executed only
// by the owner, at the step's start, with no job in flight.
func (s *stream[T]) rotate(step uint64) {
	s.step = step
	slices.SortFunc(s.writers, func(a, b *emitState[T]) int { return a.d.order - b.d.order })
	for _, e := range s.writers {
		e.prev, e.cur = e.cur, e.prev
		e.observed = false
		p := &e.cur
		clear(p.owner) // drop references held by old events
		p.owner = append(p.owner[:0], e.pending...)
		clear(e.pending)
		e.pending = e.pending[:0]
		for _, q := range p.chunks {
			for i := range q {
				clear(q[i])
				q[i] = q[i][:0]
			}
		}
	}
}

// EventReader is the token of a system's declared reading of events T.
type EventReader[T any] struct {
	u *use
	r *readState[T]
}

// readState is one reading system's view, gathered once per step.
type readState[T any] struct {
	d     *Decl
	s     *stream[T]
	mu    sync.Mutex
	ready atomic.Uint64 // the step whose events buf holds, plus one
	buf   []T
}

// ReadEvents declares that d's system reads events of type T. Executed
// only by the owner, at build time.
func ReadEvents[T any](d *Decl) EventReader[T] {
	if d.obs != nil { // it has no place in the built order that the reader's view depends on
		typ := reflect.TypeFor[T]().String()
		d.fail(errorf(ErrBadArgument, d.name, typ, "ecs.ReadEvents[%s] on observer %q: an observer is called once per event with ecs.ObserveEvent[%[1]s](d)", typ, d.name))
	}
	st := streamOf[T](d.w)
	u := d.declare(kindEvents, st.key, reflect.TypeFor[T]().String())
	return EventReader[T]{u, &readState[T]{d: d, s: st}}
}

// Events are the events emitted since the system last ran, in the order
// of the Events doc: a slice to read only, valid until the next step.
// Executed by the system's jobs, from any number of chunk jobs at once,
// or by the owner in its Schedule or Merge. In Schedule the emitters
// before the system may still be running, so the first call there waits
// for them (the owner helps run jobs meanwhile): it costs the overlap of
// the systems before this one with the rest of Schedule, so read in the
// system's jobs when you can. The first call of a step gathers the
// events; later calls return the same slice.
func (r EventReader[T]) Events() []T {
	if r.u == nil {
		zero[T](kindEvents)
	}
	r.u.here()
	rs := r.r
	want := rs.s.step + 1
	if rs.ready.Load() == want {
		return rs.buf
	}
	if w := rs.d.w; w.owner != nil && w.owner.Deciding() { // before this step's emitters: its slice would miss them
		panic(errorf(ErrBadArgument, rs.d.name, reflect.TypeFor[T]().String(), "EventReader[%v].Events() of system %q in a run condition, which runs before this step's emitters and cannot see their events; read them in the system's Schedule (it waits for the emitters) and return early there, or in its jobs", reflect.TypeFor[T](), rs.d.name))
	}
	if w := rs.d.w; w.inFrame && w.owner != nil && !w.owner.InJob() {
		w.owner.Settle() // the owner, in Schedule: let the emitters before it finish first; not under mu, which jobs it helps may take
	}
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if rs.ready.Load() != want {
		rs.gather()
		rs.ready.Store(want)
	}
	return rs.buf
}

// gather collects the events this reader sees, in order: the previous
// parts of the writers at or after it, then the current parts of the
// writers before it. Executed by the first caller of Events in a step,
// under rs.mu; the engine has ordered it after the writers before it.
func (rs *readState[T]) gather() {
	clear(rs.buf)
	rs.buf = rs.buf[:0]
	for _, e := range rs.s.writers {
		if e.d.order >= rs.d.order {
			rs.buf = e.prev.appendTo(rs.buf)
		}
	}
	for _, e := range rs.s.writers {
		if e.d.order < rs.d.order {
			rs.buf = e.cur.appendTo(rs.buf)
		}
	}
}

// runs yields p's events as runs, in the stream's order: the owner's,
// then each query's chunks by index. Readers (appendTo) and observers
// (stream.observe) both go through it, so they see one order. Executed
// only by the owner (observe, snapshots) or by a reader's gather, once
// the jobs of p's writer have finished: nothing appends to p meanwhile.
func (p *part[T]) runs(yield func([]T) bool) {
	if !yield(p.owner) {
		return
	}
	for _, q := range p.chunks {
		for _, b := range q {
			if !yield(b) {
				return
			}
		}
	}
}

// appendTo appends p's events to dst in the stream's order; callers as
// for runs.
func (p *part[T]) appendTo(dst []T) []T {
	for b := range p.runs {
		dst = append(dst, b...)
	}
	return dst
}
