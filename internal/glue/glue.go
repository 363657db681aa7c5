// Package glue is what package engine needs of package ecs and a user
// does not: a query's columns and whether two queries cut a frame into the
// same chunks (for chunk-wise chaining), a system's rank in command
// playback and its declared uses (every token, through one record). Only weft's own
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
	// SetSegment sets the segment of the step (the part between
	// exclusive systems) that the system runs in: its events are
	// observed at the playback that ends it.
	SetSegment(seg int)
	// Observes is what an observer observes, one "Trigger Type" each
	// ("OnDespawn Hull", "OnEvent Shot"), in declaration order; nil for
	// a system. For Explain.
	Observes() []string
	// Uses appends to dst the system's declared uses, one per token, in
	// declaration order: the one record that every kind of token writes
	// (ecs's access seam), which the engine reads for ordering, chaining
	// and Explain.
	Uses(dst []Use) []Use
	// TakeDigest returns what the system's chunk jobs wrote since the
	// last call: their digest and, under ecs.DigestCapture, the rows
	// (an []ecs.Written: glue cannot import ecs). Executed between
	// frames.
	TakeDigest() (uint64, any)
	// DigestMerged adds the resources the system declares written, as
	// they are after its Merge, to its digest. Executed between frames,
	// after the system's Merge.
	DigestMerged()
}

// Use is one declared token as the engine sees it: what it reaches and
// how, whatever its kind.
type Use struct {
	Key  safety.Key // the component, resource or event stream (none for Buffers)
	Mode safety.Mode
	// Reach is where the token reaches: it decides how the engine orders
	// and chains the system.
	Reach Reach
}

// Reach is where a token reaches, in the terms that order systems.
type Reach uint8

// The reaches. A new kind of token picks the one that describes it.
const (
	// Rows: the rows of the job's own chunk (a column). Two passes that
	// conflict only on such keys may chain chunk by chunk.
	Rows Reach = iota
	// AnyRow: the key in any entity (a lookup): never chained on.
	AnyRow
	// Whole: one value for the world (a resource).
	Whole
	// Emits: an event stream the system writes; its readers run after it.
	Emits
	// Reads: an event stream the system reads.
	Reads
	// Buffers: the system's own command buffers (no key).
	Buffers
)

// World is the inside of an ecs world. Executed only by the owner.
type World interface {
	// StartStep starts a step, between steps with no job in flight: the
	// event streams move the current step's events to the previous part.
	StartStep()
	// EndSegment says that the frame that ends next (EndFrame) ends
	// segment seg of the step: its playback calls the event observers on
	// the events of the systems of the segments up to seg.
	EndSegment(seg int)
	// SetOwner tells the world about the goroutine that drives its
	// frames, for the calls that only the owner may make, or that must
	// wait for earlier jobs when the owner makes them.
	SetOwner(o Owner)
	// SetDigests sets what chunk jobs keep of their writes (an
	// ecs.DigestMode), from the next frame on. Executed between frames.
	SetDigests(mode uint8) error
	// DigestAll is a digest of the whole world (every entity, component
	// and resource), an exclusive system's, and under ecs.DigestCapture
	// its rows (an []ecs.Written). Executed between frames.
	DigestAll() (uint64, any)
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
	// Running is the *ecs.Decl of the system whose code the calling
	// goroutine runs: on a participant running one of the system's
	// pass jobs, that system; on the owner in a system's Schedule or
	// Merge, that system; nil otherwise (the owner outside a step, an
	// exclusive system, a goroutine that runs no job). Reliable in
	// checked mode, where the engine records what each participant
	// runs. Called by any goroutine.
	Running() any
	// Deciding reports whether the owner is evaluating the step's run
	// conditions, before any system of the step runs. Called by any
	// goroutine; it changes only while no job runs.
	Deciding() bool
}
