package jobs

// Ctx is a running job's view of the pool. It is valid only inside the
// job's body, on the body's goroutine: keep no reference to it.
type Ctx struct {
	p   *Pool
	w   *participant
	cur *record
}

// Data is the job's Job.Data.
func (c *Ctx) Data() any { return c.cur.job.Data }

// Range is the job's Job.Lo and Job.Hi: for ParallelFor, its chunk's items.
func (c *Ctx) Range() (lo, hi int) { return c.cur.job.Lo, c.cur.job.Hi }

// Label is the job's label; for ParallelFor, Chunk is the chunk index.
func (c *Ctx) Label() Label { return c.cur.job.Label }

// Worker is the participant running the job: 0 for the owner, 1..W for workers.
func (c *Ctx) Worker() int { return c.w.id }

// Schedule is Pool.Schedule from inside a job: the new job goes on this
// participant's own deque, where thieves find it. Executed only by the
// job's goroutine, as every Ctx method.
func (c *Ctx) Schedule(j Job, deps ...Handle) (Handle, error) {
	return c.p.schedule(c.w, j, deps)
}

// ParallelFor is Pool.ParallelFor from inside a job.
func (c *Ctx) ParallelFor(j Job, n, batch int, deps ...Handle) (Handle, error) {
	return c.p.parallelFor(c.w, j, n, batch, deps)
}

// Wait runs other jobs until h has finished (fork-join) and returns h's
// error as Pool.Wait does. Waiting on the job itself, or on a job that
// needs it to finish first, returns an error with ErrWaitCycle at once; a
// wait that closes a loop through jobs other participants run (a child
// that a thief runs waits on its parent) is refused with it when it would
// park (see waitgraph.go).
func (c *Ctx) Wait(h Handle) error {
	r, err := c.p.lookup(h)
	if err != nil {
		return err
	}
	if err := c.p.help(c.w, h.idx, r); err != nil {
		return err
	}
	return c.p.result(r)
}

// Fork is a fork-join's usual shape, two children of which one moves:
// it schedules other where idle participants can take it (this
// participant's deque, as Schedule does), runs here at once on this
// goroutine, then helps until other has finished (as Wait does) and
// returns other's error. Only other is a job; here costs a function call,
// and a job that forks this way down a recursion leaves one stealable job
// per level instead of two. To fork n ways, nest Forks in here, or
// Schedule n-1 jobs and run the last inline. If other cannot be scheduled
// (a full arena, or here is nil), Fork returns that error and runs
// neither. If here panics, the panic ends this job (Failed) without
// waiting for other, which Reset still waits for. Executed only by the job's goroutine, as
// every Ctx method; here gets this same Ctx.
func (c *Ctx) Fork(other Job, here func(*Ctx)) error {
	if here == nil {
		return errorf(ErrBadArgument, other.Label, "Fork needs a func to run here; to fork only other, use Schedule and Wait")
	}
	h, err := c.Schedule(other)
	if err != nil {
		return err
	}
	here(c)
	return c.Wait(h)
}

// Handle is the running job's own handle. For a ParallelFor chunk it is the
// range job running the chunk, not the ParallelFor's join.
func (c *Ctx) Handle() Handle {
	return c.p.handle(c.w.stack[len(c.w.stack)-1])
}
