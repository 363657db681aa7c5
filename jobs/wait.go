package jobs

// Waiting: helping until a job is done, parking, draining a frame, and
// refusing waits that could never end. help, drain, park and checkWait run
// on the goroutine that drives w (see loop.go); sleepUntil is a guest's. A
// waiter never misses a completion: it announces itself (eventCount.prepare
// or flagWatched) before its last check, and finish notifies after
// storing the outcome.

// help runs jobs on w until target is done, parking when there is nothing
// to run. It refuses waits that could never end: on w's own stack at once
// (checkWait), across participants when it would park (enterWait).
// Executed only by w's goroutine.
func (p *Pool) help(w *participant, idx uint32, target *record) error {
	defer p.settle(w) // the caller goes on with other things than jobs
	if err := p.checkWait(w, idx, target); err != nil {
		return err
	}
	defer w.endBusy(p)
	for !target.outcome().Done() {
		j, ok := p.find(w)
		if !ok && len(p.parts) > 1 {
			w.endBusy(p)
			w.beginIdle(p)
			j, ok = p.spinUntil(w, target)
		}
		if ok {
			w.beginBusy(p)
			p.run(w, j)
			continue
		}
		if target.outcome().Done() {
			break
		}
		if len(p.parts) == 1 && p.events.Load() == 0 {
			// Serial executor: nothing is ready, nobody else runs jobs,
			// and no event can be triggered to change that.
			return errorf(ErrWaitCycle, target.job.Label, "no job can run while waiting; a pipe job waits on a later job of its own pipe, or the job waits on work only this job could release")
		}
		j, ok, err := p.parkOn(w, idx, target)
		if err != nil {
			return err
		}
		if ok {
			w.beginBusy(p)
			p.run(w, j)
		}
	}
	w.endIdle(p) // the target finished while w was idle
	return nil
}

// parkOn parks w until target may be done (see park), unless the wait
// closes a loop through other participants' waits (see enterWait): w is
// in the wait-for graph while it parks. Executed only by w's goroutine.
func (p *Pool) parkOn(w *participant, idx uint32, target *record) (uint32, bool, error) {
	if len(p.parts) > 1 { // on the serial executor the graph is w alone
		if err := p.enterWait(w, idx, target); err != nil {
			return 0, false, err
		}
		defer p.leaveWait(w)
	}
	j, ok := p.park(w, func() bool { target.flags.Or(flagWatched); return target.outcome().Done() })
	return j, ok, nil
}

// sleepUntil parks a guest goroutine until target is done. Any goroutine may call it.
func (p *Pool) sleepUntil(target *record) {
	var sema chan struct{}
	for !target.outcome().Done() {
		if sema == nil {
			sema = make(chan struct{}, 1)
		}
		epoch := p.guests.prepare()
		target.flags.Or(flagWatched)
		if target.outcome().Done() {
			p.guests.cancel()
			return
		}
		p.guests.commit(sema, epoch)
	}
}

// idle reports whether no job is in flight: every job made in the arena
// (its reserved slots less those parts[0] reserved ahead and has not used,
// see participant.unused) is finished and published. Executed only by the driver of parts[0].
// Reading the done counts before the arena's count makes it conservative:
// a job is reserved before it can finish.
func (p *Pool) idle() bool {
	var done uint64
	for _, w := range p.parts {
		done += w.done.Load()
	}
	return done+p.parts[0].unused() == p.finishedFrames+uint64(p.jobs.next.Load())
}

// drain helps until no job is in flight, cancelling events never triggered
// (first, and whenever it would park: a job may make one meanwhile), which
// it reports as found by call (Reset or Close). Executed only by the driver
// of parts[0] (w) in Reset or Close.
func (p *Pool) drain(w *participant, call string) (err error) {
	p.draining.Store(true)
	defer p.draining.Store(false)
	defer w.endBusy(p)
	err = p.cancelEvents(w, call)
	for spins := 0; ; spins++ {
		if j, ok := p.find(w); ok { // while there is work the frame is not idle: no need to look
			w.beginBusy(p)
			p.run(w, j)
			spins = -1 // the spin budget counts idle rounds only
			continue
		}
		w.endBusy(p)
		p.publish(w)
		if p.idle() {
			return err
		}
		if spins < spinRounds { // workers publish as they run dry: usually soon
			p.relax()
			continue
		}
		if e := p.cancelEvents(w, call); err == nil {
			err = e
		}
		if j, ok := p.park(w, p.idle); ok {
			w.beginBusy(p)
			p.run(w, j)
		}
	}
}

// park puts w to sleep until a notify, unless, after it announced the sleep,
// done reports true or a job turns up: it returns that job, if any. done
// runs after the announcement, so a change it checks for that comes with a
// notify is never missed. Executed only by w's goroutine.
func (p *Pool) park(w *participant, done func() bool) (uint32, bool) {
	epoch := p.ec.prepare()
	if done() {
		p.ec.cancel()
		return 0, false
	}
	if j, ok := p.find(w); ok {
		p.ec.cancel()
		return j, true
	}
	p.publish(w)
	w.parks.Add(1)
	p.ec.commit(w.sema, epoch)
	return 0, false
}

// checkWait refuses a wait by w on target that could never end: on a job
// running on w's own stack, on one that (transitively) needs such a job, or
// on a not-yet-started job of a pipe that a job on the stack occupies.
// Executed only by w's goroutine; the answer is exact because every job on
// w.stack is unfinished and waits for this call to return.
func (p *Pool) checkWait(w *participant, idx uint32, target *record) error {
	state := target.outcome()
	if len(w.stack) == 0 || state.Done() {
		return nil
	}
	// Without an unfinished prerequisite the target cannot need a job of the
	// stack (all of them are unfinished): only then is the walk needed.
	deep := target.holds.Load() > 0
	if state == Pending && target.job.Pipe == nil && !deep {
		return nil // not started, so on no stack: the usual fork-join wait, with no loop over w.stack
	}
	if deep {
		clear(w.walker.seen)
	}
	for _, s := range w.stack {
		sr := p.jobs.at(s)
		if s == idx {
			return errorf(ErrWaitCycle, target.job.Label, "a job waits on itself; wait on other jobs only")
		}
		if target.job.Pipe != nil && sr.job.Pipe == target.job.Pipe && target.outcome() == Pending {
			return errorf(ErrWaitCycle, target.job.Label, "%s waits on a later job of its own pipe %q, which cannot start before it ends", sr.job.Label, target.job.Pipe.name)
		}
		if deep && p.reaches(w, s, idx) {
			return errorf(ErrWaitCycle, target.job.Label, "%s waits on a job that depends on it; wait only on jobs it does not precede", sr.job.Label)
		}
	}
	return nil
}

// reaches reports whether to is a transitive successor of from, w.walker
// marking what it visited (cleared by the caller). Executed only by w's
// goroutine. An edge added meanwhile belongs to a job scheduled after the
// wait began, which cannot be one the waiter needs.
func (p *Pool) reaches(w *participant, from, to uint32) bool {
	return w.walker.from(p, from, func(u uint32, _ *record) (bool, bool) { return u != from && u == to, false })
}

// walker is the scratch of walks over successor lists (see walker.from).
type walker struct {
	seen  map[uint32]struct{}
	stack []uint32
}

// from visits job start and, depth-first, every job after it through
// successor edges and ParallelFor joins, each once until seen is cleared.
// visit may end the walk (stop: from reports true) or skip what follows u
// (prune). Executed only by the goroutine that owns the walker. Successor
// lists may grow meanwhile: addEdge's CAS publishes an edge before its head
// can be read, so what is read is whole.
func (k *walker) from(p *Pool, start uint32, visit func(u uint32, r *record) (stop, prune bool)) bool {
	k.stack = append(k.stack[:0], start)
	for len(k.stack) > 0 {
		u := k.stack[len(k.stack)-1]
		k.stack = k.stack[:len(k.stack)-1]
		if _, ok := k.seen[u]; ok {
			continue
		}
		k.seen[u] = struct{}{}
		r := p.jobs.at(u)
		stop, prune := visit(u, r)
		if stop {
			return true
		}
		if prune {
			continue
		}
		if r.parent != 0 {
			k.stack = append(k.stack, r.parent-1)
		}
		for e := uint32(r.link.Load() >> 32); e != 0; {
			ed := p.edges.at(e - 1)
			k.stack = append(k.stack, ed.to)
			e = ed.next
		}
	}
	return false
}
