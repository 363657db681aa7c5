package engine

import (
	"math"
	"runtime"
	"runtime/metrics"
	"slices"
	"time"

	"github.com/weft-engine/weft/jobs"
)

// recorder builds each step's StepRecord and hands it to the observers.
// Executed only by the owner.
type recorder struct {
	epoch     time.Time // the engine's clock's zero
	cur       StepRecord
	layout    Layout
	observers []*observer
	marks     marks
	prev      []jobs.WorkerStats // the pool's counters after the last step
	stats     []jobs.WorkerStats
	gc        gcReader
	dropped   uint64
	cost      stepCost
}

// observer is one Engine.Observe; fn is nil once stopped.
type observer struct{ fn func(*StepRecord) }

// stepCost is the figure the adaptive batch size reads after a step: the
// summed time and rows of its chunk jobs, and the rows of its largest pass.
type stepCost struct {
	work       time.Duration
	rows, most int64
}

func (r *recorder) now() int64 { return int64(time.Since(r.epoch)) }

// start sets the clock's zero. Executed only by the owner, in New.
func (r *recorder) start() {
	r.epoch = time.Now()
	r.marks.epoch = r.epoch
	r.gc.init()
}

// init describes the built schedule. Executed only by the owner, at the
// end of Build.
func (r *recorder) init(e *Engine) {
	l := &r.layout
	for _, list := range [2][]*entry{e.sched.par, e.sched.excl} {
		for _, en := range list {
			en.slot = len(l.Systems)
			l.Systems = append(l.Systems, SystemInfo{Name: en.name, Stage: en.stage, Exclusive: en.excl != nil})
			for _, p := range en.passes {
				l.Passes = append(l.Passes, NameInfo{Name: p.label, System: int32(en.slot)})
			}
		}
	}
	r.marks.init()
	for i, name := range r.marks.markers.names {
		l.Markers = append(l.Markers, NameInfo{Name: name, System: r.marks.markers.sys[i]})
	}
	for i, name := range r.marks.counters.names {
		l.Counters = append(l.Counters, NameInfo{Name: name, System: r.marks.counters.sys[i]})
	}
	r.cur.Layout = l
	r.cur.Systems = make([]SystemRecord, len(l.Systems))
	r.cur.Counters = make([]int64, len(l.Counters))
}

// resetWorkers follows a new pool: its counters start from zero.
// Executed only by the owner, between steps.
func (r *recorder) resetWorkers(p *jobs.Pool) {
	r.prev = p.Stats(r.prev[:0])
	r.cur.Workers = make([]WorkerRecord, len(r.prev))
	r.marks.resize(p)
}

// begin starts the step's record; start is when the step began, before
// its settings were applied. Executed only by the owner, at the start of
// a step.
func (r *recorder) begin(e *Engine, start int64) {
	c := &r.cur
	c.Step, c.Start, c.End, c.Batch = e.res.time.Step, start, 0, e.cur.batch
	c.Phases, c.Jobs, c.JobInfo, c.Segments = c.Phases[:0], c.Jobs[:0], c.JobInfo[:0], c.Segments[:0]
	c.JobsLost, c.MarksLost, c.GC = 0, 0, c.GC[:0]
	c.Commands, c.Observed, c.Problems, c.Dropped = 0, 0, 0, r.dropped
	for i := range c.Systems {
		c.Systems[i] = SystemRecord{}
	}
	for _, en := range e.sched.all {
		en.failure = ""
	}
	r.cost = stepCost{}
	r.marks.clear()
	r.phase(PhaseSettings, -1, start)
}

// phase records that the owner did kind (for system sys, or -1) from
// start until now, and returns now. Executed only by the owner.
func (r *recorder) phase(kind PhaseKind, sys int32, start int64) int64 {
	end := r.now()
	r.cur.Phases = append(r.cur.Phases, Phase{Kind: kind, System: sys, Start: start, End: end})
	return end
}

// segment adds one segment's trace to the step, moved onto the engine's
// clock and attributed to the systems. Executed only by the owner, after
// the segment's Wait: every event of it is recorded.
func (r *recorder) segment(e *Engine, events []jobs.Event, lost uint64) {
	c := &r.cur
	c.JobsLost += lost
	c.Segments = append(c.Segments, len(c.Jobs))
	off, now := r.marks.off, r.now()
	var name string // the last label looked up, and its pass: a pass's slices come in runs
	var pass *Pass
	for i := range events {
		ev := events[i]
		// The clocks agree to a fraction of a microsecond; every job ran
		// within the step, before now, and is kept there.
		ev.Start, ev.End = min(max(ev.Start-off, c.Start), now), min(max(ev.End-off, c.Start), now)
		info := JobInfo{System: -1}
		if ev.Kind == jobs.KindJob && ev.Label.Chunk >= 0 {
			if ev.Label.Name != name || pass == nil {
				name, pass = ev.Label.Name, e.sched.labels[ev.Label.Name]
			}
			if pass != nil {
				info = JobInfo{System: int32(pass.sys.slot), Rows: pass.rowsOf(ev.Label.Chunk)}
				if pass.q != nil && info.Rows > 0 {
					r.cost.work += time.Duration(ev.End - ev.Start)
					r.cost.rows += int64(info.Rows)
				}
			}
		}
		c.Jobs = append(c.Jobs, ev)
		c.JobInfo = append(c.JobInfo, info)
	}
}

// failure records a system's job failure and the systems it blocked.
// Executed only by the owner, in reportJobs.
func (r *recorder) failure(e *Engine, f *failure, err error) {
	if f.en != nil {
		f.en.fail(err.Error())
	}
	for _, name := range f.skipped {
		if en := e.sched.byName[name]; en != nil {
			r.cur.Systems[en.slot] = SystemRecord{State: SystemBlocked, Cause: err.Error()}
		}
	}
}

// end completes the step's record and hands it to the observers.
// Executed only by the owner, at the end of a step.
func (r *recorder) end(e *Engine) {
	c := &r.cur
	c.Step = e.res.time.Step
	c.End = r.now()
	r.endSystems(e)
	r.endWorkers(e)
	if err := r.marks.fold(c); err != nil {
		e.fail(err)
	}
	c.GC = r.gc.read(c.GC, r.epoch)
	for _, o := range r.observers {
		if o.fn != nil {
			o.fn(c)
		}
	}
	r.observers = slices.DeleteFunc(r.observers, func(o *observer) bool { return o.fn == nil })
}

// endSystems sets each system's state and entities. Executed only by the
// owner, in end.
func (r *recorder) endSystems(e *Engine) {
	c := &r.cur
	for _, en := range e.sched.all {
		s := &c.Systems[en.slot]
		switch {
		case en.failure != "":
			s.State, s.Cause = SystemFailed, en.failure
		case s.State == SystemBlocked:
		case en.disabled:
			s.State = SystemDisabled
		case en.skip:
			s.State = SystemSkipped
		}
		for _, q := range en.queries {
			if q.ran != e.scratch.ran {
				continue // not prepared this step (disabled): its counts are old
			}
			rows := int64(0)
			for _, p := range q.passes {
				if p.sys == en {
					rows = max(rows, p.rows.Load())
				}
			}
			s.Entities += int(rows)
			r.cost.most = max(r.cost.most, rows)
		}
	}
}

// endWorkers reads the participants' counters for the step. Executed only
// by the owner, in end.
func (r *recorder) endWorkers(e *Engine) {
	c := &r.cur
	r.stats = e.run.pool.Stats(r.stats[:0])
	for i := range r.stats {
		if i >= len(r.prev) || i >= len(c.Workers) {
			break
		}
		c.Workers[i] = WorkerRecord{Busy: r.stats[i].Busy - r.prev[i].Busy,
			Jobs: r.stats[i].Executed - r.prev[i].Executed, Steals: r.stats[i].Stolen - r.prev[i].Stolen}
	}
	r.prev, r.stats = r.stats, r.prev
}

// gcReader finds the GC pauses that ended since its last read. The
// runtime keeps the last 256 pauses' ends on the wall clock; reading them
// stops the world briefly, so it happens only when runtime/metrics says
// that a cycle ended.
type gcReader struct {
	cycles []metrics.Sample
	seen   uint32 // the cycles already read
	mem    runtime.MemStats
}

func (g *gcReader) init() {
	g.cycles = []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}}
	metrics.Read(g.cycles)
	g.seen = uint32(g.cycles[0].Value.Uint64())
}

// read appends the new pauses to dst, on the clock whose zero is epoch.
// Executed only by the owner.
func (g *gcReader) read(dst []GCPause, epoch time.Time) []GCPause {
	metrics.Read(g.cycles)
	if uint32(g.cycles[0].Value.Uint64()) == g.seen {
		return dst
	}
	runtime.ReadMemStats(&g.mem)
	m, wall0 := &g.mem, epoch.UnixNano()
	for gc := max(g.seen, m.NumGC-min(m.NumGC, 256)); gc < m.NumGC; gc++ {
		end := int64(m.PauseEnd[gc%256]) - wall0
		dst = append(dst, GCPause{Cycle: gc + 1, Start: end - int64(m.PauseNs[gc%256]), End: end})
	}
	g.seen = m.NumGC
	return dst
}

// rowsOf is the rows (a query's pass) or items (a range pass) of chunk k
// of p's run this step. Executed only by the owner, after the step's
// Wait.
func (p *Pass) rowsOf(k int) int32 {
	switch {
	case p.whole:
		return int32(min(p.rows.Load(), math.MaxInt32)) // one job ran every chunk
	case p.q != nil:
		if k < 0 || k >= len(p.q.lens) {
			return 0
		}
		return p.q.lens[k]
	case p.batch > 0:
		return int32(max(0, min(p.batch, p.items-k*p.batch)))
	}
	return 0
}

// fail records the system's own failure of the step, for its record.
// Executed only by the owner.
func (en *entry) fail(msg string) {
	if en.failure == "" {
		en.failure = msg
	}
}
