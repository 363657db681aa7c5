// Package jobs runs one frame's graph of dependent jobs at a time on a
// work-stealing pool of goroutines.
//
// The owner, the goroutine that made the Pool, schedules the frame and
// helps in Wait, Reset and Close: it runs jobs there instead of sleeping.
// Workers, Options.Workers goroutines of the pool's own, pop their own
// deques, take from the injection queue, steal from a random victim, spin
// a while and park (loop.go). With no workers the pool is the serial
// executor: every job runs in the owner's Wait in a repeatable order, the
// oracle every parallel run must match. Any other goroutine is a guest:
// every Pool method is safe for it, only slower. A job sees the pool
// through its *Ctx: Ctx.Schedule pushes to its participant's deque,
// Ctx.Wait helps until the job is done, Ctx.Fork schedules one child where
// others may steal it and runs the other inline. Inside a job Wait and
// Close are refused (WEFT-J011) and so is Reset (WEFT-J009): the job they
// would wait behind may be the caller.
//
// A job runs once its prerequisites finished and ends Succeeded, Failed
// (it panicked), Cancelled or Blocked (a prerequisite did not succeed); an
// Event is a job without a body that Trigger finishes, from any goroutine.
// Reset ends the frame: every Handle of it goes stale and the arena is
// reused, so a steady frame loop allocates nothing. A frame whose graph is
// the same every frame can build it once as a Plan: Pool.Run schedules it
// whole, as Schedule would job by job, at the cost of a copy.
// docs/ARCHITECTURE.md ("jobs: the pool") has lazy splitting, solo frames,
// idle spinning and the wait-for graph. schedule.go, plan.go, loop.go,
// wait.go, waitgraph.go and adapt.go state their caller at the top, and
// every function that touches shared state who may call it and the
// ordering it relies on.
package jobs
