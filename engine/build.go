package engine

import (
	"errors"
	"fmt"
	"slices"

	"github.com/weft-engine/weft/safety"
)

// Build builds every system, validates the schedule with the safety
// package, and derives the system DAG. Ambiguous pairs (conflicting
// systems of one stage ordered only by registration) fail the build unless
// Config.Allowlist accepts them. Executed only by the owner, once.
func (e *Engine) Build() error {
	if e.sched.built || e.sched.tried {
		return errorf(ErrOrder, "", nil, "Build called twice; build once, then Step (after a failed Build, make a new Engine on a new world)")
	}
	e.sched.tried = true
	if err := errors.Join(e.sched.addErr...); err != nil {
		return err
	}
	// Stage order first, registration order within a stage.
	slices.SortStableFunc(e.sched.all, func(a, b *entry) int { return int(a.stage) - int(b.stage) })
	errs := e.resolveSets()
	errs = append(errs, e.buildSystems()...)
	errs = append(errs, e.buildObservers()...)
	errs = append(errs, e.bindConditions()...)
	errs = append(errs, e.strayScopes())
	if err := errors.Join(append(errs, e.resolveOrder()...)...); err != nil {
		return err
	}
	plan, err := safety.Check(e.world.Registry(), e.safetySystems())
	if err != nil {
		if serr := e.setCycle(err); serr != nil {
			return serr
		}
		return errorf(ErrSchedule, "", err, "the schedule does not validate; fix the systems named below")
	}
	if err := plan.NewAmbiguities(e.cfg.Allowlist); err != nil {
		return errorf(ErrAmbiguity, "", err, "conflicting systems of one stage are ordered only by registration; add Before/After, or accept each ID in Config.Allowlist")
	}
	e.adoptPlan(plan)
	e.derive()
	e.sched.built = true
	e.out.rec.init(e)
	return nil
}

// buildSystems calls every system's Build, in stage order, and splits the
// systems into parallel and exclusive ones. Executed only by the owner, in
// Build.
func (e *Engine) buildSystems() []error {
	var errs []error
	names := map[string]bool{}
	for _, en := range e.sched.all {
		if names[en.name] {
			dup := &safety.Error{Code: safety.ErrUnknownSystem, Msg: fmt.Sprintf("two systems are named %q; give every system a unique name", en.name)}
			errs = append(errs, errorf(ErrSchedule, en.name, dup, "the schedule does not validate; fix the systems named below"))
		}
		names[en.name] = true
		if en.excl != nil {
			if ordered, via := orderedVia(en); ordered {
				errs = append(errs, errorf(ErrStageOrder, en.name, nil, "exclusive system %q has Before/After constraints%s; exclusive systems run at the start of their stage, in registration order: move it to another stage instead", en.name, via))
			}
			e.sched.excl = append(e.sched.excl, en)
			continue
		}
		en.decl = e.world.System(en.name)
		if err := callBuild(en.sys, &Builder{e: e, s: en}); err != nil {
			errs = append(errs, errorf(ErrBuild, en.name, err, "system %q: Build failed; fix the system's Build", en.name))
		}
		en.desc = e.inside.System(en.decl) // read once
		errs = append(errs, en.buildErrs...)
		if err := en.decl.Err(); err != nil {
			errs = append(errs, errorf(ErrBuild, en.name, err, "system %q declared its access wrongly", en.name))
		}
		e.sched.par = append(e.sched.par, en)
	}
	return errs
}

// orderedVia reports whether exclusive en has Before/After constraints,
// and, for the error, through which set if not its own.
func orderedVia(en *entry) (ordered bool, via string) {
	if len(en.before)+len(en.after) > 0 {
		return true, ""
	}
	for _, s := range en.setOf {
		if len(s.before)+len(s.after) > 0 {
			return true, fmt.Sprintf(" through set %q", s.name)
		}
	}
	return false, ""
}

// adoptPlan puts the parallel systems in the plan's order and gives each
// the plan's predecessors. The plan's indices are positions in the
// registration-ordered sched.par; from here on sched.par is in built
// order. Executed only by the owner, in Build.
func (e *Engine) adoptPlan(plan *safety.Plan) {
	par := e.sched.par
	order := make([]*entry, len(plan.Order))
	for i, k := range plan.Order {
		order[i] = par[k]
		order[i].index = i
	}
	for i, k := range plan.Order {
		for _, pk := range plan.Preds[k] {
			order[i].preds = append(order[i].preds, par[pk].index)
		}
	}
	e.sched.par = order
	e.sched.plan = plan
}

// derive computes what the steps need from the ordered systems: each
// system's queries, the segments, the chained passes, the Explain model
// and the pass labels. Executed only by the owner, in Build, after
// adoptPlan.
func (e *Engine) derive() {
	e.sched.labels = map[string]*Pass{}
	for _, en := range e.sched.par {
		for _, p := range en.passes {
			if p.q != nil && !slices.Contains(en.queries, p.q) {
				en.queries = append(en.queries, p.q)
			}
			e.sched.labels[p.label] = p
		}
	}
	e.segments()
	e.settlers()
	if e.cfg.ChainChunks {
		e.chains()
	}
	e.sched.explain = e.buildExplain()
}

// safetySystems is the input of safety.Check, in e.sched.par's order.
func (e *Engine) safetySystems() []safety.System {
	out := make([]safety.System, len(e.sched.par))
	for i, en := range e.sched.par {
		after := e.eventAfter(en, slices.Clip(en.runAfter))
		out[i] = safety.System{Name: en.name, Decls: en.desc.Decls, Stage: int(en.stage), Before: en.runBefore, After: after}
	}
	return out
}

// segments splits the step at the stages that have exclusive systems.
func (e *Engine) segments() {
	var boundary [numStages]bool
	for _, x := range e.sched.excl {
		boundary[x.stage] = true
	}
	seg := func(s Stage) int {
		n := 0
		for st := Stage(0); st <= s; st++ {
			if boundary[st] {
				n++
			}
		}
		return n
	}
	for _, en := range e.sched.par {
		en.seg = seg(en.stage)
		e.inside.Place(en.decl, en.index, en.seg)
	}
	for _, x := range e.sched.excl {
		x.seg = seg(x.stage)
	}
	e.sched.nseg = seg(numStages-1) + 1
}
