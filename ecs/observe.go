package ecs

import (
	"fmt"
	"reflect"
	"slices"
	"unsafe"

	ark "github.com/mlange-42/ark/ecs"
	"github.com/weft-engine/weft/safety"
)

// Observers: code that runs when playback adds, sets or removes a
// component, or despawns an entity that has one, or once per event of a
// type (observe_events.go).
//
// An observer is declared like a system (World.Observer gives its Decl,
// its tokens are made from it, and every call through them is checked
// through the seam against the observer), and says what it observes
// with Observe. Playback calls it on the owner, at the moment the
// command that caused it applies: after the value is written for an add
// or a set, before the component or the entity goes for a remove or a
// despawn, so that it can still read them. Playback is one goroutine
// walking the buffers in (system, query, chunk, sequence) order, so the
// order of the calls is that order, then, for one command, the
// observers in registration order: the same on every worker count.
//
// Ark has observers of its own, but they fire inside Ark's calls: an
// add fires before weft writes the command's value, a value written
// through a pointer (a Set) fires nothing, and a panic in one would
// unwind through Ark with its world locked. So playback calls weft's
// observers itself, between Ark's calls.
//
// An observer records structural changes into its own buffer
// (Observed.Commands). They play in the same playback, after the buffers
// that caused them: round by round, each round the buffers that
// observers filled in the round before, in registration order; an
// observer records into a fresh buffer while its last one plays. A
// cascade that still records after MaxObserverRounds rounds is cut:
// its commands are dropped and the playback reports ErrObserverCascade.
//
// With no observer, playback pays one nil check per command.

// Trigger is what an observer is called for.
type Trigger uint8

// The triggers.
const (
	OnAdd     Trigger = iota // the entity got the component: a spawn with it (the Adds right after a Spawn are the spawn), or an Add it did not have
	OnSet                    // a command set the component: a Set, or an Add over one it had (not one of a spawn's Adds)
	OnRemove                 // a Remove of the component, before it goes
	OnDespawn                // a despawn of an entity that has the component, before it goes
	OnEvent                  // an event of the observed type (ObserveEvent)
	numTriggers
)

var triggerNames = [numTriggers]string{"OnAdd", "OnSet", "OnRemove", "OnDespawn", "OnEvent"}

func (t Trigger) String() string {
	if t < numTriggers {
		return triggerNames[t]
	}
	return "Trigger(?)"
}

// MaxObserverRounds is how many rounds of observers' own commands one
// playback plays after the buffers that started it; a cascade past it
// is cut (ErrObserverCascade).
const MaxObserverRounds = 16

// Observed is one call of an observer.
type Observed struct {
	Trigger   Trigger
	Entity    ark.Entity // alive, and with the component, during the call; zero for OnEvent
	Component string     // the observed component's type name, or for OnEvent the event's
	// Commands is the observer's own buffer: what it records plays in
	// this playback, after the buffers that played before it.
	Commands *Commands

	event     unsafe.Pointer // OnEvent: the event, in its writer's part
	eventType reflect.Type   // OnEvent: its type
}

// observer is one observer as the world keeps it.
type observer struct {
	d        *Decl
	fn       func(Observed) error
	bufs     [2]*Commands
	rec      int           // the buffer it records into; the other plays
	observes []string      // "OnDespawn Hull", in declaration order, for Explain
	events   []eventStream // the event types it observes (ObserveEvent)
}

// observers are the world's observers, made when the first one observes
// something (until then World.obs is nil and playback skips them).
type observers struct {
	list    []*observer
	on      [OnEvent][256][]*observer // by trigger and component ID index, in registration order
	added   []observed                // OnAdd, in registration order, for spawns
	despawn []observed                // OnDespawn, in registration order
	pending []*observer               // playObservers scratch
}

type observed struct {
	o  *observer
	id ark.ID
}

// Observer makes the declaration of an observer named name, which
// playback calls with fn. Make its tokens from the Decl, and say what it
// observes with Observe. fn runs on the owner; a panic in it is
// recovered and reported as its error. Executed only by the owner,
// outside of frames, at build time (engine.Engine.AddObserver calls it).
func (w *World) Observer(name string, fn func(Observed) error) *Decl {
	d := &Decl{w: w, name: name, order: -1, role: "observer"}
	if w.inFrame {
		d.fail(w.lockedErr("World.Observer"))
	}
	if fn == nil {
		d.fail(errorf(ErrBadArgument, name, "", "World.Observer(%q, nil): pass the function to call", name))
	}
	d.cmds = &use{on: &w.checks, d: d, kind: kindCommands, mode: safety.Write}
	d.obs = &observer{d: d, fn: fn}
	for i := range d.obs.bufs {
		d.obs.bufs[i] = w.newCommands(d, -1, i)
	}
	return d
}

// Observe declares that d's observer is called on t of component T.
// An observer may observe several, each once: a repeat, which would be
// one more call per change, and a Decl of a system are refused
// (ErrBadArgument). Executed only by the owner, at build time.
func Observe[T any](d *Decl, t Trigger) {
	typ := reflect.TypeFor[T]().String()
	mustObserver(d, "ecs.Observe["+typ+"]", typ, "a system reads changes with ecs.Changed and ecs.Added")
	switch {
	case t >= OnEvent:
		d.fail(errorf(ErrBadArgument, d.name, typ, "ecs.Observe[%s](%v) of observer %q: use OnAdd, OnSet, OnRemove or OnDespawn; observe events with ecs.ObserveEvent[%[1]s](d)", typ, t, d.name))
		return
	case d.w.inFrame:
		d.fail(d.w.lockedErr("ecs.Observe of observer " + d.name))
		return
	}
	id := component[T](d.w).id
	o := d.w.observers(d)
	if o.declared(d.obs, t, id) {
		d.fail(errorf(ErrBadArgument, d.name, typ, "ecs.Observe[%s](%v) of observer %q is already declared: each declaration is one more call per change, so declare each component and trigger once", typ, t, d.name))
		return
	}
	d.obs.observes = append(d.obs.observes, t.String()+" "+d.w.names[id.Index()])
	switch t {
	case OnDespawn:
		o.despawn = append(o.despawn, observed{d.obs, id})
		return
	case OnAdd:
		o.added = append(o.added, observed{d.obs, id})
	}
	o.on[t][id.Index()] = append(o.on[t][id.Index()], d.obs)
}

// declared reports whether observer x already observes t of component
// id. Executed only by the owner, at build time.
func (o *observers) declared(x *observer, t Trigger, id ark.ID) bool {
	if t == OnDespawn {
		return slices.Contains(o.despawn, observed{x, id})
	}
	return slices.Contains(o.on[t][id.Index()], x)
}

// mustObserver panics with ErrBadArgument if d is not an observer's
// Decl: what (a call) is for observers only; fix says what a system
// does instead. Executed only by the owner, at build time.
func mustObserver(d *Decl, what, typ, fix string) {
	if d != nil && d.obs != nil {
		return
	}
	name := ""
	if d != nil {
		name = d.name
	}
	panic(errorf(ErrBadArgument, name, typ, "%s on the Decl of system %q: only an observer's Decl (World.Observer, engine Observer's Build) observes; %s", what, name, fix))
}

// notInObserver refuses, for observer name, a token of kind k of type
// typ that it could never use: an observer is called with an entity,
// not a chunk, and a column, a write lookup and an on/off state are
// used through a chunk. It is nil for the kinds an observer uses
// (lookups to read, resources, relations, commands); Emit and
// ReadEvents refuse with their own text. Executed only by the owner, at
// build time.
func notInObserver(name string, k kind, typ string) *Error {
	var fix string
	switch k {
	case kindRead:
		fix = fmt.Sprintf("read it with ecs.ReadLookup[%s](d) and Get(ev.Entity)", typ)
	case kindWrite, kindWriteLookup:
		fix = fmt.Sprintf("a write of a component from an observer is a command: record it in Observed.Commands (ecs.NewComponent[%s](b.World()).Set(ev.Commands, e, v)), and read it with ecs.ReadLookup[%[1]s](d)", typ)
	case kindReadEnabled, kindWriteEnabled:
		fix = fmt.Sprintf("switch it with a command in Observed.Commands (ecs.NewComponent[%s](b.World()).SetEnabled(ev.Commands, e, on))", typ)
	default:
		return nil
	}
	tok := fmt.Sprintf(kinds[k].token, typ)
	return errorf(ErrBadArgument, name, typ, "%s declared by observer %q: an observer has no chunk to use it with; %s", tok, name, fix)
}

// observers are the world's observers, made on first use, with d's
// observer in their list. Executed only by the owner, at build time.
func (w *World) observers(d *Decl) *observers {
	if w.obs == nil {
		w.obs = &observers{}
	}
	o := w.obs
	if !slices.Contains(o.list, d.obs) {
		o.list = append(o.list, d.obs)
	}
	return o
}

// playing reports whether a playback runs (an owner call made now comes
// from an observer). Executed only by the owner.
func (w *World) playing() bool { return w.pb.b != nil || w.observing != nil }

// notify calls the observers of t on component id of e, in registration
// order. Executed only by the owner, in playback, with w.obs set.
func (w *World) notify(t Trigger, e ark.Entity, id ark.ID) {
	for _, o := range w.obs.on[t][id.Index()] {
		w.call(o, t, e, id)
	}
}

// notifyAdded calls the OnAdd observers of the components of e, a
// spawned entity, in registration order. Executed only by the owner, in
// playback, with w.obs set.
func (w *World) notifyAdded(e ark.Entity) {
	for _, x := range w.obs.added {
		if w.ark.Alive(e) && w.unsafe.HasUnchecked(e, x.id) {
			w.call(x.o, OnAdd, e, x.id)
		}
	}
}

// notifyDespawn calls the despawn observers of e's components, in
// registration order, while e and its links are whole. despawnTree, the
// one place where playback despawns, calls it first for each entity it
// despawns (a parent before its children), so every despawn, whatever
// command or relation causes it, is observed once. Executed only by the
// owner, in playback, with w.obs set.
func (w *World) notifyDespawn(e ark.Entity) {
	for _, x := range w.obs.despawn {
		if w.ark.Alive(e) && w.unsafe.HasUnchecked(e, x.id) {
			w.call(x.o, OnDespawn, e, x.id)
		}
	}
}

// call runs observer o on (t, e, id). Executed only by the owner, in
// playback.
func (w *World) call(o *observer, t Trigger, e ark.Entity, id ark.ID) {
	w.callObserver(o, Observed{Trigger: t, Entity: e, Component: w.names[id.Index()], Commands: o.bufs[o.rec]})
}

// callObserver runs observer o on ev, with the seam's checks made against
// it, and records its failure (ErrObserver) in the playback's report.
// Executed only by the owner, in playback.
func (w *World) callObserver(o *observer, ev Observed) {
	err := w.runObserver(o, ev)
	if err == nil {
		return
	}
	on := fmt.Sprintf("%v of %s of entity %v", ev.Trigger, ev.Component, ev.Entity)
	if ev.Trigger == OnEvent {
		on = "an event " + ev.Component
	}
	w.report.Observers = append(w.report.Observers, &Error{Code: ErrObserver, System: o.d.name, Err: err,
		Msg: fmt.Sprintf("observer %q failed on %s", o.d.name, on), Detail: Detail{Component: ev.Component}})
}

// runObserver calls o's fn, recovering a panic into its error. Executed
// only by the owner, in playback.
func (w *World) runObserver(o *observer, ev Observed) (err error) {
	w.report.Observed++
	prev := w.observing
	w.observing = o.d
	defer func() {
		w.observing = prev
		if r := recover(); r != nil {
			if e, ok := r.(error); ok {
				err = fmt.Errorf("panic: %w", e)
			} else {
				err = fmt.Errorf("panic: %v", r)
			}
		}
	}()
	return o.fn(ev)
}

// playObservers plays the observers' commands, round by round, until no
// observer records any, or cuts the cascade after MaxObserverRounds
// rounds. Executed only by the owner, at the end of playAll.
func (w *World) playObservers() {
	o := w.obs
	for round := 0; ; round++ {
		o.pending = o.pending[:0]
		for _, x := range o.list {
			if x.bufs[x.rec].Len() > 0 {
				o.pending = append(o.pending, x)
			}
		}
		if len(o.pending) == 0 {
			return
		}
		if round == MaxObserverRounds {
			w.cutCascade(o.pending)
			return
		}
		for _, x := range o.pending {
			x.rec ^= 1
		}
		for _, x := range o.pending {
			w.play(x.bufs[x.rec^1])
		}
	}
}

// cutCascade drops the commands of the observers still recording after
// the last round and reports them. Executed only by the owner.
func (w *World) cutCascade(pending []*observer) {
	names, n := "", 0
	for i, x := range pending {
		if i > 0 {
			names += ", "
		}
		names += fmt.Sprintf("%q", x.d.name)
		n += x.bufs[x.rec].Len()
		x.bufs[x.rec].reset()
	}
	w.report.Observers = append(w.report.Observers, errorf(ErrObserverCascade, pending[0].d.name, "",
		"observers still recorded commands after %d rounds of one playback (%d dropped, recorded by %s): each round's commands call observers that record more; make the cascade end (check before recording, e.g. add a component only if the entity lacks it), or record in a system that runs next step",
		MaxObserverRounds, n, names))
}
