package engine

import (
	"sync/atomic"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/internal/seam"
	"github.com/weft-engine/weft/jobs"
)

// Query is an ecs query of any arity (ecs.Query1..Query8, made with
// ecs.NewQueryN), as a pass runs over it.
type Query = ecs.AnyQuery

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
// that chunk and its own outputs (a Reduction's partial, its Commands).
// Passes of one query share its chunks: the query is prepared once a step.
func (b *Builder) Chunks(name string, q Query, fn func(c *ecs.Chunk)) *Pass {
	return b.chunks(name, q, fn, false)
}

// ChunksInOrder makes a pass that runs fn on every chunk of q, in chunk
// order, as one job: no parallelism inside the pass, but it may also write
// what is shared between chunks, a resource (ecs.ResWriter.In) or any
// entity (ecs.WriteLookup), and the result does not depend on the worker
// count. Other systems' jobs still run beside it.
func (b *Builder) ChunksInOrder(name string, q Query, fn func(c *ecs.Chunk)) *Pass {
	return b.chunks(name, q, fn, true)
}

func (b *Builder) chunks(name string, q Query, fn func(c *ecs.Chunk), inOrder bool) *Pass {
	call := "Chunks"
	if inOrder {
		call = "ChunksInOrder"
	}
	p := &Pass{label: b.s.name + "." + name, sys: b.s, inOrder: inOrder}
	if q == nil || fn == nil {
		b.nilArgument(p, call, name, q == nil, "q", "the query it runs over, made in Build with ecs.NewQueryN(b.Decl(), ...)")
		b.nilArgument(p, call, name, fn == nil, "fn", "the function that runs on each chunk")
		return p
	}
	qs := b.e.queryState(q)
	p.q = qs
	p.run, p.all = b.e.inside.Body(q, fn, inOrder, &p.rows)
	qs.passes = append(qs.passes, p)
	b.s.passes = append(b.s.passes, p)
	return p
}

// Range makes a pass that runs fn over item ranges [lo, hi), as jobs on
// any worker, many at once: for work on the system's own buffers, not on
// components. Each call may write only what belongs to its range.
func (b *Builder) Range(name string, fn func(lo, hi int)) *Pass {
	if fn == nil {
		return b.rangePass("Range", name, nil)
	}
	return b.rangePass("Range", name, func(_, lo, hi int) { fn(lo, hi) })
}

// RangeWorker is Range whose fn also gets the participant that runs the
// range (0 is the owner): pass it to the system's Markers and Counters,
// as a Chunks pass passes c.Worker().
func (b *Builder) RangeWorker(name string, fn func(worker, lo, hi int)) *Pass {
	return b.rangePass("RangeWorker", name, fn)
}

// rangePass makes the range pass of call (Range, RangeWorker).
// Executed only by the owner, in Build.
func (b *Builder) rangePass(call, name string, fn func(worker, lo, hi int)) *Pass {
	p := &Pass{label: b.s.name + "." + name, sys: b.s}
	if fn == nil {
		b.nilArgument(p, call, name, true, "fn", "the function that runs on each range")
		return p
	}
	p.run = b.e.inside.RangeBody(b.s.decl, fn)
	b.s.passes = append(b.s.passes, p)
	return p
}

// nilArgument fails the Build of b's system with WEFT-G001 if argument
// arg of call is nil (isNil), saying what to pass; the pass p it returns
// is refused by Frame.Run. Executed only by the owner, in Build.
func (b *Builder) nilArgument(p *Pass, call, name string, isNil bool, arg, what string) {
	if !isNil {
		return
	}
	p.bad = true
	b.s.buildErrs = append(b.s.buildErrs, errorf(ErrBadConfig, b.s.name, nil,
		"%s(%q) of system %q: %s is nil; pass %s", call, name, b.s.name, arg, what))
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
	// inOrder: one job runs every chunk, in chunk order (ChunksInOrder).
	inOrder bool
	// all runs every chunk in one job, as run does each (Engine.wholePass;
	// nil in order);
	// whole: it did this step (owner only).
	all   jobs.Func
	whole bool
	bad   bool // made with a nil argument: Build failed
	// A range pass's items and batch this step, for its jobs' item counts
	// (owner only).
	items, batch int

	// Chunk-wise chaining, decided at Build: group passes run one job per
	// chunk so that a chained pass's chunk k can wait for chunk k alone.
	group bool
	chain *Pass // the group pass this one may chain onto
}

// queryState is a query shared by passes: prepared once per step.
type queryState struct {
	q      Query
	desc   seam.Query // q as data, read at Build
	ran    uint64     // Engine.scratch.ran of the step that prepared it
	lens   []int32    // the rows of its chunks this step, from Prepare
	passes []*Pass
}

func (e *Engine) queryState(q Query) *queryState {
	for _, s := range e.sched.queries {
		if s.q == q {
			return s
		}
	}
	s := &queryState{q: q, desc: e.inside.Query(q)}
	e.sched.queries = append(e.sched.queries, s)
	return s
}
