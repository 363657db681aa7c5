// Package ecs wraps an Ark world (github.com/mlange-42/ark, for its
// concurrency-safe queries and table-wise column access) so that systems
// declare their access, run chunk jobs over archetype tables and defer
// structural changes to a deterministic playback.
//
// At build time each system gets a [Decl] from [World.System] and declares
// its access once through tokens ([Read], [Write], [ReadRes], [WriteRes],
// [ReadLookup], [WriteLookup], [Emit], [ReadEvents], [ReadEnabled],
// [WriteEnabled], [ReadRelation], [WriteRelation]) and makes its queries
// ([NewQuery2] and the other arities) from them. A token is the only way
// to its data, and every call through one is checked against the system
// that runs the caller (seam.go). Each frame [World.BeginFrame] locks the
// world's structure, each query prepares its chunks (table, start, end) of
// at most a batch size, and a job sees only its chunk: its entities, the
// column slices its tokens declared and its own [Commands] buffer.
// [World.EndFrame] unlocks the world and plays the buffers back in
// (system, query, chunk, sequence) order, so the result never depends on
// timing; a spawn's placeholder becomes the real entity in every command
// and entity field that plays after it. Between frames the owner reads
// the world typed: [Get], [World.Entities], [World.Count], [World.Hash].
//
// Lookups, reductions, events, change filters ([Changed], [Added]),
// enableable components, relations, observers, snapshots, saves and
// digests build on this model: docs/ARCHITECTURE.md ("ecs: the world as
// chunks") has each, with the file that implements it.
package ecs
