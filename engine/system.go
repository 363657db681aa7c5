package engine

import (
	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/jobs"
)

// System is a unit of game logic. Build runs once, on the owner: it
// declares the system's access through b.Decl() and makes its queries and
// passes. Schedule runs every fixed step, on the owner: it starts the
// system's passes with Frame.Run; their jobs run on the pool.
type System interface {
	Name() string
	Build(b *Builder) error
	Schedule(f *Frame) error
}

// Merger is a System with an owner-side step after the jobs: Merge runs on
// the owner once every job of the step has finished and the commands have
// been played back, in built order, e.g. to merge per-chunk outputs.
type Merger interface {
	Merge(f *Frame) error
}

// Exclusive is a system that runs on the owner alone with full access to
// the world, when its stage begins: after every job of the earlier stages
// has finished and their commands have been played back.
type Exclusive interface {
	Name() string
	Run(w *ecs.World, t Time) error
}

// Stage groups systems; stages run in this fixed order.
type Stage int

// The stages.
const (
	PreUpdate Stage = iota
	Update
	PostUpdate
	PreRender
	numStages
)

var stageNames = [numStages]string{"PreUpdate", "Update", "PostUpdate", "PreRender"}

func (s Stage) String() string {
	if s >= 0 && s < numStages {
		return stageNames[s]
	}
	return "Stage(?)"
}

// Option refines how a system is added.
type Option func(*entry)

// Before makes the system run before the named systems.
func Before(names ...string) Option { return func(e *entry) { e.before = append(e.before, names...) } }

// After makes the system run after the named systems.
func After(names ...string) Option { return func(e *entry) { e.after = append(e.after, names...) } }

// Disabled adds the system switched off; Engine.Enable switches it on.
func Disabled() Option { return func(e *entry) { e.disabled = true } }

// entry is a system as the engine keeps it.
type entry struct {
	name          string
	stage         Stage
	sys           System
	merger        Merger
	excl          Exclusive
	decl          *ecs.Decl
	before, after []string
	disabled      bool
	commands      bool
	passes        []*Pass

	// Built.
	index   int   // position in built order
	preds   []int // direct predecessors in the DAG that the runtime enforces
	seg     int   // the segment of the step it runs in (exclusives split steps)
	queries []*queryState

	// Per step, owner only.
	done        jobs.Handle // finishes when the system's jobs (or its predecessors) have
	last        jobs.Handle // the last pass started this step
	lastPass    *Pass
	lastGrouped bool // it runs as one job per chunk: a pass can chain onto it
	started     bool
	merge       bool // Schedule succeeded: Merge runs
	timing      sysAcc
}

// Add registers a system in a stage. A call after Build, a nil system or
// a stage out of range is refused with an error (WEFT-G007, WEFT-G001); a
// refusal before Build also fails Build, so that it cannot go unseen.
// Executed only by the owner, before Build.
func (e *Engine) Add(stage Stage, s System, opts ...Option) error {
	var en *entry
	if s != nil {
		en = &entry{name: s.Name(), stage: stage, sys: s}
		en.merger, _ = s.(Merger)
	}
	return e.add("Add", stage, en, opts)
}

// AddExclusive registers an exclusive system, run when stage begins. It
// refuses what Add refuses. Executed only by the owner, before Build.
func (e *Engine) AddExclusive(stage Stage, s Exclusive, opts ...Option) error {
	var en *entry
	if s != nil {
		en = &entry{name: s.Name(), stage: stage, excl: s}
	}
	return e.add("AddExclusive", stage, en, opts)
}

// add registers en (nil for a nil system) for call, the public method.
func (e *Engine) add(call string, stage Stage, en *entry, opts []Option) error {
	if e.sched.built || e.sched.tried {
		name := ""
		if en != nil {
			name = en.name
		}
		return errorf(CodeOrder, name, nil, "%s(%q) after Build; add every system before Build (to change the systems, make a new Engine)", call, name)
	}
	var err error
	switch {
	case en == nil:
		err = errorf(CodeBadConfig, "", nil, "%s(%v, nil): the system is nil; pass a system value", call, stage)
	case stage < 0 || stage >= numStages:
		err = errorf(CodeBadConfig, en.name, nil, "system %q is added to %v; use PreUpdate, Update, PostUpdate or PreRender", en.name, stage)
	default:
		for _, o := range opts {
			o(en)
		}
		e.sched.all = append(e.sched.all, en)
		return nil
	}
	e.sched.addErr = append(e.sched.addErr, err)
	return err
}

// Enable switches a system on or off from the next step on. Executed only
// by the owner, between steps.
func (e *Engine) Enable(name string, on bool) error {
	for _, en := range e.sched.all {
		if en.name == name {
			en.disabled = !on
			return nil
		}
	}
	return errorf(CodeUnknown, name, nil, "Enable(%q): no system has that name; use a name that Explain lists", name)
}
