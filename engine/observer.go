package engine

import (
	"errors"

	"github.com/weft-engine/weft/ecs"
)

// Observer is code that runs when a component is added, set or removed,
// or an entity that has one despawned (ecs.OnAdd, OnSet, OnRemove,
// OnDespawn), wherever the command that does it was recorded, or once
// per event of a type (ecs.OnEvent), whichever system emitted it. Build
// runs once, on the owner, after the systems' Builds: it declares the
// observer's access through b.Decl(), as a system's Build does, and
// what it observes with ecs.Observe and ecs.ObserveEvent. Observe runs
// on the owner, during command playback, once per observed change or
// event: in playback order (an event at the playback that ends its
// writer's segment, before that playback's commands), and for one
// change or event in the order of AddObserver, the same on every worker
// count (ecs/observe.go and ecs/observe_events.go have the model). Its
// access is checked like a system's: a token it did not declare is refused (WEFT-E001, naming the
// observer). What it records in o.Commands plays in the same playback.
// An error or a panic fails only that call: the step's error has a
// WEFT-G010 naming the observer, with the WEFT-E015 as its cause; the
// step completes. Build refuses an observer that observes nothing, one
// that declares an observation twice, one of an event type that no
// system emits, and the tokens it could never use (columns, write
// lookups, on/off states: they need a chunk; a write of a component is a
// command in o.Commands).
type Observer interface {
	Name() string
	Build(b *ObserverBuilder) error
	Observe(o ecs.Observed) error
}

// ObserverBuilder is an observer's view of the engine during Build. Its
// methods are executed only by the owner, inside Observer.Build.
type ObserverBuilder struct {
	e *Engine
	d *ecs.Decl
}

// World is the world, for components (ecs.NewComponent) to record
// commands with.
func (b *ObserverBuilder) World() *ecs.World { return b.e.world }

// Decl is the observer's declaration: make its tokens (ecs.ReadLookup,
// ecs.ReadRes, ecs.WriteRes) from it, and say what it observes with
// ecs.Observe and ecs.ObserveEvent.
func (b *ObserverBuilder) Decl() *ecs.Decl { return b.d }

// AddObserver registers an observer; observers are called in the order
// added. A call after Build or a nil observer is refused (WEFT-G007,
// WEFT-G001), and the refusal also fails Build. Executed only by the
// owner, before Build.
func (e *Engine) AddObserver(o Observer) error {
	var err error
	switch {
	case e.sched.built || e.sched.tried:
		return errorf(ErrOrder, "", nil, "AddObserver after Build; add every observer before Build")
	case o == nil:
		err = errorf(ErrBadConfig, "", nil, "AddObserver(nil): pass an observer value")
	default:
		e.sched.observers = append(e.sched.observers, o)
		return nil
	}
	e.sched.addErr = append(e.sched.addErr, err)
	return err
}

// buildObservers calls every observer's Build, in the order added, after
// the systems'. A name that a system or another observer has is refused:
// errors name them. Executed only by the owner, in Build.
func (e *Engine) buildObservers() []error {
	var errs []error
	names := map[string]bool{}
	for _, en := range e.sched.all {
		names[en.name] = true
	}
	for _, o := range e.sched.observers {
		name := o.Name()
		if names[name] {
			errs = append(errs, errorf(ErrBuild, name, nil, "observer %q has the name of a system or another observer; give each a unique name", name))
		}
		names[name] = true
		d := e.world.Observer(name, func(ev ecs.Observed) error { return callObserve(o, ev) })
		e.sched.obs = append(e.sched.obs, &entry{name: name, decl: d})
		if err := callObserverBuild(o, &ObserverBuilder{e: e, d: d}); err != nil {
			errs = append(errs, errorf(ErrBuild, name, err, "observer %q: Build failed; fix the observer's Build", name))
		}
		if err := d.Err(); err != nil {
			errs = append(errs, errorf(ErrBuild, name, err, "observer %q declared its access wrongly", name))
		}
		e.sched.obs[len(e.sched.obs)-1].desc = e.inside.System(d)
	}
	return errs
}

// reportObservers adds the playback's observer failures to the step's
// errors, in the order they happened: each a WEFT-G010, as for the other
// owner-side code of a step (Merge, exclusive and state systems), naming
// its observer, with the ecs error (WEFT-E015, WEFT-E016) as its cause.
// Executed only by the owner, after a playback.
func (e *Engine) reportObservers(rep *ecs.Report) {
	for _, err := range rep.Observers {
		var ee *ecs.Error
		if !errors.As(err, &ee) {
			e.fail(errorf(ErrMerge, "", err, "an observer failed in step %d", e.res.time.Step))
			continue
		}
		what := "failed"
		if errors.Is(err, ecs.ErrObserverCascade) {
			what = "recorded a cascade that was cut"
		}
		e.fail(errorf(ErrMerge, ee.System, err, "observer %q %s in step %d", ee.System, what, e.res.time.Step))
	}
}

func callObserverBuild(o Observer, b *ObserverBuilder) (err error) {
	defer recovered(&err)
	return o.Build(b)
}

func callObserve(o Observer, ev ecs.Observed) (err error) {
	defer recovered(&err)
	return o.Observe(ev)
}
