// Package engine builds systems into a validated schedule, runs each fixed step as one job graph, and publishes a render snapshot and the step's timings.
package engine

import (
	"errors"
	"io"
	"runtime"
	"time"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/jobs"
	"github.com/weft-engine/weft/safety"
)

// DefaultWorkers asks for GOMAXPROCS-1 workers, at least one.
const DefaultWorkers = jobs.DefaultWorkers

// Config configures an Engine; zero fields take the defaults.
type Config struct {
	Workers       int              // worker goroutines besides the owner; 0 is serial; DefaultWorkers is GOMAXPROCS-1
	Batch         int              // rows per chunk (default 256)
	FixedStep     time.Duration    // simulated time per step (default 1/60 s)
	MaxSteps      int              // fixed steps per Step call at most (default 4); the rest of the backlog is dropped
	NoChecks      bool             // start with the safety and ecs checks off
	Window        int              // steps in the timings window (default 120)
	TraceCapacity int              // trace events per participant (default 1<<16; doubled when a step loses events)
	Allowlist     safety.Allowlist // accepted ambiguities
	// ChainChunks lets a system's first chunk pass start chunk by chunk
	// after a predecessor's last one where they touch the same rows
	// (docs/ARCHITECTURE.md (k)). It costs a job per chunk of both passes,
	// and pays where the first pass has a long tail. A failing chunk then
	// blocks only its twin.
	ChainChunks bool
}

// Engine runs a world's systems. Every method is executed only by the
// owner: the goroutine that calls Step.
type Engine struct {
	world *ecs.World
	cfg   Config

	all, par, excl []*entry
	queries        []*queryState
	plan           *safety.Plan
	explain        *Explain
	labels         map[string]*Pass // by label, to attribute traced jobs
	built, tried   bool
	buildErr       []error
	nseg           int

	time   *Time
	input  *Input
	camera *Camera

	pool                   *jobs.Pool
	tr                     *safety.Tracker
	workers, batch         int
	checks                 bool
	wantWorkers, wantBatch int
	wantChecks             bool
	traceCap               int

	acc     time.Duration
	frame   Frame
	snaps   snapshots
	timings Timings
	deps    []jobs.Handle
	hs      []jobs.Handle
	one     [1]jobs.Handle
	chained []jobs.Handle // a chained pass's predecessors but the one it chains onto
	events  []jobs.Event
	errs    []error
}

// New makes an engine for w and adds the Time, Input and Camera resources
// to it. Executed only by the owner, outside of frames.
func New(w *ecs.World, cfg Config) (*Engine, error) {
	if cfg.Workers == DefaultWorkers {
		cfg.Workers = max(1, runtime.GOMAXPROCS(0)-1)
	}
	def := func(v *int, d int) {
		if *v == 0 {
			*v = d
		}
	}
	def(&cfg.Batch, 256)
	def(&cfg.MaxSteps, 4)
	def(&cfg.Window, 120)
	def(&cfg.TraceCapacity, 1<<16)
	if cfg.FixedStep == 0 {
		cfg.FixedStep = time.Second / 60
	}
	if cfg.Workers < 0 || cfg.Batch < 1 || cfg.MaxSteps < 1 || cfg.Window < 1 || cfg.TraceCapacity < 1 || cfg.FixedStep < 0 {
		return nil, errorf(CodeBadConfig, "", nil, "Config %+v: Workers must be >= 0 (or jobs.DefaultWorkers), Batch, MaxSteps, Window and TraceCapacity >= 1, FixedStep > 0", cfg)
	}
	e := &Engine{world: w, cfg: cfg, time: &Time{DT: cfg.FixedStep.Seconds()}, input: &Input{}, camera: &Camera{Zoom: 1},
		wantWorkers: cfg.Workers, wantBatch: cfg.Batch, wantChecks: !cfg.NoChecks, traceCap: cfg.TraceCapacity, workers: -1}
	e.frame.e = e
	for _, err := range []error{ecs.AddResource(w, e.time), ecs.AddResource(w, e.input), ecs.AddResource(w, e.camera)} {
		if err != nil {
			return nil, errorf(CodeOrder, "", err, "New during a frame; make the engine outside of BeginFrame/EndFrame")
		}
	}
	return e, nil
}

// Close stops the pool; a second Close does nothing, and a later Step
// starts a new pool. Executed only by the owner, between steps.
func (e *Engine) Close() error {
	if e.pool == nil {
		return nil
	}
	err := e.pool.Close()
	e.pool = nil
	return err
}

// WriteTrace writes the last step's job trace in the Chrome trace event
// format, for Perfetto. Executed only by the owner, between steps.
func (e *Engine) WriteTrace(w io.Writer) error { return jobs.WriteChromeTrace(w, e.events) }

// AppendTrace appends the last step's job trace to dst, so that a trace of
// several steps can be gathered and written with jobs.WriteChromeTrace (job
// handles and times stay distinct across steps of one pool). Executed only
// by the owner, between steps.
func (e *Engine) AppendTrace(dst []jobs.Event) []jobs.Event { return append(dst, e.events...) }

// World is the engine's world.
func (e *Engine) World() *ecs.World { return e.world }

// Input is the input resource, for the game to fill before Step.
func (e *Engine) Input() *Input { return e.input }

// Camera is the camera resource, for the game to move before Step.
func (e *Engine) Camera() *Camera { return e.camera }

// Time is the simulation clock as of the last step.
func (e *Engine) Time() Time { return *e.time }

// Snapshot is the last published render snapshot (empty before the first
// step). It stays unchanged until the next step is published; read it on
// the owner, between steps (as Ebiten's Draw does).
func (e *Engine) Snapshot() *Snapshot {
	if s := e.snaps.front.Load(); s != nil {
		return s
	}
	return &e.snaps.buf[1]
}

// Timings are the step timings and their rolling window.
func (e *Engine) Timings() *Timings { return &e.timings }

// SetWorkers sets the worker count from the next step on (0: serial).
func (e *Engine) SetWorkers(n int) error {
	if n < 0 {
		return errorf(CodeBadConfig, "", nil, "SetWorkers(%d): the worker count must be >= 0", n)
	}
	e.wantWorkers = n
	return nil
}

// SetBatch sets the rows per chunk from the next step on.
func (e *Engine) SetBatch(n int) error {
	if n < 1 {
		return errorf(CodeBadConfig, "", nil, "SetBatch(%d): the batch size must be >= 1", n)
	}
	e.wantBatch = n
	return nil
}

// SetChecks turns the safety and ecs checks on or off from the next step on.
func (e *Engine) SetChecks(on bool) { e.wantChecks = on }

// Workers is the worker count the next step uses.
func (e *Engine) Workers() int { return e.wantWorkers }

// Batch is the rows per chunk the next step uses.
func (e *Engine) Batch() int { return e.wantBatch }

// Checks reports whether the next step runs with the checks on.
func (e *Engine) Checks() bool { return e.wantChecks }

// Step advances the simulation by dt of real time: it runs as many fixed
// steps as the accumulated time holds, at most Config.MaxSteps, drops the
// rest of a larger backlog, and returns the number of steps run. A step
// whose systems fail still counts: their errors are returned, joined,
// after every step ran, so a failing system cannot grow the backlog.
func (e *Engine) Step(dt time.Duration) (int, error) {
	if !e.built {
		return 0, errorf(CodeOrder, "", nil, "Step before Build; call Build once after adding the systems")
	}
	e.acc += dt
	step := e.cfg.FixedStep
	n := 0
	var errs []error
	for e.acc >= step && n < e.cfg.MaxSteps {
		e.acc -= step
		n++
		if err := e.Tick(); err != nil {
			errs = append(errs, err)
		}
	}
	if e.acc >= step {
		d := e.acc / step
		e.acc -= d * step
		e.timings.Dropped += uint64(d)
	}
	e.time.Alpha = float64(e.acc) / float64(step)
	return n, errors.Join(errs...)
}

// Tick runs exactly one fixed step: schedule every enabled system in built
// order, wait for the jobs, play the commands back, merge, publish the
// snapshot and record the timings. A failing system does not stop the
// others; the errors are returned, joined, after the step completed.
func (e *Engine) Tick() error {
	if !e.built {
		return errorf(CodeOrder, "", nil, "Step before Build; call Build once after adding the systems")
	}
	start := time.Now()
	if err := e.apply(); err != nil {
		return err
	}
	e.errs = e.errs[:0]
	e.time.Step++
	e.time.Elapsed = float64(e.time.Step) * e.time.DT
	e.frame.snap = e.snaps.begin(e.time.Step, e.time.Elapsed, *e.camera)
	e.timings.begin(e)
	for seg := 0; seg < e.nseg; seg++ {
		e.segment(seg)
	}
	e.snaps.publish()
	if err := e.pool.Reset(); err != nil {
		e.errs = append(e.errs, errorf(CodeJob, "", err, "resetting the pool after step %d", e.time.Step))
	}
	e.tr.Reset()
	e.timings.end(e, time.Since(start))
	if len(e.errs) > 0 {
		return errors.Join(e.errs...)
	}
	return nil
}

// apply brings pending settings into force between steps: a new worker
// count makes a new pool (and tracker).
func (e *Engine) apply() error {
	if e.wantWorkers != e.workers || e.pool == nil {
		if e.pool != nil {
			e.pool.Close()
		}
		p, err := jobs.New(jobs.Options{Workers: e.wantWorkers, TraceCapacity: e.traceCap})
		if err != nil {
			return errorf(CodeBadConfig, "", err, "making a pool of %d workers", e.wantWorkers)
		}
		p.SetTracing(true)
		e.pool, e.workers = p, e.wantWorkers
		e.tr = safety.NewTracker(p, e.world.Registry(), safety.Options{})
		e.checks = !e.wantChecks // force the flags below
		e.timings.resetWorkers(e)
	}
	if e.wantChecks != e.checks {
		e.tr.SetChecks(e.wantChecks)
		if err := e.world.SetChecks(e.wantChecks); err != nil {
			return errorf(CodeOrder, "", err, "switching checks")
		}
		e.checks = e.wantChecks
	}
	e.batch = e.wantBatch
	return nil
}

// segment runs one part of the step between exclusive systems: the
// exclusives that start it, then the parallel phase of its systems.
func (e *Engine) segment(seg int) {
	for _, x := range e.excl {
		if x.seg != seg || x.disabled {
			continue
		}
		t := time.Now()
		if err := x.excl.Run(e.world, *e.time); err != nil {
			e.errs = append(e.errs, errorf(CodeMerge, x.name, err, "exclusive system %q failed in step %d", x.name, e.time.Step))
		}
		x.timing.merge += time.Since(t)
		x.timing.ran = true
	}
	if err := e.world.BeginFrame(); err != nil {
		e.errs = append(e.errs, errorf(CodeOrder, "", err, "a frame was left open; do not call World.BeginFrame yourself"))
		return
	}
	e.hs = e.hs[:0]
	for _, en := range e.par {
		if en.seg == seg {
			e.schedule(en)
			if en.done != (jobs.Handle{}) {
				e.hs = append(e.hs, en.done)
			}
		}
	}
	t := time.Now()
	if len(e.hs) > 0 {
		all, err := e.pool.Combine(e.hs...)
		if err == nil {
			err = e.pool.Wait(all)
		}
		if err != nil {
			e.errs = append(e.errs, errorf(CodeJob, "", err, "a job failed in step %d; the systems after it were skipped (Blocked)", e.time.Step))
		}
	}
	e.timings.wait += time.Since(t)
	t = time.Now()
	rep, err := e.world.EndFrame()
	e.timings.playback += time.Since(t)
	if err != nil {
		e.errs = append(e.errs, errorf(CodeJob, "", err, "jobs misused the world in step %d", e.time.Step))
	}
	if rep != nil {
		e.timings.applied += rep.Applied
		e.timings.problems += len(rep.Problems)
	}
	for _, en := range e.par {
		if en.seg != seg || en.merger == nil || !en.merge {
			continue
		}
		if o, err := e.pool.Outcome(en.done); en.started && (err != nil || o != jobs.Succeeded) {
			continue // its jobs failed: their outputs are not whole
		}
		t := time.Now()
		e.frame.cur = en
		if err := en.merger.Merge(&e.frame); err != nil {
			e.errs = append(e.errs, errorf(CodeMerge, en.name, err, "system %q: Merge failed in step %d", en.name, e.time.Step))
		}
		e.frame.cur = nil
		en.timing.merge += time.Since(t)
	}
	if seg == 0 {
		e.events = e.events[:0]
	}
	from := len(e.events)
	var lost uint64
	e.events, lost = e.pool.ReadTrace(e.events)
	if lost > 0 {
		e.traceCap *= 2
		e.workers = -1 // a new pool with more room next step
	}
	e.timings.segment(e, e.events[from:], lost)
}

// schedule calls a system's Schedule and records its done handle. A
// system that starts no pass (disabled, failed) stands for its
// predecessors, so order through it still holds.
func (e *Engine) schedule(en *entry) {
	en.started, en.last, en.lastPass, en.lastGrouped, en.merge = false, jobs.Handle{}, nil, false, false
	e.deps = e.deps[:0]
	for _, p := range en.preds {
		if d := e.par[p].done; d != (jobs.Handle{}) && e.par[p].seg == en.seg {
			e.deps = append(e.deps, d)
		}
	}
	if !en.disabled {
		t := time.Now()
		e.frame.cur = en
		err := en.sys.Schedule(&e.frame)
		e.frame.cur = nil
		en.timing.sched += time.Since(t)
		en.timing.ran = true
		en.merge = err == nil
		if err != nil {
			e.errs = append(e.errs, errorf(CodeScheduleRun, en.name, err, "system %q: Schedule failed in step %d; its jobs so far still run", en.name, e.time.Step))
		}
	}
	if en.started {
		en.done = en.last
		return
	}
	switch len(e.deps) {
	case 0:
		en.done = jobs.Handle{}
	case 1:
		en.done = e.deps[0]
	default:
		h, err := e.tr.Combine(e.deps...)
		if err != nil {
			e.errs = append(e.errs, errorf(CodeScheduleRun, en.name, err, "combining the predecessors of %q", en.name))
		}
		en.done = h
	}
}

// Frame is a system's view of the step, in Schedule and Merge.
type Frame struct {
	e    *Engine
	cur  *entry
	snap *Snapshot
}

// Time is the step's clock.
func (f *Frame) Time() Time { return *f.e.time }

// Batch is the rows per chunk of this step.
func (f *Frame) Batch() int { return f.e.batch }

// Participants is the number of goroutines that run this step's jobs: the
// workers and the owner. ecs.Chunk.Worker is below it, so a system can
// keep per-worker scratch space.
func (f *Frame) Participants() int { return f.e.pool.Workers() + 1 }

// Snapshot is the render snapshot being built: append draw items to it in
// Merge. It is published when the step ends.
func (f *Frame) Snapshot() *Snapshot { return f.snap }

// Prepare cuts p's query into this step's chunks, once per step, and
// returns their number, so that Schedule can size per-chunk outputs before
// Run. Executed only by the owner, in Schedule.
func (f *Frame) Prepare(p *Pass) (int, error) {
	if p.q == nil {
		return 0, errorf(CodeScheduleRun, p.sys.name, nil, "Prepare(%s): a Range pass has no query; use RunRange", p.label)
	}
	qs := p.q
	if qs.step != f.e.time.Step {
		n, err := qs.q.Prepare(f.e.batch)
		if err != nil {
			return 0, err
		}
		qs.n, qs.step = n, f.e.time.Step
		for _, o := range qs.passes {
			o.rows.Store(0)
		}
	}
	return qs.n, nil
}

// Run starts chunk pass p: one job per chunk of its query, after the
// system's predecessors and its previous pass. Executed only by the owner,
// in the Schedule of p's system.
func (f *Frame) Run(p *Pass) error {
	n, err := f.Prepare(p)
	if err != nil {
		return err
	}
	return f.start(p, n, 1)
}

// RunRange starts range pass p over items [0, n) in ranges of batch.
// Executed only by the owner, in the Schedule of p's system.
func (f *Frame) RunRange(p *Pass, n, batch int) error {
	if p.q != nil {
		return errorf(CodeScheduleRun, p.sys.name, nil, "RunRange(%s): a Chunks pass runs over its query; use Run", p.label)
	}
	return f.start(p, n, batch)
}

func (f *Frame) start(p *Pass, n, batch int) error {
	e, en := f.e, f.cur
	if en != p.sys {
		return errorf(CodeScheduleRun, p.sys.name, nil, "pass %s started outside the Schedule of its system %q", p.label, p.sys.name)
	}
	deps := e.deps
	if en.started {
		e.one[0] = en.last // not e.deps: keep the predecessors for later passes
		deps = e.one[:]
	}
	job := jobs.Job{Label: jobs.Label{Name: p.label}, Run: p.run}
	var h jobs.Handle
	var err error
	grouped := false
	switch src := p.chain; {
	case src != nil && !en.started && n <= maxChainChunks && src.sys.lastPass == src && src.sys.lastGrouped && p.q.q.Aligned(src.q.q):
		// Chunk k after the source's chunk k, and after the other
		// predecessors whole.
		e.chained = e.chained[:0]
		for _, d := range deps {
			if d != src.sys.done {
				e.chained = append(e.chained, d)
			}
		}
		h, err = e.tr.ChunksAfter(job, en.decl.Access(), n, src.sys.done, e.chained...)
		grouped = true
	case p.group && n <= maxChainChunks:
		h, err = e.tr.ChunksAfter(job, en.decl.Access(), n, jobs.Handle{}, deps...)
		grouped = true
	default:
		h, err = e.tr.ParallelForAfter(job, en.decl.Access(), n, batch, deps...)
	}
	if err != nil {
		return err
	}
	en.last, en.lastPass, en.lastGrouped, en.started = h, p, grouped, true
	return nil
}

// maxChainChunks bounds the chunks of a pass that runs as one job per
// chunk for chaining: beyond it, the pass runs as a ParallelFor and is not
// chained, so that a huge pass cannot fill the pool's arena.
const maxChainChunks = 1024
