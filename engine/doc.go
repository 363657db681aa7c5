// Package engine builds systems into a validated schedule, runs each fixed
// step as one job graph, and publishes a render snapshot and the step's
// record (StepRecord: plain data that the profile package summarises).
//
// # Owner, workers, guests
//
// One goroutine is the owner: the one that calls New, Add, Build and Step
// (in the demo, Ebiten's Update and Draw goroutine). Every Engine method,
// and every System, Merger and Exclusive method, is executed only by the
// owner. The pool adds worker goroutines; they run jobs only: the bodies
// of passes (Builder.Chunks, Builder.Range), each on its own chunk or
// range, or Builder.ChunksInOrder, one job over every chunk. The owner runs jobs too, while it waits for a segment's jobs.
// Any other goroutine is a guest: it may read what the owner hands it
// once the owner is done with it, but it calls no Engine method and must
// not read the Snapshot while the owner steps.
//
// # A step
//
// Step runs whole fixed steps (Tick) from the real time it is given. A
// step first applies the states' requested transitions (AddState: their
// OnExit, OnTransition and OnEnter systems run on the owner, and the
// entities scoped to the state left are despawned), then evaluates every run condition (RunIf, EveryN, WhileRes, of
// systems and sets), once, on the owner; a system whose conditions do not
// hold sits the step out and stands for its predecessors in the job
// graph. A step is cut into segments by exclusive systems. Each segment:
//
//  1. runs its exclusive systems on the owner, the world unlocked;
//  2. opens the world's frame (ecs.World.BeginFrame): from here until
//     playback, the world's structure cannot change, so column slices
//     stay valid while jobs use them;
//  3. calls each system's Schedule in built order; Frame.Run turns a pass
//     into jobs after the jobs its declared access must wait for (a query
//     with a change filter, ecs.Changed or ecs.Added, first waits for the
//     systems before it that write a watched component, so that the
//     versions it reads are final); a pass whose chunks hold at most a
//     batch of rows in all runs as one job;
//  4. waits for every job, the owner helping;
//  5. closes the frame: commands play back in (system, query, chunk,
//     sequence) order, a system's own buffers (ecs.Decl.Commands) before
//     its chunks'; a buffer filled in Merge plays with the next step's;
//     observers (AddObserver) are called as each command applies, in
//     that order and then the order they were added, and their own
//     commands play in the same playback;
//  6. calls Merge of each system whose jobs all succeeded, in built
//     order: per-chunk outputs meet here, and the snapshot is built.
//
// Before the first segment, every event stream starts its step (ecs.Emit,
// ecs.ReadEvents): the build ordered each reader after the emitters of its
// stage and the stages before it, so it reads their events of this step,
// and the events of the emitters after it from the step before.
//
// Then the snapshot is published and the step's record handed to the
// observers (Engine.Observe): the owner's phases with their start and end,
// the job trace, the systems' outcomes, markers, counters and GC pauses,
// on one clock. The engine does not summarise them; the profile package
// does. Because jobs
// touch only their own chunk and outputs, and everything that meets does
// so on the owner in a fixed order, a step's result is the same for every
// worker count and batch size.
//
// # Rewind, save, load
//
// SetRewind keeps snapshots of the world (ecs.Snapshot) at the start of
// steps, and Rewind(n) puts the world back at least n steps; Restore,
// Save and Load do the same with a snapshot or a file the game keeps.
// Since a step depends only on the world and on what the game sets
// before it, the same inputs then give the same steps again.
//
// # Digests and the step hook
//
// With SetDigests on, every chunk job adds a mix of each row it wrote to
// its system's digest (Digests, in built order), a sum that is the same
// for every worker count and batch size; the first system whose digest
// differs between two runs of the same inputs is the first whose writes
// differ. A StepHook (SetStepHook) is told of every fixed step, before and
// after, on the owner. Package replay records and replays steps with
// both.
//
// # Failure
//
// Misuse is answered with an *Error whose code (WEFT-G…) is listed in
// docs/errors.md. A system that fails, by returning an error or by
// panicking in Build, Schedule, Merge or Run, fails only its part: the
// step completes, the frame is closed, and the next step runs normally.
// A step reports every failing system, each once and by name
// (Error.System), joined in the order the step met them (segment by
// segment: exclusives, Schedules, jobs, playback, Merges, each in built
// order); a job failure also names the systems that it kept from running
// (Error.Skipped). An observer that fails in playback is reported the same
// way (WEFT-G010 naming it, its ecs error as the cause).
package engine
