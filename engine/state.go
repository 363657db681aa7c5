package engine

import (
	"fmt"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"weak"

	"github.com/weft-engine/weft/ecs"
)

// A state is a value of a game's own comparable type T (title, playing,
// paused; a level) that decides which systems run. AddState registers it
// with every value it may take and adds a State[T] resource to the world.
// A transition is a request (State.Set) applied at one point of the step:
// its start, after the step's Time is set and before any run condition is
// evaluated, so that every system of the step, and every run condition,
// sees one value. At that point, for each state in the order of AddState,
// a pending request from → to (to != from) runs, on the owner:
//
//  1. the OnExit(from) systems, in the order they were registered;
//  2. the despawn of every entity whose Scoped[T] is from;
//  3. the state becomes to; the OnTransition(from, to) systems run, then
//     the OnEnter(to) systems, each kind in registration order.
//
// The first step enters the initial value (its OnEnter systems run)
// before it applies a request made before it. State systems are
// exclusive systems: they run alone on the owner with the world unlocked,
// and what they spawn or despawn is in the world at once. A request made
// during the step (by a system, or by a state system) is applied at the
// start of the next step. Nothing here depends on the worker count.

// State is the current value of state T and its pending request, an ecs
// resource that AddState adds. Systems read it with ecs.ReadRes and
// request a transition with ecs.WriteRes (in Merge, or from a pass that
// runs as one job); the owner and exclusive systems reach it with StateOf.
// It is plain data when T is, so snapshots and saves keep it.
type State[T comparable] struct {
	cur, next T
	pending   bool // a transition to next is requested
	entered   bool // the current value's OnEnter systems ran
}

// Current is the state's value in this step.
func (s *State[T]) Current() T { return s.cur }

// Next is the value requested for the start of the next step, if any.
func (s *State[T]) Next() (T, bool) { return s.next, s.pending }

// Set requests a transition to v at the start of the next step. A second
// request for another value before the first is applied is refused with
// WEFT-G017 and the first stands (requesting the same value again is
// fine): the game decides which request wins, not the schedule. Set of
// the current value while nothing is requested is no transition and
// requests nothing. A value that AddState did not register is refused
// with WEFT-G016, and so is Set on anything but the world's State[T]
// resource: a copy (what a ReadRes token's Get returns) would change
// nothing. Executed by whoever may write the resource: the owner between
// steps, an exclusive or state system, a system that declared
// ecs.WriteRes[State[T]].
func (s *State[T]) Set(v T) error {
	values, home := homeOf(s)
	switch {
	case !home:
		return errorf(ErrState, "", nil, "State[%v].Set(%v) on a copy of the state (or after its engine's Close), which changes nothing: request a transition through the resource itself, from ecs.WriteRes[engine.State[%[1]v]] (Get or In) or engine.StateOf; a ReadRes token's Get is a copy, for reading", reflect.TypeFor[T](), v)
	case !slices.Contains(values, v):
		return unknownValue(values, fmt.Sprintf("State[%v].Set(%v)", reflect.TypeFor[T](), v), "", v)
	case s.pending && s.next != v:
		return errorf(ErrStateConflict, "", nil, "State[%v].Set(%v): a transition to %v is already requested for the next step; request one value per step (decide between them in one system, or order the requesting systems and check Next first)", reflect.TypeFor[T](), v, s.next)
	case !s.pending && v == s.cur:
		return nil // no transition
	}
	s.next, s.pending = v, true
	return nil
}

// homes maps each State resource that AddState added, by weak pointer,
// to its values: Set checks a request against them, and refuses a State
// the map lacks (a copy). A value holds nothing of the world, so an entry
// keeps no world alive; it goes at the engine's Close, or once the
// resource is collected (a cleanup; the runtime may keep an object of a
// few bytes, such as a State of a byte-sized T, until the block it shares
// goes). Any goroutine (Set runs on the owner, or in a system's Merge or
// single job); sync.Map orders the accesses.
var homes sync.Map // weak.Pointer[State[T]] → []T

// homeOf is the values of s's state, and false if s is not a State
// resource of a world with a running engine. Any goroutine, as Set.
func homeOf[T comparable](s *State[T]) ([]T, bool) {
	if s == nil {
		return nil, false
	}
	v, ok := homes.Load(weak.Make(s))
	values, _ := v.([]T)
	return values, ok
}

// addHome registers st, the State resource of m, in homes until m's
// engine closes or st is collected. Executed only by the owner, in
// AddState.
func (m *machine[T]) addHome(st *State[T]) {
	m.home = weak.Make(st)
	homes.Store(m.home, slices.Clone(m.values))
	runtime.AddCleanup(st, func(k weak.Pointer[State[T]]) { homes.Delete(k) }, m.home)
}

// forget removes m's State resource from homes. Executed only by the
// owner, in Engine.Close.
func (m *machine[T]) forget() { homes.Delete(m.home) }

// Scoped is a component that ties an entity to a value of state T: it is
// despawned when the state leaves that value.
type Scoped[T comparable] struct{ In T }

// machine is a registered state, as the engine keeps it.
type machine[T comparable] struct {
	values []T
	home   weak.Pointer[State[T]] // its State resource, the key of homes
	hooks  []stateHook[T]         // in registration order
	scoped ecs.Component[Scoped[T]]
	cmds   *ecs.Commands
}

// stateHook is an OnEnter (to), OnExit (from) or OnTransition (both)
// system.
type stateHook[T comparable] struct {
	kind     string // "OnEnter", "OnExit", "OnTransition"
	from, to T
	x        Exclusive
}

// stateMachine is a machine of any T, for the step.
type stateMachine interface {
	apply(e *Engine)
	scopedType() reflect.Type
	forget()
}

// AddState registers state T with its initial value and the other values
// it may take (the initial value may be among them too), and adds its
// State[T] resource to the world. A call after Build is refused with
// WEFT-G007, a second AddState of T or a value listed twice among the
// others with WEFT-G016; a refusal also fails Build. Executed only by the owner, before Build.
func AddState[T comparable](e *Engine, initial T, others ...T) error {
	if e.sched.built || e.sched.tried {
		return errorf(ErrOrder, "", nil, "AddState[%v] after Build; register every state before Build", reflect.TypeFor[T]())
	}
	var err error = errorf(ErrState, "", nil, "AddState[%v] twice; register each state type once, with all its values", reflect.TypeFor[T]())
	values := slices.Clone(others) // the initial value may be among them: AddState(e, v, A, B, C)
	if !slices.Contains(others, initial) {
		values = append([]T{initial}, others...)
	}
	if dup, ok := firstRepeat(others); ok {
		err = errorf(ErrState, "", nil, "AddState[%v] lists %v twice; list each value of the state once", reflect.TypeFor[T](), dup)
	} else if machineOf[T](e) == nil {
		m := &machine[T]{values: values}
		st := &State[T]{cur: initial}
		err = ecs.AddResource(e.world, st)
		if err == nil {
			m.addHome(st)
			m.scoped = ecs.NewComponent[Scoped[T]](e.world)
			m.cmds = e.world.NewCommands()
			e.sched.states = append(e.sched.states, m)
			return nil
		}
		err = errorf(ErrState, "", err, "AddState[%v]: adding its State resource", reflect.TypeFor[T]())
	}
	e.sched.addErr = append(e.sched.addErr, err)
	return err
}

// firstRepeat is the first value of vs that an earlier one equals.
func firstRepeat[T comparable](vs []T) (T, bool) {
	for i, v := range vs {
		if slices.Contains(vs[:i], v) {
			return v, true
		}
	}
	var zero T
	return zero, false
}

// OnEnter runs x, an exclusive system, each time state T enters v (and at
// the first step, if v is the initial value). OnEnter, OnExit and
// OnTransition need AddState[T] first and a registered value (WEFT-G016),
// and are refused after Build (WEFT-G007); a refusal also fails Build.
// Executed only by the owner, before Build.
func OnEnter[T comparable](e *Engine, v T, x Exclusive) error {
	return addHook(e, stateHook[T]{kind: "OnEnter", to: v, x: x})
}

// OnExit runs x each time state T leaves v, before v's Scoped entities are
// despawned, so that it still sees them.
func OnExit[T comparable](e *Engine, v T, x Exclusive) error {
	return addHook(e, stateHook[T]{kind: "OnExit", from: v, x: x})
}

// OnTransition runs x each time state T goes from from to to, after the
// OnExit systems and before the OnEnter systems.
func OnTransition[T comparable](e *Engine, from, to T, x Exclusive) error {
	return addHook(e, stateHook[T]{kind: "OnTransition", from: from, to: to, x: x})
}

// addHook registers h after checking it.
func addHook[T comparable](e *Engine, h stateHook[T]) error {
	m, err := hookMachine(e, h)
	if err != nil {
		if !e.sched.built && !e.sched.tried {
			e.sched.addErr = append(e.sched.addErr, err)
		}
		return err
	}
	m.hooks = append(m.hooks, h)
	return nil
}

// hookMachine is the machine h is for, or the refusal of h.
func hookMachine[T comparable](e *Engine, h stateHook[T]) (*machine[T], error) {
	what := fmt.Sprintf("%s[%v]", h.kind, reflect.TypeFor[T]())
	switch m := machineOf[T](e); {
	case e.sched.built || e.sched.tried:
		return nil, errorf(ErrOrder, "", nil, "%s after Build; register every state system before Build", what)
	case h.x == nil:
		return nil, errorf(ErrBadConfig, "", nil, "%s with a nil system; pass an Exclusive", what)
	case m == nil:
		return nil, errorf(ErrState, h.x.Name(), nil, "%s(%q): state %v is not registered; call engine.AddState first", what, h.x.Name(), reflect.TypeFor[T]())
	case h.kind != "OnEnter" && !slices.Contains(m.values, h.from):
		return nil, m.unknown(what, h.x.Name(), h.from)
	case h.kind != "OnExit" && !slices.Contains(m.values, h.to):
		return nil, m.unknown(what, h.x.Name(), h.to)
	default:
		return m, nil
	}
}

// unknown is the WEFT-G016 error of a value that AddState did not register.
func (m *machine[T]) unknown(what, system string, v T) error {
	return unknownValue(m.values, what, system, v)
}

// unknownValue is the WEFT-G016 error of v, which is not among values.
func unknownValue[T comparable](values []T, what, system string, v T) error {
	return errorf(ErrState, system, nil, "%s: %v is not a value of state %v (registered: %v); add it to AddState, or fix the value", what, v, reflect.TypeFor[T](), values)
}

// machineOf is the registered state T, or nil.
func machineOf[T comparable](e *Engine) *machine[T] {
	for _, s := range e.sched.states {
		if m, ok := s.(*machine[T]); ok {
			return m
		}
	}
	return nil
}

// StateOf is state T's resource in w, for the owner between steps and for
// exclusive and state systems; AddState must have registered it
// (WEFT-G016 otherwise).
func StateOf[T comparable](w *ecs.World) (*State[T], error) {
	if w != nil {
		if s := ecs.GetResource[State[T]](w); s != nil {
			return s, nil
		}
	}
	return nil, errorf(ErrState, "", nil, "StateOf[%v]: the world has no such state; call engine.AddState before using it", reflect.TypeFor[T]())
}

// InState runs the system, or the set's members, in steps where state T
// is v (after the step's transition). Build fails with WEFT-G016 if T is
// not registered or v is not one of its values.
func InState[T comparable](v T) Option {
	name := fmt.Sprintf("InState[%v](%v)", reflect.TypeFor[T](), v)
	return func(o *options) {
		var w *ecs.World
		o.conds = append(o.conds, condition{name: name,
			bind: func(e *Engine) error {
				m := machineOf[T](e)
				if m == nil {
					return errorf(ErrState, "", nil, "%s: state %v is not registered; call engine.AddState before Build", name, reflect.TypeFor[T]())
				}
				if !slices.Contains(m.values, v) {
					return m.unknown(name, "", v)
				}
				w = e.world
				return nil
			},
			holds: func(*Frame) bool { return ecs.GetResource[State[T]](w).cur == v }})
	}
}

// applyStates applies every state's pending transition, in the order of
// AddState. Executed only by the owner, at the start of a step, before
// the run conditions, with the world unlocked.
func (e *Engine) applyStates() {
	for _, m := range e.sched.states {
		m.apply(e)
	}
}

// apply enters the initial value at the first step, then applies the
// pending request, if any. Executed only by the owner, in applyStates.
func (m *machine[T]) apply(e *Engine) {
	s := ecs.GetResource[State[T]](e.world)
	if s == nil {
		e.fail(errorf(ErrState, "", nil, "state %v: its State resource is gone from the world; keep the resources AddState added", reflect.TypeFor[T]()))
		return
	}
	if !s.entered {
		s.entered = true
		m.run(e, "OnEnter", s.cur, s.cur)
	}
	if !s.pending {
		return
	}
	from, to := s.cur, s.next
	var zero T
	s.pending, s.next = false, zero
	switch {
	case !slices.Contains(m.values, to):
		e.fail(m.unknown(fmt.Sprintf("State[%v].Set in step %d", reflect.TypeFor[T](), e.res.time.Step-1), "", to))
	case to != from:
		if err := e.strayScopes(); err != nil {
			e.fail(err)
		}
		m.run(e, "OnExit", from, to)
		m.despawn(e, from)
		s.cur = to
		m.run(e, "OnTransition", from, to)
		m.run(e, "OnEnter", from, to)
	}
}

// run runs the hooks of kind for the transition from → to, in
// registration order; a failing one fails the step (WEFT-G010) and the
// others still run.
func (m *machine[T]) run(e *Engine, kind string, from, to T) {
	for _, h := range m.hooks {
		if h.kind != kind || kind != "OnEnter" && h.from != from || kind != "OnExit" && h.to != to {
			continue
		}
		if err := callRun(h.x, e.world, *e.res.time); err != nil {
			e.fail(errorf(ErrMerge, h.x.Name(), err, "state system %q (%s) failed in step %d", h.x.Name(), kind, e.res.time.Step))
		}
	}
}

// despawn removes the entities scoped to from, in the world's order. An
// entity scoped to a value that AddState did not list fails the step
// (WEFT-G016) and stays: no transition could ever remove it.
func (m *machine[T]) despawn(e *Engine, from T) {
	var stray ecs.Entity
	var strayIn T
	ents, err := e.world.Entities(m.scoped)
	if err != nil {
		e.fail(errorf(ErrState, "", err, "despawning the entities scoped to state %v = %v", reflect.TypeFor[T](), from))
		return
	}
	for ent := range ents {
		sc, _ := ecs.Get[Scoped[T]](e.world, ent) // it has the component: Entities found it
		switch in := sc.In; {
		case in == from:
			m.cmds.Despawn(ent)
		case stray.IsZero() && !slices.Contains(m.values, in):
			stray, strayIn = ent, in
		}
	}
	if !stray.IsZero() {
		e.fail(errorf(ErrState, "", nil, "entity %v is scoped to %v, which is not a value of state %v (registered: %v), so no transition despawns it; scope it to a listed value, or add the value to AddState", stray, strayIn, reflect.TypeFor[T](), m.values))
	}
	if m.cmds.Len() == 0 {
		return
	}
	if rep, err := e.world.Apply(m.cmds); rep != nil {
		e.reportObservers(rep) // despawn observers ran in the Apply
	} else if err != nil {
		e.fail(errorf(ErrState, "", err, "despawning the entities scoped to state %v = %v", reflect.TypeFor[T](), from))
	}
}

// scopedType is Scoped[T], the component that ties entities to m's values.
func (m *machine[T]) scopedType() reflect.Type { return reflect.TypeFor[Scoped[T]]() }

// strayScopes refuses a Scoped[X] component of the world whose state X
// AddState did not register: no transition would ever despawn its
// entities. Executed only by the owner: at Build, and at each transition
// (components can be registered at any time; a transition is rare enough
// to look).
func (e *Engine) strayScopes() error {
	for _, t := range e.inside.Components() {
		if t.PkgPath() != scopedPkg || !strings.HasPrefix(t.Name(), "Scoped[") {
			continue
		}
		if !slices.ContainsFunc(e.sched.states, func(m stateMachine) bool { return m.scopedType() == t }) {
			return errorf(ErrState, "", nil, "component %v is used, but its state is not registered, so no transition despawns its entities; call engine.AddState for the state type before Build", t)
		}
	}
	return nil
}

// scopedPkg is the package path of Scoped.
var scopedPkg = reflect.TypeFor[Scoped[int]]().PkgPath()
