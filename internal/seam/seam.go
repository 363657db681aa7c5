// Package seam is where package engine meets package ecs, and nothing a
// user calls. At Build the engine reads each system's declaration and each
// query once, as plain data (System, Query); each step the two meet
// through World, whose methods fit on one screen, and ecs asks the engine
// about the goroutine it runs on through Owner. ecs implements World with
// unexported types and registers it at init (Register), so its exported
// types carry none of this. Only weft's own packages can import it.
//
// The type parameters are ecs's own types, which this package cannot
// import: D is *ecs.Decl, Q ecs.AnyQuery, C *ecs.Chunk, R ecs.Written.
package seam

import (
	"reflect"
	"sync/atomic"

	"github.com/weft-engine/weft/jobs"
	"github.com/weft-engine/weft/safety"
)

// System is a system's (or an observer's) declaration as the engine
// reads it once, after the system's Build.
type System struct {
	Uses     []Use         // every token, in declaration order
	Decls    []safety.Decl // for safety.Check
	Access   safety.Access // their union, for the tracker
	Observes []string      // an observer's "Trigger Type", in order; nil for a system
}

// Query is a query as the engine reads it once, at Build.
type Query struct {
	ID      int          // its index in the world, for Prepare and Aligned
	Columns []safety.Key // the components its chunks give views of
	Watched []safety.Key // the components its change filters watch
}

// Use is one declared token: what it reaches and how, whatever its kind.
type Use struct {
	Key   safety.Key // the component, resource or event stream (none for Buffers)
	Mode  safety.Mode
	Reach Reach // decides how the engine orders and chains the system
}

// Reach is where a token reaches, in the terms that order systems.
type Reach uint8

// The reaches. A new kind of token picks the one that describes it.
const (
	Rows    Reach = iota // the rows of the job's own chunk (a column): may chain chunk by chunk
	AnyRow               // the key in any entity (a lookup): never chained on
	Whole                // one value for the world (a resource)
	Emits                // an event stream the system writes; its readers run after it
	Reads                // an event stream the system reads
	Buffers              // the system's own command buffers (no key)
)

// World is ecs's side of the seam for one world. Executed only by the
// owner, between frames unless it says otherwise.
type World[D, Q, C, R any] interface {
	// Build: read each system and query once, place each system.
	SetOwner(o Owner[D])
	System(d D) System
	Query(q Q) Query
	// Body is the body of a chunk pass over q that runs fn: each runs
	// chunk ctx.Label().Chunk, all (inOrder: run as the only job of its
	// pass) every chunk in order. rows counts the rows of chunks run.
	Body(q Q, fn func(c C), inOrder bool, rows *atomic.Int64) (each, all jobs.Func)
	// RangeBody is the body of d's range pass that runs fn.
	RangeBody(d D, fn func(worker, lo, hi int)) jobs.Func
	Place(d D, order, segment int) // rank in playback, segment of the step

	// Each step.
	StartStep()                                 // event streams start the step
	BeginFrame(segment, participants int) error // the frame of a segment
	Prepare(query, batch int) ([]int32, error)  // chunks' rows, inside the frame
	Aligned(a, b int) bool                      // same chunks: may chain
	SetDigests(mode uint8) error                // from the next frame on
	TakeDigest(d D) (uint64, []R)               // what d's jobs wrote
	DigestMerged(d D)                           // d's written resources, after Merge
	DigestAll() (uint64, []R)                   // the whole world: an exclusive's
	Components() []reflect.Type                 // every component type, Ark's included
}

// Owner is the engine's side of a world's frames: what ecs asks about the
// calling goroutine. Called by any goroutine during a frame.
type Owner[D any] interface {
	InJob() bool      // it runs one of the frame's jobs
	Participant() int // its index among the pool's participants, -1 if none
	Running() D       // on the owner in Schedule or Merge, that system's; else zero
	Settle()          // the owner in Schedule: wait for the system's predecessors
	Deciding() bool   // the owner evaluates run conditions
}

// ecs is the function that ecs registered: a func(*ecs.World) World[...].
var ecs any

// Register sets ecs's side of the seam. Executed only by ecs's init.
func Register[W, D, Q, C, R any](open func(w W) World[D, Q, C, R]) { ecs = open }

// Open is world w's side of the seam; the type parameters are ecs's
// types, as in World. Executed only by the owner, in engine.New.
func Open[W, D, Q, C, R any](w W) World[D, Q, C, R] {
	return ecs.(func(W) World[D, Q, C, R])(w)
}
