// Package ecs wraps an Ark world so that systems declare their component access, run chunk jobs over archetype tables, and defer structural changes to a deterministic playback.
//
// At build time, on the owner goroutine, each system gets a [Decl] from
// [World.System], declares its access once through tokens ([Read],
// [Write], [ReadRes], [WriteRes], [ReadLookup], [WriteLookup]) and builds
// its queries ([NewQuery2] and the other arities) from them. Each frame the owner calls
// [World.BeginFrame], which locks the world against structural change,
// asks each query to [Query2.Prepare] its chunks (table, start, end) of at
// most a batch size, and schedules [Query2.Job] over the chunk indices
// (jobs.ParallelFor with batch 1, or one job per chunk with Label.Chunk
// set), or, for a pass too small to share out, JobAll as one job that
// runs every chunk in turn. A job sees only its chunk: its entities, the column slices of the
// declared components through the tokens, and its own [Commands] buffer.
// After every job has finished, [World.EndFrame] unlocks the world and
// plays the buffers back ordered by (system order, query, chunk, sequence),
// so the result never depends on timing. A spawn's placeholder becomes the
// real entity in every command and entity field that plays after it.
//
// Between frames the owner reads the world typed, without Ark: [Get],
// [World.Entities], [World.Count] and [World.Hash].
//
// A lookup reaches a component of any entity, from any job: a read
// lookup is a read of the component over the whole world. What chunks
// share is written only where no other job of the system runs: a
// resource through ResWriter.Get on the owner outside a frame, a
// resource or a write lookup from a job of a pass that runs as one job
// over every chunk (JobInOrder); sums go through a Reduction, one
// partial value per chunk, combined on the owner in chunk order.
//
// Systems also talk through events ([Emit], [ReadEvents]: per-chunk
// buffers, read as one slice by the readers; package engine orders readers
// after emitters and starts each step's streams), and a query can keep only
// the rows where a component changed ([Changed], [Added]: versions per
// block of 64 rows of a table, and per group of 64 blocks so that
// unchanged rows are skipped 4,096 at a time, marked where a job's
// writes through [Writer.Column] changed bytes, by commands and by
// structural moves).
//
// Observers (World.Observer, Observe) are called by playback, on the
// owner, when a command adds, sets or removes a component or despawns an
// entity that has one: in playback order, then registration order; what
// they record plays in the same playback, in bounded rounds (observe.go).
// An observer of an event type (ObserveEvent) is called once per event,
// at the playback that ends its writer's segment of the step, before
// that playback's commands, in the stream's order (observe_events.go).
//
// An entity can point at another under a relation kind ([ChildOf], or
// one declared with [NewRelation] and its despawn policy): a column,
// [Link], that only weft writes, read through [ReadRelation] and changed
// through [WriteRelation]'s commands; a despawned target takes its
// children with it or detaches them at playback (relation.go).
//
// Every token is one record of its system's Decl, and every call through
// a token is checked through one path against the system that runs the
// caller (seam.go): a token of another system is refused with
// CodeUndeclared, a zero token with CodeBadArgument.
//
// Between frames, [World.Snapshot] copies the whole state (tables,
// entity ids and generations with Ark's free list, resources, unread
// events, change versions) into a reusable [Snapshot], and
// [World.Restore] puts it back so that the next frames repeat bit for bit
// (snapshot.go; Ark's pool is reached in place, arkpool.go).
//
// Jobs touch Ark only to read through lookups: the owner takes every
// table's column slices while preparing chunks, and the guard query keeps
// them valid until EndFrame.
// So filters are queried only on the owner (Ark's first query of a filter
// is not concurrency-safe), World.IsLocked is never read while jobs run
// (it is unsynchronised), and at most two Ark queries are open at once,
// far below Ark's limit of 64.
//
// Storage is github.com/mlange-42/ark, the successor of arche by the same
// author, for its concurrency-safe queries and table-wise column access.
package ecs
