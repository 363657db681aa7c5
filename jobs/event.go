package jobs

// Events: gates without a body, as UE's FTaskEvent. An event is a record
// with one extra hold, the trigger's; Trigger, Cancel or Reset takes that
// hold exactly once (flagTriggered decides who), and the event then
// finishes like any job, releasing its dependents. Until then it occupies
// no queue and no worker.

// Event makes a gate: a job without a body that finishes once Trigger(h) is
// called, from any goroutine. Jobs scheduled after h wait for the trigger
// without occupying a worker. A Wait on h, or on a job after it, waits for
// the trigger too (on the serial executor the owner sleeps until another
// goroutine triggers). Reset and Close cancel the events of their frame
// that were never triggered and report it (ErrUntriggered). Any
// goroutine may call it.
func (p *Pool) Event(l Label) (Handle, error) {
	if p.closed.Load() {
		return Handle{}, errorf(ErrClosed, l, "the pool is closed; make events before Close")
	}
	j := Job{Label: l}
	idx, r, _, err := p.alloc(nil, &j, 0)
	if err != nil {
		return Handle{}, err
	}
	p.events.Add(1)
	r.flags.Or(flagEvent)
	// The builder hold becomes the trigger's: the job is ready once it goes.
	return p.handle(idx), nil
}

// Trigger finishes event h, releasing the jobs that wait for it: h is
// then ready like a job whose prerequisites are done, and ends Succeeded
// when the pool reaches it (at once on a worker; on the serial executor in
// the owner's next Wait or Reset), Outcome reading Pending until then. It
// refuses a handle that is not an Event (ErrBadArgument) and a second
// trigger, or a trigger after Cancel (ErrTriggered); a trigger after
// Reset finds a stale handle (ErrStaleHandle). Any goroutine may call it.
func (p *Pool) Trigger(h Handle) error {
	r, err := p.lookup(h)
	if err != nil {
		return err
	}
	if r.flags.Load()&flagEvent == 0 {
		return errorf(ErrBadArgument, r.job.Label, "%v is not an event; Trigger only a handle that Pool.Event returned", h)
	}
	w := p.acquire()
	defer p.release(w)
	if !p.claimTrigger(w, h.idx, r, false) {
		return errorf(ErrTriggered, r.job.Label, "the event was already triggered or cancelled; trigger each event once")
	}
	return nil
}

// claimTrigger takes event r's trigger hold if nobody has, cancelling the
// event first if asked, and releases it on behalf of w (nil for a guest).
// Any goroutine; the Or makes exactly one claimant win.
func (p *Pool) claimTrigger(w *participant, idx uint32, r *record, cancel bool) bool {
	if r.flags.Or(flagTriggered)&flagTriggered != 0 {
		return false
	}
	if cancel {
		r.link.Or(cancelBit) // still Pending: the trigger hold was held until now
	}
	p.events.Add(-1)
	p.releaseHold(w, idx)
	return true
}

// cancelEvents cancels every event of the frame that was never triggered,
// and says so in an error naming the first and call, the Pool method that
// found them (Reset or Close). Executed only by the owner in Reset or
// Close, as the driver of parts[0] (w), or nil while a guest drives it;
// it scans the arena only while events are open.
func (p *Pool) cancelEvents(w *participant, call string) error {
	if p.events.Load() == 0 {
		return nil
	}
	gen := p.epoch.Load()
	var first *record
	n := 0
	for i := range uint32(p.jobs.used()) {
		r := p.jobs.at(i)
		if r.gen.Load() != gen || r.flags.Load()&(flagEvent|flagTriggered) != flagEvent {
			continue
		}
		if p.claimTrigger(w, i, r, true) {
			if first == nil {
				first = r
			}
			n++
		}
	}
	if first == nil {
		return nil
	}
	return errorf(ErrUntriggered, first.job.Label, "%s found %d event(s) never triggered in this frame and cancelled them, and the jobs after them Blocked; trigger every event (or Cancel it) before %s", call, n, call)
}
