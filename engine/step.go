package engine

import (
	"errors"
	"math"
	"slices"
	"time"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/jobs"
	"github.com/weft-engine/weft/safety"
)

// Step advances the simulation by dt of real time: it runs as many fixed
// steps as the accumulated time holds, at most Config.MaxSteps, drops the
// rest of a larger backlog, and returns the number of steps run. A step
// whose systems fail still counts: their errors are returned, joined,
// after every step ran, so a failing system cannot grow the backlog.
// A negative dt, or one so large that the accumulated time would overflow
// (about 292 years), is refused with WEFT-G001 and changes nothing.
func (e *Engine) Step(dt time.Duration) (int, error) {
	if !e.sched.built {
		return 0, errorf(ErrOrder, "", nil, "Step before Build; call Build once after adding the systems")
	}
	if dt < 0 || dt > math.MaxInt64-e.run.acc {
		return 0, errorf(ErrBadConfig, "", nil, "Step(%v): dt must be >= 0, and the time not yet simulated must stay below 292 years; pass the real time since the last Step", dt)
	}
	if err := e.enter("Step"); err != nil {
		return 0, err
	}
	defer e.busy.Store(false)
	e.run.acc += dt
	step := e.cfg.FixedStep
	n := 0
	var errs []error
	for e.run.acc >= step && n < e.cfg.MaxSteps {
		e.run.acc -= step
		n++
		if err := e.tick(); err != nil {
			errs = append(errs, err)
		}
	}
	if e.run.acc >= step {
		d := e.run.acc / step
		e.run.acc -= d * step
		e.out.rec.dropped += uint64(d)
	}
	e.res.time.Alpha = float64(e.run.acc) / float64(step)
	return n, errors.Join(errs...)
}

// Tick runs exactly one fixed step: evaluate the run conditions, schedule
// every enabled system whose conditions hold in built order, wait for the jobs, play the commands back, merge, publish the
// snapshot and publish the step's record. A failing system does not stop the
// others; the errors are returned, joined, after the step completed.
// Executed only by the owner, between steps: a Tick from inside a step
// or beside another is refused with WEFT-G007.
func (e *Engine) Tick() error {
	if !e.sched.built {
		return errorf(ErrOrder, "", nil, "Step before Build; call Build once after adding the systems")
	}
	if err := e.enter("Tick"); err != nil {
		return err
	}
	defer e.busy.Store(false)
	return e.tick()
}

// tick is Tick, for a caller that holds busy.
func (e *Engine) tick() (err error) {
	rec := &e.out.rec
	start := rec.now()
	if err := e.applySettings(); err != nil {
		return err
	}
	if e.hook != nil { // a step that starts is told of, before and after
		e.hook.BeforeStep(e)
		defer func() { e.hook.AfterStep(e, err) }()
	}
	rec.begin(e, start)
	e.scratch.errs = e.scratch.errs[:0]
	e.out.problems = e.out.problems[:0]
	e.startEvents()
	e.scratch.ran++
	t := e.res.time
	t.Step++
	t.Elapsed = float64(t.Step) * t.DT
	e.scratch.frame.snap = e.out.snaps.begin(t.Step, t.Elapsed, *e.res.camera)
	at := rec.now()
	e.applyStates() // state transitions: before any condition (state.go)
	e.decide()
	rec.phase(PhaseConditions, -1, at)
	for seg := 0; seg < e.sched.nseg; seg++ {
		e.runSegment(seg)
	}
	at = rec.now()
	e.out.snaps.publish()
	at = rec.phase(PhaseSnapshot, -1, at)
	if err := e.run.pool.Reset(); err != nil {
		e.fail(errorf(ErrJob, "", err, "resetting the pool after step %d", t.Step))
	}
	e.run.tr.Reset()
	e.takeDigests()
	e.keepStep()
	rec.phase(PhaseRecord, -1, at)
	rec.end(e)
	if e.want.batch == 0 {
		e.tuneBatch()
	}
	if len(e.scratch.errs) > 0 {
		return errors.Join(e.scratch.errs...)
	}
	return nil
}

// tuneBatch feeds the adaptive batch size the step's cost: its chunk
// jobs' time and rows, and the rows of the largest pass. Executed only by
// the owner, after a step.
func (e *Engine) tuneBatch() {
	c := &e.out.rec.cost
	e.tune.observe(c.work, c.rows, int(c.most), e.cur.workers+1)
}

// fail records one failure of the step. Executed only by the owner.
func (e *Engine) fail(err error) { e.scratch.errs = append(e.scratch.errs, err) }

// applySettings brings the settings asked for into force between steps: a
// new worker count makes a new pool (and tracker), and so does a step on
// another goroutine than the pool's owner (only that goroutine may Reset
// the pool and ask which jobs it saw finish). Executed only by the owner,
// before a step.
func (e *Engine) applySettings() error {
	if e.want.workers != e.cur.workers || e.run.pool == nil || !e.run.pool.IsOwner() {
		if e.run.pool != nil {
			e.run.pool.Close()
		}
		p, err := jobs.New(jobs.Options{Workers: e.want.workers, TraceCapacity: e.run.traceCap})
		if err != nil {
			return errorf(ErrBadConfig, "", err, "making a pool of %d workers", e.want.workers)
		}
		p.SetTracing(true)
		e.run.pool, e.cur.workers = p, e.want.workers
		e.run.tr = safety.NewTracker(p, e.world.Registry(), safety.Options{})
		e.cur.checks = !e.want.checks // force the flags below
		e.out.rec.resetWorkers(p)
	}
	if e.want.checks != e.cur.checks {
		e.run.tr.SetChecks(e.want.checks)
		if err := e.world.SetChecks(e.want.checks); err != nil {
			return errorf(ErrOrder, "", err, "switching checks")
		}
		e.cur.checks = e.want.checks
	}
	e.cur.batch = e.want.batch
	if e.cur.batch == 0 {
		e.cur.batch = e.tune.next()
	}
	return nil
}

// runSegment runs one segment of the step, the part between exclusive
// systems: the exclusives that start it, then its systems' jobs, the
// command playback, the merges, and the trace. Executed only by the owner.
func (e *Engine) runSegment(seg int) {
	e.runExclusives(seg)
	if err := e.inside.BeginFrame(seg, e.run.pool.Workers()+1); err != nil {
		e.fail(errorf(ErrOrder, "", err, "a frame was left open; do not call World.BeginFrame yourself"))
		return
	}
	e.scheduleSystems(seg)
	e.waitJobs()
	e.playBack(seg)
	e.mergeSystems(seg)
	e.readTrace()
}

// runExclusives runs the segment's exclusive systems, on the owner, with
// no job in flight.
func (e *Engine) runExclusives(seg int) {
	for _, x := range e.sched.excl {
		if x.seg != seg {
			continue
		}
		x.xsum, x.xrows = 0, nil
		if x.disabled || x.skip {
			continue
		}
		at := e.out.rec.now()
		if err := callRun(x.excl, e.world, *e.res.time); err != nil {
			x.fail(err.Error())
			e.fail(errorf(ErrMerge, x.name, err, "exclusive system %q failed in step %d", x.name, e.res.time.Step))
		}
		e.out.rec.phase(PhaseExclusive, int32(x.slot), at)
		e.digestExclusive(x)
	}
}

// scheduleSystems calls the Schedule of the segment's systems in built
// order and gathers their done handles. Executed only by the owner, in an
// open frame.
func (e *Engine) scheduleSystems(seg int) {
	e.scratch.hs = e.scratch.hs[:0]
	for _, en := range e.sched.par {
		if en.seg == seg {
			e.scheduleSystem(en)
			if en.done != (jobs.Handle{}) {
				e.scratch.hs = append(e.scratch.hs, en.done)
			}
		}
	}
}

// waitJobs waits, helping, until every job of the segment has finished.
// Its failures are reported after playback (reportJobs), system by
// system. Executed only by the owner.
func (e *Engine) waitJobs() {
	at := e.out.rec.now()
	if hs := e.scratch.hs; len(hs) > 0 {
		all, err := e.run.pool.Combine(hs...)
		if err == nil {
			_ = e.run.pool.Wait(all) // a failure: reportJobs finds each
		} else {
			e.fail(errorf(ErrJob, "", err, "combining the jobs of step %d", e.res.time.Step))
		}
	}
	e.out.rec.phase(PhaseWait, -1, at)
}

// unreported is the misuses that no error of the step holds yet: a
// Schedule that the world refused panics with the refusal, which
// EndFrame reports too, by the same text; the step reports it once, as
// the Schedule's failure. Executed only by the owner, in playBack.
func (e *Engine) unreported(misuse error) []error {
	var held []string
	for _, err := range e.scratch.errs {
		walkErrors(err, func(x error) {
			if ee, ok := x.(*ecs.Error); ok {
				held = append(held, ee.Error())
			}
		})
	}
	return slices.DeleteFunc(flatten(misuse), func(m error) bool { return slices.Contains(held, m.Error()) })
}

// walkErrors calls fn on err and on every error it wraps.
func walkErrors(err error, fn func(error)) {
	if err == nil {
		return
	}
	fn(err)
	switch u := err.(type) {
	case interface{ Unwrap() error }:
		walkErrors(u.Unwrap(), fn)
	case interface{ Unwrap() []error }:
		for _, x := range u.Unwrap() {
			walkErrors(x, fn)
		}
	}
}

// playBack closes the frame: the world calls the observers of the
// segment's events and plays the jobs' commands back; then the
// segment's failures are reported. Executed only by the owner,
// after waitJobs.
func (e *Engine) playBack(seg int) {
	at := e.out.rec.now()
	rep, err := e.world.EndFrame()
	e.out.rec.phase(PhasePlayback, -1, at)
	e.reportJobs(seg, e.unreported(err))
	if rep != nil {
		e.out.rec.cur.Commands += rep.Applied
		e.out.rec.cur.Observed += rep.Observed
		e.out.rec.cur.Problems += len(rep.Problems)
		e.out.problems = append(e.out.problems, rep.Problems...)
		e.reportObservers(rep)
		if err := rep.Unresolved(); err != nil { // a bug in the systems, unlike a skipped command
			var ee *ecs.Error
			errors.As(err, &ee)
			e.fail(errorf(ErrJob, ee.System, err, "system %q: commands stored an entity that playback could not resolve in step %d", ee.System, e.res.time.Step))
		}
	}
}

// mergeSystems calls Merge of the segment's systems whose Schedule
// succeeded and whose jobs all succeeded, in built order. Executed only by
// the owner, after playBack.
func (e *Engine) mergeSystems(seg int) {
	f := &e.scratch.frame
	for _, en := range e.sched.par {
		if en.seg != seg {
			continue
		}
		e.mergeSystem(f, en)
		if e.dig.mode != ecs.DigestOff && !en.disabled && !en.skip {
			e.inside.DigestMerged(en.decl) // its resources as its Merge left them
		}
	}
}

// mergeSystem calls en's Merge if its Schedule and jobs succeeded.
// Executed only by the owner, in mergeSystems.
func (e *Engine) mergeSystem(f *Frame, en *entry) {
	if en.merger == nil || !en.merge {
		return
	}
	if o, err := e.run.pool.Outcome(en.done); en.started && (err != nil || o != jobs.Succeeded) {
		return // its jobs failed: their outputs are not whole
	}
	at := e.out.rec.now()
	f.cur = en
	if err := callMerge(en.merger, f); err != nil {
		en.fail(err.Error())
		e.fail(errorf(ErrMerge, en.name, err, "system %q: Merge failed in step %d", en.name, e.res.time.Step))
	}
	f.cur = nil
	e.out.rec.phase(PhaseMerge, int32(en.slot), at)
}

// readTrace adds the segment's trace to the step's record; a trace that
// lost events makes the next pool's larger.
// Executed only by the owner, after waitJobs.
func (e *Engine) readTrace() {
	at := e.out.rec.now()
	var lost uint64
	e.scratch.events, lost = e.run.pool.ReadTrace(e.scratch.events[:0])
	if lost > 0 {
		e.run.traceCap *= 2
		e.cur.workers = -1 // a new pool with more room next step
	}
	e.out.rec.segment(e, e.scratch.events, lost)
	e.out.rec.phase(PhaseRecord, -1, at)
}

// scheduleSystem calls a system's Schedule and records its done handle. A
// system that starts no pass (disabled, skipped by a run condition,
// failed) stands for its predecessors, so order through it still holds. Executed only by the
// owner, in an open frame.
func (e *Engine) scheduleSystem(en *entry) {
	en.started, en.last, en.lastPass, en.lastGrouped, en.merge = false, jobs.Handle{}, nil, false, false
	s := &e.scratch
	s.deps = s.deps[:0]
	for _, p := range en.preds {
		if d := e.sched.par[p].done; d != (jobs.Handle{}) && e.sched.par[p].seg == en.seg {
			s.deps = append(s.deps, d)
		}
	}
	if !en.disabled && !en.skip {
		at := e.out.rec.now()
		s.frame.cur = en
		err := callSchedule(en.sys, &s.frame)
		s.frame.cur = nil
		e.out.rec.phase(PhaseSchedule, int32(en.slot), at)
		en.merge = err == nil
		if err != nil {
			en.fail(err.Error())
			e.fail(errorf(ErrScheduleRun, en.name, err, "system %q: Schedule failed in step %d; its jobs so far still run", en.name, e.res.time.Step))
		}
	}
	if en.started {
		en.done = en.last
		return
	}
	switch len(s.deps) {
	case 0:
		en.done = jobs.Handle{}
	case 1:
		en.done = s.deps[0]
	default:
		h, err := e.run.tr.Combine(s.deps...)
		if err != nil {
			e.fail(errorf(ErrScheduleRun, en.name, err, "combining the predecessors of %q", en.name))
		}
		en.done = h
	}
}
