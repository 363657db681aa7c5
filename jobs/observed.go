package jobs

// Observed reports whether the owner has seen h finish in this frame: it
// returned from Pool.Wait on h, or on a job that needs h (through
// dependencies, Combine or a ParallelFor's join). A job can be done without
// being observed: a worker finished it, and nothing the owner did depended
// on that. safety.Tracker counts a job as in flight until it is observed, as
// Unity counts a job until its handle is completed, so that its answers do
// not depend on how fast the workers were. Executed only by the owner,
// outside of jobs: from another goroutine, or inside a job, it is refused
// with ErrBusy.
func (p *Pool) Observed(h Handle) (bool, error) {
	if g := goroutine(); g != p.owner || p.driver.Load() == g {
		return false, errorf(ErrBusy, Label{}, "Observed called from a goroutine other than the pool's owner, or inside a job; ask it from the goroutine that made the pool, outside of jobs")
	}
	r, err := p.lookup(h)
	if err != nil {
		return false, err
	}
	if !r.outcome().Done() {
		return false, nil
	}
	return p.waitedAfter(h.idx), nil
}

// waitedAfter walks forward from job from, through successor lists (which
// keep every dependent, even those added after a job finished) and joins,
// looking for a job the owner waited on. It passes only finished jobs: a
// job after an unfinished one is unfinished, so it was not waited on.
// Executed only by the owner, whose scratch p.observer is.
func (p *Pool) waitedAfter(from uint32) bool {
	clear(p.observer.seen)
	return p.observer.from(p, from, func(_ uint32, r *record) (bool, bool) {
		if !r.outcome().Done() {
			return false, true
		}
		return r.flags.Load()&flagWaited != 0, false
	})
}
