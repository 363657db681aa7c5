package engine

import (
	"fmt"
	"slices"
	"strings"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/internal/seam"
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

// Option refines how a system (Add, AddExclusive) or a set (Set) is
// added. An option that does not apply where it is given is refused with
// WEFT-G001.
type Option func(*options)

// options are what Options set, on a system or a set.
type options struct {
	before, after []string
	disabled      bool
	conds         []condition
	sets          []string // InSet
	stage         Stage    // InStage, if staged
	staged        bool
	errs          []string // what an option was given wrongly, for WEFT-G001
}

// Before makes the system, or every member of the set, run before the
// named systems, and before every member of the named sets.
func Before(names ...string) Option {
	return func(o *options) { o.before = append(o.before, names...) }
}

// After makes the system, or every member of the set, run after the named
// systems, and after every member of the named sets.
func After(names ...string) Option { return func(o *options) { o.after = append(o.after, names...) } }

// Disabled adds the system switched off; Engine.Enable switches it on.
func Disabled() Option { return func(o *options) { o.disabled = true } }

// entry is a system as the engine keeps it.
type entry struct {
	name   string
	stage  Stage
	sys    System
	merger Merger
	excl   Exclusive
	decl   *ecs.Decl
	desc   seam.System // decl as data, read once after Build (seam.go)
	options
	commands  bool
	passes    []*Pass
	buildErrs []error // what its Builder calls were given wrongly

	// Built.
	index   int   // position in built order
	preds   []int // direct predecessors in the DAG that the runtime enforces
	seg     int   // the segment of the step it runs in (exclusives split steps)
	queries []*queryState
	// settleOn: the systems before it in its segment that write a
	// component its change filters watch (Frame.settle waits for them).
	settleOn []int
	setOf    []*set // the sets it is in, from InSet
	// Its Before/After and its sets', resolved to system names.
	runBefore, runAfter []string
	// Per step, owner only.
	xsum        uint64        // an exclusive system's digest (digest.go)
	xrows       []ecs.Written // and its rows under ecs.DigestCapture
	done        jobs.Handle   // finishes when the system's jobs (or its predecessors) have
	last        jobs.Handle   // the last pass started this step
	lastPass    *Pass
	lastGrouped bool // it runs as one job per chunk: a pass can chain onto it
	started     bool
	merge       bool   // Schedule succeeded: Merge runs
	skip        bool   // a run condition of it or of one of its sets does not hold this step
	failure     string // its own failure this step, for its record
	slot        int    // its index in Layout.Systems
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
		return errorf(ErrOrder, name, nil, "%s(%q) after Build; add every system before Build (to change the systems, make a new Engine on a new world)", call, name)
	}
	var err error
	switch {
	case en == nil:
		err = errorf(ErrBadConfig, "", nil, "%s(%v, nil): the system is nil; pass a system value", call, stage)
	case stage < 0 || stage >= numStages:
		err = errorf(ErrBadConfig, en.name, nil, "system %q is added to %v; use PreUpdate, Update, PostUpdate or PreRender", en.name, stage)
	default:
		for _, o := range opts {
			o(&en.options)
		}
		if en.staged {
			en.errs = append(en.errs, "InStage is an option of Set; a system's stage is the first argument of "+call)
		}
		if err = optionsErr(fmt.Sprintf("%s(%q)", call, en.name), en.name, en.errs); err == nil {
			e.sched.all = append(e.sched.all, en)
			return nil
		}
	}
	e.sched.addErr = append(e.sched.addErr, err)
	return err
}

// optionsErr is the WEFT-G001 error for options given wrongly to call,
// or nil if there are none.
func optionsErr(call, name string, errs []string) error {
	if len(errs) == 0 {
		return nil
	}
	return errorf(ErrBadConfig, name, nil, "%s: %s", call, strings.Join(errs, "; "))
}

// Enable switches a system on or off from the next step on; given a
// set's name (Engine.Set), it switches every member of the set. A
// switched-off system starts no pass and its dependents do not wait for
// it, as when a run condition skips it. Executed only by the owner,
// between steps.
func (e *Engine) Enable(name string, on bool) error {
	for _, en := range e.sched.all {
		if en.name == name {
			en.disabled = !on
			return nil
		}
	}
	found := false
	for _, s := range e.sched.sets {
		found = found || s.name == name
	}
	for _, en := range e.sched.all {
		if found && slices.Contains(en.sets, name) {
			en.disabled = !on
		}
	}
	if found {
		return nil
	}
	return errorf(ErrUnknown, name, nil, "Enable(%q): no system or set has that name; use a name that Explain lists, or one given to Engine.Set", name)
}
