// Package jobs runs dependent jobs on a work-stealing pool of goroutines,
// one frame's graph at a time.
//
// # Who runs what
//
// A Pool has participants, each with its own deques of ready jobs:
//
//   - The owner is the goroutine that made the pool, parts[0]. It schedules
//     the frame, and helps in Wait, Reset and Close: it runs jobs there
//     instead of sleeping. With Options.Workers = 0 it is the only
//     participant, and the pool is the serial executor: every job runs in
//     the owner's Wait, in a repeatable order. That order is the oracle
//     every parallel run must match.
//   - Workers are W goroutines of the pool's own. Each runs a loop (loop.go):
//     pop from its own deques, take from the injection queue, steal from a
//     random victim (from a long deque, a batch: see stealMore); spin for
//     as long as its recent idle spells ask (learnIdle: 50 µs, up to 1 ms
//     when work keeps coming back soon after, as between steps run back
//     to back); park. A job body runs on one of them, or on the owner, and
//     sees the pool through its *Ctx: Ctx.Schedule pushes to that
//     participant's deque, Ctx.Wait helps until the job is done, and
//     Ctx.Fork is fork-join's usual shape: one child scheduled where
//     others may steal it, the other run inline, then the wait.
//   - Solo frames: when the owner's frames are shorter with its own jobs
//     run by itself alone (a worker descheduled by another process, or jobs
//     too small to move), workers leave the owner's jobs alone until a
//     probe finds the workers help again (adapt.go). The owner then runs
//     its jobs in its Wait and Reset, as the serial executor does; results
//     are the same either way.
//   - Guests are any other goroutines. Every Pool method is safe for them,
//     only slower: their jobs go through the injection queue, and their
//     Wait sleeps instead of helping. (A guest that finds the owner deque
//     free drives it for the length of one call; Pool.guard makes one
//     driver at a time.)
//
// Pool methods that wait for jobs (Wait, Reset, Close) are for goroutines
// outside jobs: inside a job Wait and Close are refused with WEFT-J011 (use
// Ctx.Wait) and Reset with WEFT-J009, because the job they would wait
// behind may be the caller itself.
//
// # A frame
//
// Schedule and ParallelFor reserve records in an arena; a job runs once all
// its prerequisites finished, and ends Succeeded, Failed (it panicked),
// Cancelled (Cancel came first) or Blocked (a prerequisite did not succeed).
// An Event is a job without a body that waits for Trigger, from any
// goroutine, and holds no worker meanwhile. Reset ends the frame: it drains
// what is in flight, then every Handle of the frame goes stale and the
// arena is reused, so a steady frame loop allocates nothing.
//
// # Where the contracts are
//
// schedule.go (any goroutine), loop.go (a participant's own goroutine),
// wait.go (helping, parking, draining), waitgraph.go (the waits parked,
// checked for loops across participants) and adapt.go (the owner in Reset)
// each state their caller once at the top; every function that touches shared state repeats who may call it
// and the ordering it relies on, as Go's runtime does.
package jobs
