package engine

import (
	"github.com/weft-engine/weft/jobs"
	"github.com/weft-engine/weft/safety"
)

// Frame is a system's view of the step, in Schedule and Merge, and a run
// condition's (RunIf), which may read it but starts nothing.
type Frame struct {
	e        *Engine
	cur      *entry // the system whose Schedule or Merge runs
	snap     *Snapshot
	deciding bool // the run conditions are being evaluated (decide)
}

// Time is the step's clock.
func (f *Frame) Time() Time { return *f.e.res.time }

// Batch is the rows per chunk of this step.
func (f *Frame) Batch() int { return f.e.cur.batch }

// Participants is the number of goroutines that run this step's jobs: the
// workers and the owner. ecs.Chunk.Worker is below it, so a system can
// keep per-worker scratch space.
func (f *Frame) Participants() int { return f.e.run.pool.Workers() + 1 }

// Snapshot is the render snapshot being built: append draw items to it in
// Merge. It is published when the step ends.
func (f *Frame) Snapshot() *Snapshot { return f.snap }

// Prepare cuts p's query into this step's chunks, once per step, and
// returns their number, so that Schedule can size per-chunk outputs before
// Run. Executed only by the owner, in Schedule.
func (f *Frame) Prepare(p *Pass) (int, error) {
	if err := f.pass("Prepare", p); err != nil {
		return 0, err
	}
	if p.q == nil {
		return 0, errorf(ErrScheduleRun, p.sys.name, nil, "Prepare(%s): a Range pass has no query; use RunRange", p.label)
	}
	qs := p.q
	if ran := f.e.scratch.ran; qs.ran != ran { // once per step: a step number repeats after a rewind
		if len(qs.desc.Watched) > 0 {
			f.settleWriters()
		}
		lens, err := f.e.inside.Prepare(qs.desc.ID, f.e.cur.batch)
		if err != nil {
			return 0, err
		}
		qs.lens, qs.ran = lens, ran
		for _, o := range qs.passes {
			o.rows.Store(0)
		}
	}
	return len(qs.lens), nil
}

// Run starts chunk pass p: one job per chunk of its query, after the
// system's predecessors and its previous pass. Executed only by the owner,
// in the Schedule of p's system.
func (f *Frame) Run(p *Pass) error {
	if err := f.pass("Run", p); err != nil {
		return err
	}
	n, err := f.Prepare(p)
	if err != nil {
		return err
	}
	return f.start(p, n, 1)
}

// RunRange starts range pass p over items [0, n) in ranges of batch.
// Executed only by the owner, in the Schedule of p's system.
func (f *Frame) RunRange(p *Pass, n, batch int) error {
	if err := f.pass("RunRange", p); err != nil {
		return err
	}
	if p.q != nil {
		return errorf(ErrScheduleRun, p.sys.name, nil, "RunRange(%s): a Chunks pass runs over its query; use Run", p.label)
	}
	return f.start(p, n, batch)
}

// pass refuses, for call, a nil pass or one made with a nil argument.
func (f *Frame) pass(call string, p *Pass) error {
	name := ""
	if f.cur != nil {
		name = f.cur.name
	}
	switch {
	case p == nil:
		return errorf(ErrScheduleRun, name, nil, "%s(nil) in system %q: pass a *Pass made in Build with Builder.Chunks, ChunksInOrder or Range, kept in the system", call, name)
	case p.bad:
		return errorf(ErrScheduleRun, name, nil, "%s(%s): the pass was made with a nil argument (Build reported it); make it with a query and a function", call, p.label)
	}
	return nil
}

// start schedules pass p's n items in ranges of batch, after the system's
// predecessors (its first pass) or its previous pass. Executed only by the
// owner, in the Schedule of p's system.
func (f *Frame) start(p *Pass, n, batch int) error {
	e, en := f.e, f.cur
	if en != p.sys {
		return errorf(ErrScheduleRun, p.sys.name, nil, "pass %s started outside the Schedule of its system %q", p.label, p.sys.name)
	}
	deps := e.scratch.deps
	if en.started {
		e.scratch.one[0] = en.last // not scratch.deps: keep the predecessors for later passes
		deps = e.scratch.one[:]
	}
	if p.q == nil {
		p.items, p.batch = n, batch
	}
	job := jobs.Job{Label: jobs.Label{Name: p.label}, Run: p.run}
	h, grouped, err := e.startPass(p, job, n, batch, deps)
	if err != nil {
		return err
	}
	en.last, en.lastPass, en.lastGrouped, en.started = h, p, grouped, true
	return nil
}

// settle waits, helping, until the current system's predecessors and its
// passes started so far have finished: for ecs calls in Schedule that
// read what jobs before the system write (ecs.EventReader.Events, through
// owner.Settle). A failure is not reported here: the segment's wait
// reports it, and the system's jobs are blocked by it. Executed only by
// the owner, in Schedule.
func (f *Frame) settle() {
	e, en := f.e, f.cur
	if en == nil {
		return // not in a Schedule: no job of this segment is in flight
	}
	for _, h := range e.scratch.deps {
		_ = e.run.pool.Wait(h)
	}
	f.settleOwn()
}

// settleWriters waits, helping, until the earlier systems of the step
// that write a component the current system's change filters watch
// (en.settleOn) and its passes started so far have finished, so that a
// query with change filters (ecs.Changed, ecs.Added) reads versions that
// no job is still writing. Only jobs that write a watched component mark
// its versions, and every such writer before the system is among them;
// the system's other predecessors may still run (docs/ARCHITECTURE.md,
// "Change detection"). Failures as in settle. Executed only by the
// owner, in Schedule, before Prepare.
func (f *Frame) settleWriters() {
	e, en := f.e, f.cur
	if en == nil {
		return
	}
	for _, i := range en.settleOn {
		if d := e.sched.par[i].done; d != (jobs.Handle{}) { // zero: it and its predecessors started nothing
			_ = e.run.pool.Wait(d)
		}
	}
	f.settleOwn()
}

// settleOwn waits, helping, for the passes that the current system
// started so far. Executed only by the owner, in its Schedule.
func (f *Frame) settleOwn() {
	if en := f.cur; en.started {
		_ = f.e.run.pool.Wait(en.last)
	}
}

// owner is the engine's side of its world's frames (seam.Owner), for the
// ecs calls that only the owner may make or that must wait for earlier
// jobs when it makes them.
type owner struct{ e *Engine }

// InJob reports whether the caller runs one of the frame's jobs. Called
// by any goroutine during a frame; e.run.pool changes only between steps.
func (o owner) InJob() bool { return o.e.run.pool != nil && o.e.run.pool.InJob() }

// Settle waits for the predecessors of the system in Schedule (see
// settle). Executed only by the owner.
func (o owner) Settle() { o.e.scratch.frame.settle() }

// Deciding reports whether the owner evaluates run conditions (decide).
func (o owner) Deciding() bool { return o.e.scratch.frame.deciding }

// settlers finds, for each system with change filters, the systems before
// it in its segment that write a watched component: those its filtered
// Prepare waits for (settle). They are all ordered before it, as the
// filter's token declares an access of the component. Executed only by
// the owner, in Build, after segments.
func (e *Engine) settlers() {
	var keys []safety.Key
	for _, en := range e.sched.par {
		keys = keys[:0]
		for _, q := range en.queries {
			keys = append(keys, q.desc.Watched...)
		}
		for _, x := range e.sched.par[:en.index] {
			if x.seg == en.seg && writesAny(&x.desc.Access, keys) {
				en.settleOn = append(en.settleOn, x.index)
			}
		}
	}
}

func writesAny(a *safety.Access, keys []safety.Key) bool {
	for _, k := range keys {
		if a.Mode(k) == safety.Write {
			return true
		}
	}
	return false
}

// wholePass reports whether chunk pass p, whose query cut n chunks this
// step, holds at most one batch of rows in all: then one job runs them
// (Pass.all), since sharing a batch's worth of rows among participants
// costs more in handing out than it saves. Only chunking makes such a
// pass more than one chunk: several small tables, or the runs of blocks
// that change filters keep. Executed only by the owner, after Prepare.
func (e *Engine) wholePass(p *Pass, n int) bool {
	if p.q == nil || p.inOrder || n < 2 {
		return false
	}
	rows, batch := 0, e.cur.batch
	for i := 0; i < n && rows <= batch; i++ {
		rows += int(p.q.lens[i])
	}
	return rows <= batch
}
