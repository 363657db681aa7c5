// Package glue is what package engine needs of package ecs and a user
// does not: a query's columns and whether two queries cut a frame into the
// same chunks (for chunk-wise chaining), a system's rank in command
// playback and the components it reaches through lookups. Only weft's own
// packages can import it. ecs hands these out only for a Seal, which no other module can make, so the methods that
// take one are weft's inside, not its API, and engine.Query, which needs
// one, is sealed to ecs's queries.
package glue

import "github.com/weft-engine/weft/safety"

// Seal is the argument of ecs's Glue methods; only code that can import
// this package can write Seal{}.
type Seal struct{}

// Query is the inside of an ecs query. Executed only by the owner.
type Query interface {
	// Columns appends to dst the keys of the query's columns, the
	// components its chunks give views of.
	Columns(dst []safety.Key) []safety.Key
	// Aligned reports whether both queries, prepared this frame, cut it
	// into the same chunks: chunk by chunk, the same rows of the same
	// tables. other may be any Query; one of another kind is not aligned.
	Aligned(other Query) bool
	// Watches reports whether the query has change filters (Changed,
	// Added): its Prepare reads change versions, so the writers before
	// it must have finished.
	Watches() bool
	// Watched appends to dst the keys of the components that its change
	// filters watch: only the writers of those must have finished.
	Watched(dst []safety.Key) []safety.Key
}

// Decl is the inside of an ecs system declaration. Executed only by the
// owner, at build time.
type Decl interface {
	// SetOrder sets the system's rank in command playback: buffers of
	// lower ranks play first. The engine sets its built order.
	SetOrder(order int)
	// Lookups appends to dst the components the system declared
	// through lookups: it reaches them in any row, so its passes cannot
	// chain chunk-wise on them.
	Lookups(dst []safety.Key) []safety.Key
	// Events are the keys of the event streams the system emits and
	// reads, for ordering readers after writers.
	Events() (emits, reads []safety.Key)
	// TakeDigest returns what the system's chunk jobs wrote since the
	// last call: their digest and, under ecs.DigestCapture, the rows
	// (an []ecs.Written: glue cannot import ecs). Executed between
	// frames.
	TakeDigest() (uint64, any)
}

// World is the inside of an ecs world. Executed only by the owner.
type World interface {
	// StartStep starts a step, between steps with no job in flight: the
	// event streams move the current step's events to the previous part.
	StartStep()
	// SetOwner tells the world about the goroutine that drives its
	// frames, for the calls that only the owner may make, or that must
	// wait for earlier jobs when the owner makes them.
	SetOwner(o Owner)
	// SetDigests sets what chunk jobs keep of their writes (an
	// ecs.DigestMode), from the next frame on. Executed between frames.
	SetDigests(mode uint8) error
}

// Owner is the engine's side of a world's frames. Its methods are called
// by any goroutine during a frame.
type Owner interface {
	// InJob reports whether the caller is running one of the frame's
	// jobs (on a worker, or on the owner while it waits and helps).
	InJob() bool
	// Settle waits, helping, until the predecessors of the system whose
	// Schedule is running have finished; outside a Schedule it does
	// nothing. Executed only by the owner.
	Settle()
	// Current is the *ecs.Decl of the system whose Schedule or Merge the
	// owner is running, or nil. Executed only by the owner.
	Current() any
	// Deciding reports whether the owner is evaluating the step's run
	// conditions, before any system of the step runs. Called by any
	// goroutine; it changes only while no job runs.
	Deciding() bool
}
