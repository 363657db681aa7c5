// Package glue is what package engine needs of package ecs and a user
// does not: a query's columns and whether two queries cut a frame into the
// same chunks (for chunk-wise chaining), and a system's rank in command
// playback. Only weft's own packages can import it. ecs hands these out
// only for a Seal, which no other module can make, so the methods that
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
}

// Decl is the inside of an ecs system declaration. Executed only by the
// owner, at build time.
type Decl interface {
	// SetOrder sets the system's rank in command playback: buffers of
	// lower ranks play first. The engine sets its built order.
	SetOrder(order int)
}
