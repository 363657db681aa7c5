package ecs

import (
	"reflect"
	"slices"
	"unsafe"
)

// Event observers: an observer of events of type T (ObserveEvent) is
// called once per event of T, with the event in its Observed (EventOf).
//
// When: at the playback that ends the engine's segment of the writer
// (the frame in which its Schedule and chunk jobs ran), before that
// playback's command buffers: the world is still as the writer saw it
// when it emitted. The events observed there are the writer's part of
// the step (events.go): its owner events (those emitted in Merge of the
// step before, then in Schedule), then its chunks' events. So every
// event is observed exactly once, an event emitted in Merge in the
// playback of the writer's next step, and only in an engine's steps:
// World.Apply and a world without an engine observe no event.
//
// Order: the event streams in the order the world first met their
// types (streamOf: the first Emit, ReadEvents or ObserveEvent of each,
// in the order the declarations ran; in an engine, the systems' Builds
// by stage and order added, then the observers'), then, within a
// stream, the writers in built order, each in the stream's order (owner
// events first, then its queries and chunks in order, the sequence
// within a chunk), then, for one event, the observers in registration
// order: the same on every worker count and batch size.
//
// A step whose chunk job failed still observes what was emitted: the
// other chunks of the pass ran, and the failed chunk's buffer holds the
// events emitted before its panic.
//
// An observer's commands play in the same playback, after the frame's
// buffers, as a component observer's do. An observer does not emit
// (Emit on its Decl is refused): an event it emitted would have no
// writer's step to belong to. Nor does it read events (ReadEvents):
// a reader's view depends on its built order, which an observer lacks.

// ObserveEvent declares that d's observer is called once per event of
// type T (Trigger OnEvent), which EventOf[T] gives it. A Decl of a
// system, a repeat (one more call per event) and, in Decl.Err, a type
// that no system emits are refused (ErrBadArgument). Executed only by
// the owner, at build time.
func ObserveEvent[T any](d *Decl) {
	typ := reflect.TypeFor[T]().String()
	mustObserver(d, "ecs.ObserveEvent["+typ+"]", typ, "a system reads events with ecs.ReadEvents")
	if d.w.inFrame {
		d.fail(d.w.lockedErr("ecs.ObserveEvent of observer " + d.name))
		return
	}
	d.w.observers(d)
	s := streamOf[T](d.w)
	if slices.Contains(s.obs, d.obs) {
		d.fail(errorf(ErrBadArgument, d.name, typ, "ecs.ObserveEvent[%s] of observer %q is already declared: each declaration is one more call per event, so declare each event type once", typ, d.name))
		return
	}
	d.obs.observes = append(d.obs.observes, OnEvent.String()+" "+typeName(reflect.TypeFor[T]())) // as Explain names the stream
	d.obs.events = append(d.obs.events, s)
	s.obs = append(s.obs, d.obs)
}

// typeName is tp's name, or, for a type without one (struct{...},
// []int), its literal.
func typeName(tp reflect.Type) string {
	if n := tp.Name(); n != "" {
		return n
	}
	return tp.String()
}

// unheard are the refusals of o's event types that no system emits:
// nothing would call it for them. Every emitter is declared in a
// system's Build, and the engine builds observers after every system, so
// by o's Decl.Err the writers are known. Executed only by the owner, at
// build time, after the systems' declarations.
func (o *observer) unheard() []error {
	var errs []error
	for _, s := range o.events {
		if !s.emitted() {
			typ := s.eventType().String()
			errs = append(errs, errorf(ErrBadArgument, o.d.name, typ, "observer %q observes events %s, which no system emits, so nothing would call it for them; declare ecs.Emit[%[2]s](b.Decl()) in the Build of the system that makes them, or drop the ecs.ObserveEvent[%[2]s]", o.d.name, typ))
		}
	}
	return errs
}

// EventOf is the event of an OnEvent call, and whether it is one of type
// T. It copies the event; nothing is allocated. Executed only by the
// owner, in the observer's call.
func EventOf[T any](o Observed) (T, bool) {
	if o.Trigger != OnEvent || o.eventType != reflect.TypeFor[T]() {
		var zero T
		return zero, false
	}
	return *(*T)(o.event), true
}

// observeEvents calls the event observers on the parts of the writers of
// segments up to w.evSeg not observed yet this step. Executed only by the
// owner, in EndFrame's playback, before its buffers play.
func (w *World) observeEvents() {
	for _, s := range w.streamOrder {
		s.observe(w, w.evSeg)
	}
}

// observe calls s's observers on the current part of each writer of a
// segment up to seg that is not observed yet this step (rotate clears
// the marks). Executed only by the owner, in observeEvents.
func (s *stream[T]) observe(w *World, seg int) {
	if len(s.obs) == 0 {
		return
	}
	for _, e := range s.writers {
		if e.observed || e.d.seg > seg {
			continue
		}
		e.observed = true
		for b := range e.cur.runs {
			for i := range b {
				s.call(w, &b[i])
			}
		}
	}
}

// call runs s's observers on ev, in registration order. Executed only by
// the owner, in observe.
func (s *stream[T]) call(w *World, ev *T) {
	tp := reflect.TypeFor[T]()
	for _, o := range s.obs {
		w.callObserver(o, Observed{Trigger: OnEvent, Component: tp.String(), Commands: o.bufs[o.rec], event: unsafe.Pointer(ev), eventType: tp})
	}
}

// emitted reports whether a system (not a refused observer) declared
// that it emits s's events. Executed only by the owner, at build time.
func (s *stream[T]) emitted() bool {
	return slices.ContainsFunc(s.writers, func(e *emitState[T]) bool { return e.d.obs == nil })
}
