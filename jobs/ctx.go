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
// needs it to finish first, returns an error with CodeWaitCycle at once.
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

// Handle is the running job's own handle. For a ParallelFor chunk it is the
// range job running the chunk, not the ParallelFor's join.
func (c *Ctx) Handle() Handle {
	return c.p.handle(c.w.stack[len(c.w.stack)-1])
}
