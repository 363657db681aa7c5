package interact

import (
	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
)

// The shapes a part takes, made of functions: a system, one with a
// Merge, an exclusive system, an observer.

type system struct {
	name  string
	build func(b *engine.Builder) error
	sched func(f *engine.Frame) error
}

func (s *system) Name() string                   { return s.name }
func (s *system) Build(b *engine.Builder) error  { return s.build(b) }
func (s *system) Schedule(f *engine.Frame) error { return s.sched(f) }

type merging struct {
	*system
	merge func(f *engine.Frame) error
}

func (s merging) Merge(f *engine.Frame) error { return s.merge(f) }

type exclusive struct {
	name string
	run  func(w *ecs.World, t engine.Time) error
}

func (x *exclusive) Name() string                          { return x.name }
func (x *exclusive) Run(w *ecs.World, t engine.Time) error { return x.run(w, t) }

type observer struct {
	name    string
	build   func(b *engine.ObserverBuilder) error
	observe func(ev ecs.Observed) error
}

func (o *observer) Name() string                          { return o.name }
func (o *observer) Build(b *engine.ObserverBuilder) error { return o.build(b) }
func (o *observer) Observe(ev ecs.Observed) error         { return o.observe(ev) }

// runPass is a Schedule that runs one pass.
func runPass(p **engine.Pass) func(f *engine.Frame) error {
	return func(f *engine.Frame) error { return f.Run(*p) }
}
