package engine

import (
	"sync/atomic"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/jobs"
	"github.com/weft-engine/weft/safety"
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

// Query is what a pass needs of an ecs query (ecs.Query1..Query4).
type Query interface {
	Prepare(batch int) (int, error)
	Job(fn func(c *ecs.Chunk)) jobs.Func
	ChunkLen(i int) int
	Columns(dst []safety.Key) []safety.Key
	Aligned(other any) bool
}

// Builder is a system's view of the engine during Build. Its methods are
// executed only by the owner, inside System.Build.
type Builder struct {
	e *Engine
	s *entry
}

// World is the world, for components (ecs.NewComponent) and spawners.
func (b *Builder) World() *ecs.World { return b.e.world }

// Decl is the system's declaration: make its tokens (ecs.Read, ecs.Write,
// ecs.ReadRes, ecs.WriteRes) and queries from it.
func (b *Builder) Decl() *ecs.Decl { return b.s.decl }

// Commands states that the system records structural changes in command
// buffers, so that Explain shows where they play back.
func (b *Builder) Commands() { b.s.commands = true }

// Chunks makes a pass that runs fn on every chunk of q. fn runs as jobs,
// on any worker, many at once, each on its own chunk; it may touch only
// that chunk and its own outputs. Passes of one query share its chunks:
// the query is prepared once a step.
func (b *Builder) Chunks(name string, q Query, fn func(c *ecs.Chunk)) *Pass {
	qs := b.e.queryState(q)
	p := &Pass{label: b.s.name + "." + name, sys: b.s, q: qs}
	p.run = q.Job(func(c *ecs.Chunk) {
		fn(c)
		p.rows.Add(int64(c.Len()))
	})
	qs.passes = append(qs.passes, p)
	b.s.passes = append(b.s.passes, p)
	return p
}

// Range makes a pass that runs fn over item ranges [lo, hi), as jobs on
// any worker, many at once: for work on the system's own buffers, not on
// components. Each call may write only what belongs to its range.
func (b *Builder) Range(name string, fn func(lo, hi int)) *Pass {
	p := &Pass{label: b.s.name + "." + name, sys: b.s}
	p.run = func(c *jobs.Ctx) { fn(c.Range()) }
	b.s.passes = append(b.s.passes, p)
	return p
}

// Pass is one parallel loop of a system, made at Build and started each
// step with Frame.Run or Frame.RunRange. A system's passes run one after
// another, in the order it starts them.
type Pass struct {
	label string
	sys   *entry
	q     *queryState
	run   jobs.Func
	rows  atomic.Int64 // rows of the chunks run this step; jobs add, the owner reads after Wait

	// Chunk-wise chaining, decided at Build: group passes run one job per
	// chunk so that a chained pass's chunk k can wait for chunk k alone.
	group bool
	chain *Pass // the group pass this one may chain onto
}

// queryState is a query shared by passes: prepared once per step.
type queryState struct {
	q      Query
	step   uint64
	n      int
	passes []*Pass
}

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
