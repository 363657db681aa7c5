package engine

import (
	"errors"
	"fmt"
	"reflect"

	"github.com/weft-engine/weft/ecs"
)

// A run condition decides, once per step, whether a system (or every
// member of a set) runs. Conditions are evaluated on the owner at the
// start of the step, before any system runs: sets' first, in the order of
// Engine.Set, then systems', in built order. Every condition is evaluated
// every step, so a condition that keeps state sees each step once and the
// outcome is the same for every worker count.
//
// A system whose condition does not hold sits the step out: its Schedule
// and Merge are not called (an exclusive's Run is not), its dependents do
// not wait for it (they wait for its predecessors instead, so order
// through it still holds), and its timings say Skipped.

// condition is one run condition.
type condition struct {
	name  string              // for Explain: "RunIf", "EveryN(30)", "WhileRes[T]"
	holds func(f *Frame) bool // evaluated once per step, on the owner
	bind  func(*Engine) error // at Build, if set: fails Build if the condition cannot hold
}

// RunIf runs the system, or the set's members, only in steps where holds
// reports true. holds runs on the owner at the start of each step, before
// any system; it may read f.Time() and its own state, and starts nothing.
// Several conditions on a system, and its sets' conditions, must all hold.
func RunIf(holds func(f *Frame) bool) Option {
	return func(o *options) {
		if holds == nil {
			o.errs = append(o.errs, "RunIf(nil): pass a function")
			return
		}
		o.conds = append(o.conds, condition{name: "RunIf", holds: holds})
	}
}

// EveryN runs the system, or the set's members, in every n-th step: steps
// n, 2n, 3n, ... of Time.Step. n must be at least 1.
func EveryN(n int) Option {
	return func(o *options) {
		if n < 1 {
			o.errs = append(o.errs, fmt.Sprintf("EveryN(%d): n must be >= 1", n))
			return
		}
		every := uint64(n)
		o.conds = append(o.conds, condition{name: fmt.Sprintf("EveryN(%d)", n),
			holds: func(f *Frame) bool { return f.e.res.time.Step%every == 0 }})
	}
}

// WhileRes runs the system, or the set's members, in steps where pred
// holds for the world's resource T, as it is at the start of the step. The
// resource must be added (ecs.AddResource) before Build, which fails with
// WEFT-G015 otherwise. pred must only read the resource.
func WhileRes[T any](pred func(r *T) bool) Option {
	name := "WhileRes[" + reflect.TypeFor[T]().String() + "]"
	return func(o *options) {
		if pred == nil {
			o.errs = append(o.errs, name+"(nil): pass a function")
			return
		}
		o.conds = append(o.conds, condition{name: name,
			bind: func(e *Engine) error {
				if ecs.GetResource[T](e.world) == nil {
					return fmt.Errorf("the world has no resource %v", reflect.TypeFor[T]())
				}
				return nil
			},
			holds: func(f *Frame) bool {
				r := ecs.GetResource[T](f.e.world)
				return r != nil && pred(r)
			}})
	}
}

// bindConditions prepares the conditions of every system and set; a
// condition that cannot hold fails Build. Executed only by the owner, in
// Build.
func (e *Engine) bindConditions() []error {
	var errs []error
	bind := func(cs []condition, what string) {
		for _, c := range cs {
			if c.bind == nil {
				continue
			}
			err := c.bind(e)
			var own *Error
			if errors.As(err, &own) {
				errs = append(errs, errorf(own.Code, "", err, "%s: run condition %s cannot hold", what, c.name))
			} else if err != nil {
				errs = append(errs, errorf(ErrCondition, "", err, "%s: run condition %s cannot hold; add the resource with ecs.AddResource before Build, or drop the condition", what, c.name))
			}
		}
	}
	for _, s := range e.sched.sets {
		bind(s.conds, fmt.Sprintf("set %q", s.name))
	}
	for _, en := range e.sched.all {
		bind(en.conds, fmt.Sprintf("system %q", en.name))
	}
	return errs
}

// decide evaluates every run condition once, sets' first (in the order of
// Set), then systems' (in built order, parallel then exclusive ones), and
// marks the systems that sit this step out. A condition that panics
// counts as false and fails the step with WEFT-G015. Executed only by the
// owner, at the start of a step, after the record's begin and before any
// system runs.
func (e *Engine) decide() {
	e.scratch.frame.deciding = true // for ecs's checks (owner.Deciding); no job runs now
	defer func() { e.scratch.frame.deciding = false }()
	for _, s := range e.sched.sets {
		s.skip = !e.holds(s.conds, "set", s.name)
	}
	for _, list := range [2][]*entry{e.sched.par, e.sched.excl} {
		for _, en := range list {
			en.skip = !e.holds(en.conds, "system", en.name)
			for _, s := range en.setOf {
				en.skip = en.skip || s.skip
			}
		}
	}
}

// holds evaluates cs, all of them, and reports whether they all hold.
// kind and name say whose they are, for the error.
func (e *Engine) holds(cs []condition, kind, name string) bool {
	all := true
	for i := range cs {
		ok, err := callHolds(cs[i].holds, &e.scratch.frame)
		if err != nil {
			e.fail(errorf(ErrCondition, name, err, "%s %q: run condition %s panicked in step %d; it counts as false", kind, name, cs[i].name, e.res.time.Step))
		}
		all = all && ok
	}
	return all
}

// conditionNames lists cs for Explain.
func conditionNames(cs []condition, prefix string, dst []string) []string {
	for _, c := range cs {
		dst = append(dst, prefix+c.name)
	}
	return dst
}
