package engine

import (
	"io"
	"runtime"
	"sync/atomic"
	"time"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/internal/seam"
	"github.com/weft-engine/weft/jobs"
	"github.com/weft-engine/weft/safety"
)

// DefaultWorkers asks for GOMAXPROCS-1 workers, at least one and at most
// MaxWorkers.
const DefaultWorkers = jobs.DefaultWorkers

// MaxWorkers is the most workers Config.Workers and SetWorkers accept.
const MaxWorkers = jobs.MaxWorkers

// Config configures an Engine; zero fields take the defaults, so the
// zero Config runs a worker for each spare CPU, adaptive batches and the
// checks on.
type Config struct {
	// Workers is the number of worker goroutines besides the owner, at
	// most MaxWorkers. 0 (the default) is one for each spare CPU,
	// GOMAXPROCS-1: none where the program has one CPU (a browser's
	// WebAssembly runs on one thread), which then runs the serial
	// executor; DefaultWorkers asks for at least one.
	Workers int
	// Serial runs every job on the owner, in a repeatable order: the
	// serial executor, which every parallel run equals bit for bit (the
	// oracle of determinism tests). Workers must then be 0. A count read
	// from a flag or a loop, where 0 means serial, is Config{Workers: n,
	// Serial: n == 0}; SetWorkers takes such a count as it is.
	Serial        bool
	Batch         int              // rows per chunk; 0 (the default): adaptive, chosen each step from measured job times
	FixedStep     time.Duration    // simulated time per step (default 1/60 s)
	MaxSteps      int              // fixed steps per Step call at most (default 4); the rest of the backlog is dropped
	NoChecks      bool             // start with the safety and ecs checks off
	TraceCapacity int              // trace events per participant (default 1<<16; doubled when a step loses events)
	Allowlist     safety.Allowlist // accepted ambiguities
	// ChainChunks lets a system's first chunk pass start chunk by chunk
	// after a predecessor's last one where they touch the same rows
	// (docs/ARCHITECTURE.md, "Chunk-wise chaining"). It costs a job per
	// chunk of both passes, and pays where the first pass has a long
	// tail. A failing chunk then blocks only its twin.
	ChainChunks bool
}

// Engine runs a world's systems. Every method is executed only by the
// owner: the goroutine that calls Step.
type Engine struct {
	world  *ecs.World
	inside ecsSeam // the world's side of the seam (seam.go)
	cfg    Config

	sched   schedule   // the systems and what Build derived from them
	res     resources  // the resources the engine owns in the world
	want    settings   // settings asked for; they take effect at the next step
	cur     settings   // settings of the running pool
	tune    batchTuner // the adaptive batch size (want.batch 0)
	run     runner     // the pool and tracker that run the steps
	scratch scratch    // per-step working state, reused to allocate nothing
	out     outputs    // what a step leaves for the game to read
	dig     digests    // the systems' digests of the last step (digest.go)
	hook    StepHook   // told of every fixed step (SetStepHook)
	rw      rewinder   // snapshots kept for Rewind (rewind.go)

	// busy is set while Step, Tick or Close runs, so that a call from
	// inside a step (a Schedule, Merge, job or exclusive system) or from a
	// second goroutine is refused instead of corrupting the step.
	busy atomic.Bool
}

// schedule is the set of systems: registered by Add, ordered and derived
// by Build. Written only by Add and Build; read-only from then on, except
// entries' per-step fields.
type schedule struct {
	all, par, excl []*entry         // every system; the parallel ones in built order; the exclusive ones
	queries        []*queryState    // queries shared by passes
	plan           *safety.Plan     // safety's validation of the systems
	explain        *Explain         // the built schedule as data
	labels         map[string]*Pass // by label, to attribute traced jobs
	sets           []*set           // in the order of Set
	byName         map[string]*entry
	setByName      map[string]*set
	why            map[[2]string]Cause // explicit and set-derived order, by (first, then) name
	built, tried   bool
	addErr         []error        // misuse found by Add, reported by Build
	nseg           int            // segments per step: parts split by exclusive systems
	states         []stateMachine // in the order of AddState (state.go)
	observers      []Observer     // in the order of AddObserver (observer.go)
	obs            []*entry       // their names and Decls, built (observer.go)
}

// resources are the engine's resources in the world, shared by pointer
// with the world's resource table.
type resources struct {
	time   *Time
	input  *Input
	camera *Camera
}

// settings are the settings that can change between steps.
type settings struct {
	workers, batch int
	checks         bool
}

// runner is the machinery that runs steps; applySettings rebuilds it when
// the worker count changes.
type runner struct {
	pool     *jobs.Pool
	tr       *safety.Tracker
	traceCap int           // trace events per participant of the next pool
	acc      time.Duration // real time not yet simulated
}

// scratch is the working state of one step, kept to allocate nothing.
type scratch struct {
	frame   Frame
	deps    []jobs.Handle // the scheduled system's predecessors
	hs      []jobs.Handle // the segment's systems' done handles
	one     [1]jobs.Handle
	chained []jobs.Handle // a chained pass's predecessors but the one it chains onto
	errs    []error       // the step's failures, joined by Tick
	events  []jobs.Event  // a segment's trace, read from the pool
	// ran counts the steps run, and only grows: Time.Step goes back with a
	// restore, rewind or load, so a step number does not name one step.
	ran uint64
}

// outputs are what a step publishes.
type outputs struct {
	snaps    snapshots
	rec      recorder      // the step's record, for the observers
	problems []ecs.Problem // the last step's skipped or unresolved commands
}

// New makes an engine for w and adds the Time, Input and Camera resources
// to it; a world has at most one engine. Executed only by the owner,
// outside of frames.
func New(w *ecs.World, cfg Config) (*Engine, error) {
	if w == nil {
		return nil, errorf(ErrBadConfig, "", nil, "New(nil, cfg): the world is nil; make one with ecs.NewWorld")
	}
	workers, err := configWorkers(cfg)
	if err != nil {
		return nil, err
	}
	cfg.Workers = workers
	def := func(v *int, d int) {
		if *v == 0 {
			*v = d
		}
	}
	def(&cfg.MaxSteps, 4)
	def(&cfg.TraceCapacity, 1<<16)
	if cfg.FixedStep == 0 {
		cfg.FixedStep = time.Second / 60
	}
	if cfg.Batch < 0 || cfg.MaxSteps < 1 || cfg.TraceCapacity < 1 || cfg.FixedStep < 0 {
		return nil, errorf(ErrBadConfig, "", nil, "Config %+v: Batch must be >= 0 (0: adaptive), MaxSteps and TraceCapacity >= 1, FixedStep > 0", cfg)
	}
	e := &Engine{world: w, cfg: cfg,
		res:  resources{time: &Time{DT: cfg.FixedStep.Seconds()}, input: &Input{}, camera: &Camera{Zoom: 1}},
		want: settings{workers: cfg.Workers, batch: cfg.Batch, checks: !cfg.NoChecks},
		cur:  settings{workers: -1},
		run:  runner{traceCap: cfg.TraceCapacity},
	}
	e.scratch.frame.e = e
	e.out.rec.start()
	e.inside = seam.Open[*ecs.World, *ecs.Decl, ecs.AnyQuery, *ecs.Chunk, ecs.Written](w)
	e.inside.SetOwner(owner{e})
	for _, err := range []error{ecs.AddResource(w, e.res.time), ecs.AddResource(w, e.res.input), ecs.AddResource(w, e.res.camera)} {
		if err != nil {
			return nil, errorf(ErrOrder, "", err, "making the engine's resources; make one engine per world, outside of BeginFrame/EndFrame")
		}
	}
	return e, nil
}

// Close stops the pool; a second Close does nothing, and a later Step
// starts a new pool. Executed only by the owner, between steps.
func (e *Engine) Close() error {
	if err := e.enter("Close"); err != nil {
		return err
	}
	defer e.busy.Store(false)
	for _, m := range e.sched.states { // their State resources' Set ends with the engine
		m.forget()
	}
	if e.run.pool == nil {
		return nil
	}
	err := e.run.pool.Close()
	e.run.pool = nil
	return err
}

// enter marks the engine busy for call (Step, Tick, Close), or refuses it
// with WEFT-G007 when another of them is running: a call from inside a
// step, which would wait for itself or tear down its pool, or from a
// second goroutine. The caller clears busy when done. Called by any
// goroutine; the CAS orders it against the running call.
func (e *Engine) enter(call string) error {
	if !e.busy.CompareAndSwap(false, true) {
		return errorf(ErrOrder, "", nil, "%s while a step or Close is running (called from a system's Schedule, Merge or job, an exclusive system, or another goroutine); call Step, Tick and Close only from the goroutine that drives the engine, between steps", call)
	}
	return nil
}

// WriteTrace writes the last step's job trace in the Chrome trace event
// format, for Perfetto. Executed only by the owner, between steps.
func (e *Engine) WriteTrace(w io.Writer) error { return jobs.WriteChromeTrace(w, e.out.rec.cur.Jobs) }

// AppendTrace appends the last step's job trace to dst, so that a trace of
// several steps can be gathered and written with jobs.WriteChromeTrace (job
// handles and times stay distinct across steps of one pool). Executed only
// by the owner, between steps.
func (e *Engine) AppendTrace(dst []jobs.Event) []jobs.Event {
	return append(dst, e.out.rec.cur.Jobs...)
}

// Problems are the commands that the last step's playback skipped
// (WEFT-E006: a dead entity, a missing component) or could not resolve
// (WEFT-E010: a Spawn placeholder), in playback order; the step's record
// counts them. Valid until the next step. Executed only by the owner, between
// steps.
func (e *Engine) Problems() []ecs.Problem { return e.out.problems }

// World is the engine's world.
func (e *Engine) World() *ecs.World { return e.world }

// Input is the input resource, for the game to fill before Step.
func (e *Engine) Input() *Input { return e.res.input }

// Camera is the camera resource, for the game to move before Step.
func (e *Engine) Camera() *Camera { return e.res.camera }

// Time is the simulation clock as of the last step.
func (e *Engine) Time() Time { return *e.res.time }

// Snapshot is the last published render snapshot (empty before the first
// step). It stays unchanged through the next step, which builds into a
// second buffer, and is reused by the step after that: read it on the
// owner, between steps (as Ebiten's Draw does), and copy what must live
// longer. Another goroutine must not read it while the owner steps.
func (e *Engine) Snapshot() *Snapshot { return e.out.snaps.current() }

// SetWorkers sets the worker count from the next step on (0: serial,
// DefaultWorkers: GOMAXPROCS-1). A count it refuses changes nothing.
func (e *Engine) SetWorkers(n int) error {
	w, err := resolveWorkers("SetWorkers(%d)", n)
	if err != nil {
		return err
	}
	e.want.workers = w
	return nil
}

// ResolveWorkers is the worker count SetWorkers n gives: DefaultWorkers
// becomes GOMAXPROCS-1 (at least 1, at most MaxWorkers), 0 (serial) to
// MaxWorkers stay; any other n is refused with WEFT-G001. Programs check
// a worker count from their flags with it (and give it to New as
// Config{Workers: n, Serial: n == 0}). Any goroutine may call it.
func ResolveWorkers(n int) (int, error) { return resolveWorkers("%d workers", n) }

// configWorkers is the worker count cfg asks for: 0 with Serial, one for
// each spare CPU for the zero Workers, its Workers resolved otherwise.
// Any goroutine.
func configWorkers(cfg Config) (int, error) {
	switch {
	case cfg.Serial && cfg.Workers != 0:
		return 0, errorf(ErrBadConfig, "", nil, "Config{Serial: true, Workers: %d}: the serial executor runs no workers; give Serial or Workers, not both", cfg.Workers)
	case cfg.Serial:
		return 0, nil
	case cfg.Workers == 0:
		return SpareWorkers(), nil
	}
	return resolveWorkers("Config.Workers = %d", cfg.Workers)
}

// SpareWorkers is the worker count of the zero Config.Workers: one for
// each CPU besides the owner's, GOMAXPROCS-1, at most MaxWorkers; 0 on
// one CPU. Any goroutine may call it.
func SpareWorkers() int { return min(MaxWorkers, runtime.GOMAXPROCS(0)-1) }

// resolveWorkers is jobs.ResolveWorkers, the one place that resolves and
// bounds a worker count, with its refusal told in the engine's names;
// call formats n. Any goroutine.
func resolveWorkers(call string, n int) (int, error) {
	w, err := jobs.ResolveWorkers(n)
	if err != nil {
		return 0, errorf(ErrBadConfig, "", nil, call+": give 0 (serial) up to engine.MaxWorkers (%d), or engine.DefaultWorkers (GOMAXPROCS-1)", n, MaxWorkers)
	}
	return w, nil
}

// SetBatch sets the rows per chunk from the next step on; 0 makes it
// adaptive again.
func (e *Engine) SetBatch(n int) error {
	if n < 0 {
		return errorf(ErrBadConfig, "", nil, "SetBatch(%d): the batch size must be >= 1, or 0 for adaptive", n)
	}
	e.want.batch = n
	return nil
}

// SetChecks turns the safety and ecs checks on or off from the next step on.
func (e *Engine) SetChecks(on bool) { e.want.checks = on }

// Workers is the worker count the next step uses.
func (e *Engine) Workers() int { return e.want.workers }

// Batch is the rows per chunk the next step uses: the one set, or the
// adaptive choice.
func (e *Engine) Batch() int {
	if e.want.batch == 0 {
		return e.tune.next()
	}
	return e.want.batch
}

// AdaptiveBatch reports whether the engine chooses the batch size itself
// (Config.Batch or SetBatch 0).
func (e *Engine) AdaptiveBatch() bool { return e.want.batch == 0 }

// Checks reports whether the next step runs with the checks on.
func (e *Engine) Checks() bool { return e.want.checks }
