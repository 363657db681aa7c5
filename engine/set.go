package engine

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/weft-engine/weft/safety"
)

// A system set is a named group of systems that share Before/After
// constraints, a stage and run conditions. Engine.Set declares it; a
// system joins it with the InSet option. Build resolves sets away: a
// set's Before/After becomes each member's, and Before/After naming a set
// means every parallel member of it, so the safety check, the ambiguity
// report and the runtime see systems only. Explain tells set-derived
// edges by their cause (CauseSet).

// set is a declared system set.
type set struct {
	name string
	options
	members []*entry // in stage order, then registration order
	skip    bool     // per step: its conditions do not hold
}

// InSet puts the system in the named sets (declared with Engine.Set): it
// takes each set's Before/After and run conditions, and Before/After
// naming a set orders against it.
func InSet(names ...string) Option { return func(o *options) { o.sets = append(o.sets, names...) } }

// InStage gives a set its stage: every member must be added to that stage
// (Build fails with WEFT-G012 otherwise). A system's stage is Add's first
// argument, so InStage is refused on Add.
func InStage(s Stage) Option {
	return func(o *options) {
		if s < 0 || s >= numStages {
			o.errs = append(o.errs, fmt.Sprintf("InStage(%v): use PreUpdate, Update, PostUpdate or PreRender", s))
			return
		}
		o.stage, o.staged = s, true
	}
}

// Set declares the system set name with shared options: Before, After,
// InStage and run conditions (RunIf, EveryN, WhileRes). Sets do not nest
// (InSet) and are not Disabled. A call after Build is refused with
// WEFT-G007, a name used twice with WEFT-G013, a refused option with
// WEFT-G001; a refusal before Build also fails Build. Executed only by
// the owner, before Build.
func (e *Engine) Set(name string, opts ...Option) error {
	if e.sched.built || e.sched.tried {
		return errorf(ErrOrder, "", nil, "Set(%q) after Build; declare every set before Build", name)
	}
	s := &set{name: name}
	for _, o := range opts {
		o(&s.options)
	}
	if name == "" {
		s.errs = append(s.errs, "a set needs a name")
	}
	if len(s.sets) > 0 || s.disabled {
		s.errs = append(s.errs, "InSet and Disabled are options of systems; sets do not nest and are not disabled")
	}
	err := optionsErr(fmt.Sprintf("Set(%q)", name), "", s.errs)
	for _, o := range e.sched.sets {
		if err == nil && o.name == name {
			err = errorf(ErrNameClash, "", nil, "Set(%q) twice; declare each set once, with all its options", name)
		}
	}
	if err != nil {
		e.sched.addErr = append(e.sched.addErr, err)
		return err
	}
	e.sched.sets = append(e.sched.sets, s)
	return nil
}

// resolveSets gives every system its sets and every set its members, and
// reports unknown set names, sets named like a system, and members whose
// stage is not their set's. Executed only by the owner, in Build, after
// the systems are sorted by stage.
func (e *Engine) resolveSets() []error {
	var errs []error
	e.sched.byName = map[string]*entry{}
	for _, en := range e.sched.all {
		e.sched.byName[en.name] = en // the last of a duplicate name, as reported by buildSystems
	}
	e.sched.setByName = map[string]*set{}
	for _, s := range e.sched.sets {
		e.sched.setByName[s.name] = s
	}
	for _, s := range e.sched.sets {
		errs = e.checkNames(s, errs)
	}
	for _, en := range e.sched.all {
		for _, n := range en.sets {
			s := e.sched.setByName[n]
			if s == nil {
				errs = append(errs, errorf(ErrUnknownSet, en.name, nil, "system %q is InSet(%q), which is not a set; declare it with Engine.Set before Build, or fix the name", en.name, n))
				continue
			}
			if s.staged && s.stage != en.stage {
				errs = append(errs, errorf(ErrSetStage, en.name, nil, "system %q is added to %v, but its set %q is InStage(%v)%s; add the system to its set's stage, or take it out of the set", en.name, en.stage, n, s.stage, e.otherStage(en, s)))
			}
			en.setOf = append(en.setOf, s)
			s.members = append(s.members, en)
		}
	}
	return errs
}

// checkNames reports a set named like a system, and Before/After of the
// set that name neither a parallel system nor a set. Executed only by the
// owner, in resolveSets.
func (e *Engine) checkNames(s *set, errs []error) []error {
	if e.sched.byName[s.name] != nil {
		errs = append(errs, errorf(ErrNameClash, s.name, nil, "set %q has the name of a system; Before/After(%q) would mean either: rename the set or the system", s.name, s.name))
	}
	for _, n := range append(s.before[:len(s.before):len(s.before)], s.after...) {
		if t := e.sched.byName[n]; (t == nil || t.excl != nil) && e.sched.setByName[n] == nil {
			errs = append(errs, errorf(ErrUnknownSet, "", nil, "set %q runs Before/After %q, which is neither a parallel system nor a set (exclusive systems take no Before/After); fix the name, or add the system or Set", s.name, n))
		}
	}
	return errs
}

// otherStage names another set of en in another stage than s, if any,
// for the error of a system in two sets with conflicting stages.
func (e *Engine) otherStage(en *entry, s *set) string {
	for _, n := range en.sets {
		if o := e.sched.setByName[n]; o != nil && o.staged && o.stage != s.stage {
			return fmt.Sprintf(" while its set %q is InStage(%v)", o.name, o.stage)
		}
	}
	return ""
}

// resolveOrder turns every parallel system's Before/After, and its sets',
// into constraints between systems (runBefore, runAfter, why), and
// reports those against the stage order. A name that is neither a system
// nor a set stays as it is, for the safety check to report. Executed only
// by the owner, in Build, after resolveSets.
func (e *Engine) resolveOrder() []error {
	e.sched.why = map[[2]string]Cause{}
	var errs []error
	for _, en := range e.sched.par {
		errs = e.constrain(en, en.name, &en.options, errs)
		for _, s := range en.setOf {
			errs = e.constrain(en, fmt.Sprintf("set %q (%s is in it)", s.name, en.name), &s.options, errs)
		}
	}
	return errs
}

// constrain adds the constraints of o, given to subject on behalf of en.
func (e *Engine) constrain(en *entry, subject string, o *options, errs []error) []error {
	for _, before := range [2]bool{true, false} {
		names := o.after
		if before {
			names = o.before
		}
		for _, n := range names {
			if s := e.sched.setByName[n]; s != nil && slices.Contains(s.members, en) {
				errs = append(errs, errorf(ErrSetCycle, en.name, nil, "%s is %s set %q, which %s is in: it would run %s itself; order it against the other members by their names instead", subject, map[bool]string{true: "Before", false: "After"}[before], n, en.name, map[bool]string{true: "before", false: "after"}[before]))
				continue
			}
			ts, object := e.targets(n, en)
			if ts == nil && object == "" && subject == en.name {
				if before {
					en.runBefore = append(en.runBefore, n) // unknown: safety reports it
				} else {
					en.runAfter = append(en.runAfter, n)
				}
			}
			for _, t := range ts {
				errs = e.order(en, t, before, subject, object, errs)
			}
		}
	}
	return errs
}

// targets are the parallel systems that name stands for, seen from en:
// the system of that name, or the members of the set of that name but en
// itself; object describes them for Explain ("" for a plain system).
func (e *Engine) targets(name string, en *entry) (ts []*entry, object string) {
	if s := e.sched.setByName[name]; s != nil {
		for _, m := range s.members {
			if m != en && m.excl == nil {
				ts = append(ts, m)
			}
		}
		return ts, fmt.Sprintf("set %q", name)
	}
	if t := e.sched.byName[name]; t != nil && t.excl == nil {
		return []*entry{t}, ""
	}
	return nil, ""
}

// order records that en runs before (or after) t, for the reason subject
// "is Before/After" object, unless the pair is ordered already.
func (e *Engine) order(en, t *entry, before bool, subject, object string, errs []error) []error {
	first, then, verb := t, en, "After"
	if before {
		first, then, verb = en, t, "Before"
	}
	key := [2]string{first.name, then.name}
	if _, ok := e.sched.why[key]; ok {
		return errs
	}
	c := Cause{Kind: CauseOrder, Text: fmt.Sprintf("%s is %s %s", en.name, verb, t.name)}
	if subject != en.name || object != "" {
		if object == "" {
			object = t.name
		} else {
			object += fmt.Sprintf(" (%s is in it)", t.name)
		}
		c = Cause{Kind: CauseSet, Text: fmt.Sprintf("%s is %s %s", subject, verb, object)}
	}
	if first.stage > then.stage {
		return append(errs, stageOrderErr(en, t, before, c))
	}
	e.sched.why[key] = c
	if before {
		en.runBefore = append(en.runBefore, t.name)
	} else {
		en.runAfter = append(en.runAfter, t.name)
	}
	return errs
}

// stageOrderErr is the WEFT-G005 error of en running before (or after) t
// against the stage order, for cause c.
func stageOrderErr(en, t *entry, before bool, c Cause) error {
	const fix = "; drop the constraint or move one of them"
	switch {
	case c.Kind == CauseSet && before:
		return errorf(ErrStageOrder, en.name, nil, "%s: %q (%v) would run before %q, which is in the earlier stage %v"+fix, c.Text, en.name, en.stage, t.name, t.stage)
	case c.Kind == CauseSet:
		return errorf(ErrStageOrder, en.name, nil, "%s: %q (%v) would run after %q, which is in the later stage %v"+fix, c.Text, en.name, en.stage, t.name, t.stage)
	case before:
		return errorf(ErrStageOrder, en.name, nil, "system %q (%v) runs Before %q, which is in the earlier stage %v"+fix, en.name, en.stage, t.name, t.stage)
	default:
		return errorf(ErrStageOrder, en.name, nil, "system %q (%v) runs After %q, which is in the later stage %v"+fix, en.name, en.stage, t.name, t.stage)
	}
}

// setCycle turns safety's cycle error into WEFT-G014 when a set made one
// of its edges, so that the error names the sets. Executed only by the
// owner, in Build.
func (e *Engine) setCycle(err error) error {
	var se *safety.Error
	if !errors.As(err, &se) || se.Code != safety.ErrCycle {
		return nil
	}
	var causes []string
	viaSet := false
	for i := 0; i+1 < len(se.Detail.Cycle); i++ {
		c, ok := e.sched.why[[2]string{se.Detail.Cycle[i], se.Detail.Cycle[i+1]}]
		if ok {
			causes = append(causes, c.Text)
			viaSet = viaSet || c.Kind == CauseSet
		}
	}
	if !viaSet {
		return nil
	}
	return errorf(ErrSetCycle, "", err, "Before/After constraints through sets form a cycle (%s): %s; remove one of them", strings.Join(se.Detail.Cycle, " → "), strings.Join(causes, "; "))
}
