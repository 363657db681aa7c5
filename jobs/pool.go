package jobs

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// DefaultWorkers asks for GOMAXPROCS-1 workers, at least one and at most
// MaxWorkers.
const DefaultWorkers = -1

// MaxWorkers is the most workers a pool runs. Workers beyond the cores
// only wait for one, and a completion that wakes waiters wakes them all:
// thousands of them make every step crawl.
const MaxWorkers = 256

// ResolveWorkers is the worker count New starts for n: DefaultWorkers
// becomes GOMAXPROCS-1, at least 1 and at most MaxWorkers; 0 (the serial
// executor) to MaxWorkers stay as they are. Any other n is refused with
// ErrBadArgument. Any goroutine may call it.
func ResolveWorkers(n int) (int, error) {
	if n == DefaultWorkers {
		return min(MaxWorkers, max(1, runtime.GOMAXPROCS(0)-1)), nil
	}
	if n < 0 || n > MaxWorkers {
		return 0, errorf(ErrBadArgument, Label{}, "Workers = %d: give 0 (the serial executor) up to MaxWorkers (%d), or DefaultWorkers", n, MaxWorkers)
	}
	return n, nil
}

// Options configure a Pool.
type Options struct {
	// Workers is the number of worker goroutines besides the owner, at
	// most MaxWorkers. 0 is the serial executor: every job runs on the
	// owner inside Wait, in a repeatable order. DefaultWorkers is
	// GOMAXPROCS-1 (see ResolveWorkers).
	Workers int
	// MaxJobs bounds the jobs scheduled between two Resets (default 1<<20).
	// The owner reserves job slots 64 at a time, so jobs that workers and
	// other goroutines schedule may be refused up to 63 short of it.
	// Dependency edges, one per prerequisite named, are bounded by
	// 4·MaxJobs and reserved by the owner at least 64 at a time likewise.
	// Arena memory is taken in blocks of 1024 jobs as they are first used.
	MaxJobs int
	// TraceCapacity is the number of trace events each participant keeps
	// (default 1<<16); tracing itself is off until SetTracing(true).
	TraceCapacity int
}

// Pool is a work-stealing job pool. The goroutine that creates it is its
// owner: Pool methods are meant for it, and another goroutine's calls are
// safe but slower (its jobs go through the injection queue and its Wait
// does not help). Job bodies schedule and wait through their *Ctx.
type Pool struct {
	// Read by every participant on every job; written rarely.
	id       uint32
	owner    uintptr       // the goroutine that made the pool (see goroutine)
	events   atomic.Int32  // Events not yet triggered; Reset cancels them
	epoch    atomic.Uint32 // the frame: bumped by Reset, part of every Handle
	jobs     *arena[record]
	edges    *arena[edge]
	parts    []*participant // parts[0] is the owner, then the workers
	ec       *eventCount
	draining atomic.Bool // every completion wakes the owner (Reset, Close)
	solo     atomic.Bool // the owner runs its own jobs alone this frame (see adapt.go)
	closed   atomic.Bool
	quit     atomic.Bool
	tracing  atomic.Bool
	traceCap int
	sharedPs bool // GOMAXPROCS < participants when New ran: spinners yield their P (see relax)
	t0       time.Time
	wg       sync.WaitGroup

	// Written often: each on a cache line of its own, so that writing one
	// does not evict the fields above from the other cores.
	_              [64]byte
	guard          atomicU32      // 1 while held by whoever drives parts[0] (the owner deque), twice per Pool call
	driver         atomic.Uintptr // the goroutine driving parts[0] inside Wait, Reset or Close (see inJob), else 0
	finishedFrames uint64         // jobs of the frames before the last Reset; owner only
	adapter        adapter        // the frame times that choose solo mode; owner only (see adapt.go)
	observer       walker         // Observed's scratch; owner only
	lanes          traceLanes     // ReadTrace's scratch; owner only
	_              [64]byte
	spinning       atomic.Int32 // workers looking for work; while > 0 no wake-up is needed
	_              [64]byte
	guests         *eventCount // goroutines without a deque asleep in Wait: they run no jobs, so work wake-ups must not pick them
	inj            injector
	waits          waitGraph // who is parked in a wait, on what (see waitgraph.go)
}

var poolIDs atomic.Uint32

// New starts a pool with its worker goroutines.
func New(opts Options) (*Pool, error) {
	w, err := ResolveWorkers(opts.Workers)
	if err != nil {
		return nil, err
	}
	if opts.MaxJobs < 0 || opts.TraceCapacity < 0 {
		return nil, errorf(ErrBadArgument, Label{}, "Options %+v: MaxJobs and TraceCapacity must be >= 0 (0: the default)", opts)
	}
	maxJobs := cmpOr(opts.MaxJobs, 1<<20)
	procs := runtime.GOMAXPROCS(0)
	p := &Pool{
		id:       poolIDs.Add(1),
		jobs:     newArena[record](maxJobs),
		edges:    newArena[edge](4 * maxJobs),
		parts:    make([]*participant, w+1),
		ec:       newEventCount(w + 1),
		guests:   newEventCount(1),
		traceCap: cmpOr(opts.TraceCapacity, 1<<16),
		sharedPs: procs < w+1,
		t0:       time.Now(),
		owner:    goroutine(),
		observer: walker{seen: make(map[uint32]struct{})},
		waits:    newWaitGraph(w + 1),
	}
	p.epoch.Store(1)
	p.adapter.offP = max(0, 1-float64(procs)/float64(w+1))
	for i := range p.parts {
		p.parts[i] = newParticipant(p, i)
	}
	p.wg.Add(w)
	for _, wk := range p.parts[1:] {
		go p.work(wk)
	}
	return p, nil
}

func cmpOr(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}

// IsOwner reports whether the caller is the pool's owner, the goroutine
// that made it: the one that may Reset it and ask Observed. A program
// that moves its frame loop to another goroutine makes a new pool there.
// Any goroutine may call it.
func (p *Pool) IsOwner() bool { return goroutine() == p.owner }

// Workers is the number of worker goroutines (0 for the serial executor).
func (p *Pool) Workers() int { return len(p.parts) - 1 }

// acquire makes the caller the driver of the owner deque if nobody is, and
// returns the participant to schedule and help as: parts[0], or nil for a
// guest. Any goroutine; the CAS makes one driver at a time. A non-nil
// result must be given back with p.release.
func (p *Pool) acquire() *participant {
	if p.guard.CompareAndSwap(0, 1) {
		return p.parts[0]
	}
	return nil
}

// release gives back the owner deque taken by acquire. Executed only by
// the goroutine that acquired it.
func (p *Pool) release(w *participant) {
	if w != nil {
		p.guard.StoreRelease(0)
	}
}

// Schedule adds a job that runs once every dependency has finished. If a
// dependency fails or is cancelled, the job is Blocked and its body never runs.
// Any goroutine; the owner's jobs go on its deque, others' through the
// injection queue. Inside a job, Ctx.Schedule is faster.
func (p *Pool) Schedule(j Job, deps ...Handle) (Handle, error) {
	if p.closed.Load() {
		return Handle{}, errorf(ErrClosed, j.Label, "the pool is closed; schedule before Close")
	}
	w := p.acquire()
	defer p.release(w)
	return p.schedule(w, j, deps)
}

// ParallelFor runs j.Run over items [0, n) in chunks of batch items: chunk k
// covers [k*batch, min((k+1)*batch, n)), whatever the worker count, and its
// body sees that range in Ctx.Range and k in Ctx.Label().Chunk. It returns a
// handle that finishes when every chunk has. A chunk that panics does not
// stop the others: every chunk runs, and the handle ends Blocked by the
// first failed chunk in chunk order (Wait's error wraps that chunk's
// ErrFailed), whatever the worker count. Any goroutine, as Schedule.
func (p *Pool) ParallelFor(j Job, n, batch int, deps ...Handle) (Handle, error) {
	if p.closed.Load() {
		return Handle{}, errorf(ErrClosed, j.Label, "the pool is closed; schedule before Close")
	}
	w := p.acquire()
	defer p.release(w)
	return p.parallelFor(w, j, n, batch, deps)
}

// Combine returns a handle that finishes when all of hs have. Any goroutine.
func (p *Pool) Combine(hs ...Handle) (Handle, error) {
	return p.Schedule(Job{Label: Label{Name: "combine"}}, hs...)
}

// Wait runs jobs until h has finished and returns its error: nil if it
// succeeded, else an *Error with code ErrFailed, ErrCancelled or ErrBlocked.
// The owner helps; another goroutine sleeps until h is done.
func (p *Pool) Wait(h Handle) error {
	r, err := p.lookup(h)
	if err != nil {
		return err
	}
	g := goroutine()
	if p.inJob(g) {
		return errorf(ErrInsideJob, r.job.Label, "Pool.Wait called from inside a job, which could be waiting on itself; inside a job use its Ctx.Wait")
	}
	w := p.drive(g)
	defer p.leave(w)
	if w == nil {
		p.sleepUntil(r)
	} else if err := p.help(w, h.idx, r); err != nil {
		return err
	}
	if g == p.owner {
		r.flags.Or(flagWaited) // see Observed
	}
	return p.result(r)
}

// Cancel keeps h from starting. It reports true if h had not started
// (cancelled or not by an earlier call): its body will never run, h ends
// Cancelled (even if a prerequisite fails meanwhile: a cancellation wins
// over Blocked) and its dependents are Blocked by it. h ends when it would
// have started, once its prerequisites are done (an untriggered Event
// among them is cancelled by Reset at the latest), and Outcome reads
// Pending until then. For a ParallelFor handle that means its range: true
// if no chunk had started, and then none will. It reports false, changing
// nothing, if h is already running or done. Cancelling an Event ends it
// without a Trigger. Any goroutine may call it.
func (p *Pool) Cancel(h Handle) (bool, error) {
	r, err := p.lookup(h)
	if err != nil {
		return false, err
	}
	if r.root != 0 {
		return cancelRange(r, p.jobs.at(r.root-1)), nil
	}
	if !cancelPending(r) {
		return false, nil
	}
	if r.flags.Load()&flagEvent != 0 {
		p.claimTrigger(nil, h.idx, r, false) // cancelled already: it ends Cancelled
	}
	return true, nil
}

// cancelPending sets r's cancel bit unless r has started, and reports
// whether r is now cancelled before its start. Any goroutine: the CAS
// decides against start's claim.
func cancelPending(r *record) bool {
	for {
		link := r.link.Load()
		if outcomeOf(link) != Pending {
			return false
		}
		if link&cancelBit != 0 || r.link.CompareAndSwap(link, link|cancelBit) {
			return true
		}
	}
}

// cancelRange cancels a ParallelFor through its join and root range job:
// the join first, which cannot start before the root has ended (so that
// the join never ends Blocked by a root this call cancelled), then the
// root; if the root had started, it takes the join's bit back (no Cancel
// can have cancelled the root, so none needs the bit). Any goroutine.
func cancelRange(join, root *record) bool {
	if !cancelPending(join) {
		return false
	}
	if cancelPending(root) {
		return true
	}
	join.link.And(^uint64(cancelBit))
	return false
}

// Outcome reports the state of h. Any goroutine may call it.
func (p *Pool) Outcome(h Handle) (Outcome, error) {
	r, err := p.lookup(h)
	if err != nil {
		return 0, err
	}
	return r.outcome(), nil
}

// Reset starts a new frame: it waits for every scheduled job (helping), then
// forgets them all, so the arena is reused and every earlier Handle becomes
// stale. Executed only by the owner, outside of jobs: inside a job, from
// another goroutine, or while a guest is inside Wait or Schedule, it is
// refused with ErrBusy.
func (p *Pool) Reset() error {
	g := goroutine()
	if p.inJob(g) {
		return errorf(ErrBusy, Label{}, "Reset called from inside a job; call it between frames")
	}
	if g != p.owner {
		return errorf(ErrBusy, Label{}, "Reset called from a goroutine other than the pool's owner; call it from the goroutine that made the pool, between frames")
	}
	w := p.drive(g)
	if w == nil {
		return errorf(ErrBusy, Label{}, "Reset needs the owner: another goroutine is inside Wait or Schedule")
	}
	defer p.leave(w)
	err := p.drain(w, "Reset")
	p.adapt()
	p.finishedFrames += uint64(p.jobs.next.Load()) - w.unused()
	w.slot, w.slotEnd, w.dropped = 0, 0, 0 // the owner's slots reserved ahead go with the arenas
	w.edge, w.edgeEnd = 0, 0
	p.jobs.reset()
	p.edges.reset()
	p.epoch.Add(1)
	return err
}

// Close waits for every accepted job (helping), then stops the workers and
// joins their goroutines. Later Schedules fail with ErrClosed; a second Close
// returns nil. Executed only by the owner, outside of jobs.
func (p *Pool) Close() error {
	g := goroutine()
	if p.inJob(g) {
		return errorf(ErrInsideJob, Label{}, "Pool.Close called from inside a job, which would wait for itself; close the pool from the owner, after the frame's last Wait")
	}
	if p.closed.Swap(true) {
		return nil
	}
	w, err := p.outwait(g)
	if e := p.drain(w, "Close"); err == nil {
		err = e
	}
	p.quit.Store(true)
	p.ec.notify(true)
	p.leave(w)
	p.wg.Wait()
	return err
}

// outwait takes the owner deque for Close (goroutine g) once the guest
// inside Wait or Schedule that holds it, if any, lets go. The guest may be
// asleep behind an event nobody will trigger: before each sleep, outwait
// cancels the open events, as drain would (the guest's Wait then ends),
// and reports it; between sleeps it only looks, so the arena is scanned
// once per sleep, not per look. The sleeps grow from spinFor to spinMax:
// a guest's release wakes nobody, and Schedule holds the deque for
// microseconds. Executed only by the owner, in Close.
func (p *Pool) outwait(g uintptr) (*participant, error) {
	var err error
	nap := spinFor
	for {
		for range spinRounds {
			if w := p.drive(g); w != nil {
				return w, err
			}
			p.relax()
		}
		if e := p.cancelEvents(nil, "Close"); err == nil {
			err = e
		}
		time.Sleep(nap)
		nap = min(2*nap, spinMax)
	}
}

// InJob reports whether the caller is running a job of p: a job body on a
// worker, or on a goroutine that runs jobs while it waits in Wait, Reset
// or Close. Code that a job must not run (an owner-only call) asks it to
// refuse with a clear error. Called by any goroutine.
func (p *Pool) InJob() bool { return p.inJob(goroutine()) }

// Participant is the calling goroutine's index among p's participants,
// as Ctx.Worker numbers them: 0 while it drives the owner's part inside
// Wait, Reset or Close, 1..W on a worker, -1 on any other goroutine (the
// owner outside those calls). Code that needs to know which job runs the
// caller keeps its own record per participant and indexes it with this.
// Called by any goroutine; a few loads, no atomics written.
func (p *Pool) Participant() int { return p.participant(goroutine()) }

// participant is Participant for goroutine g.
// Workers come first: a worker asking (a job's check of its token) then
// reads only its own line, not driver's, which the owner writes on every
// Wait.
func (p *Pool) participant(g uintptr) int {
	for i, w := range p.parts[1:] {
		if w.g.Load() == g {
			return i + 1
		}
	}
	if p.driver.Load() == g {
		return 0
	}
	return -1
}

// inJob reports whether goroutine g is running a job of p: it is one of
// p's workers (which call Pool methods only from job bodies), or it drives
// parts[0] inside Wait, Reset or Close (so it re-entered from a job that it
// runs there). Any goroutine.
func (p *Pool) inJob(g uintptr) bool { return p.participant(g) >= 0 }

// drive is acquire for the calls that run jobs inline (Wait, Reset,
// Close): it also records g as the driver, for inJob. Any goroutine; a
// non-nil result must be given back with leave.
func (p *Pool) drive(g uintptr) *participant {
	w := p.acquire()
	if w != nil {
		p.driver.Store(g)
	}
	return w
}

// leave gives back what drive took. Executed only by the driver.
func (p *Pool) leave(w *participant) {
	if w != nil {
		p.driver.Store(0)
		p.release(w)
	}
}

// lookup resolves a handle of the current frame. Any goroutine may call it.
func (p *Pool) lookup(h Handle) (*record, error) {
	if h.pool != p.id {
		return nil, errorf(ErrForeignHandle, Label{}, "%v was not made by this pool (a zero Handle, or one from another Pool); pass a handle this pool returned", h)
	}
	if h.gen != p.epoch.Load() {
		return nil, errorf(ErrStaleHandle, Label{}, "%v is from before the last Reset; handles are valid only within their frame", h)
	}
	// Not bounded by the arena's count of slots: that line is written by
	// every scheduler but the owner (W4: a miss per Ctx.Wait). A handle of
	// this frame names a slot reserved in it; any other slot's generation
	// is an older frame's, or its block was never made.
	r := p.jobs.find(h.idx)
	if r == nil || r.gen.Load() != h.gen { // reserved but not yet initialised by a concurrent scheduler
		return nil, errorf(ErrStaleHandle, Label{}, "%v is not scheduled yet", h)
	}
	return r, nil
}

// result turns a finished job's outcome into Wait's error. Any goroutine,
// once r is done: its err and cause are final, and a Blocked job's root
// finished before it.
func (p *Pool) result(r *record) error {
	switch r.outcome() {
	case Failed:
		return r.err
	case Cancelled:
		return &Error{Code: ErrCancelled, Msg: "cancelled before it started", Detail: Detail{Job: r.job.Label}}
	case Blocked:
		c := r.cause.Load()
		root := p.jobs.at(uint32(c))
		return &Error{Code: ErrBlocked, Msg: "not run because prerequisite " + root.job.Label.String() + " did not succeed", Err: p.result(root), Detail: Detail{Job: r.job.Label}}
	}
	return nil
}

// Snapshot counts the jobs of the current frame by outcome.
type Snapshot struct {
	Pending, Running, Succeeded, Failed, Cancelled, Blocked int
}

// Snapshot counts the current frame's jobs by outcome. Any goroutine may
// call it; while jobs run it is a moment's approximation.
func (p *Pool) Snapshot() Snapshot {
	var s Snapshot
	gen := p.epoch.Load()
	counts := [...]*int{&s.Pending, &s.Running, &s.Succeeded, &s.Failed, &s.Cancelled, &s.Blocked}
	for i := int64(0); i < p.jobs.used(); i++ {
		r := p.jobs.at(uint32(i))
		if r.gen.Load() == gen {
			*counts[r.outcome()]++
		}
	}
	return s
}

// WorkerStats are one participant's cumulative counters.
type WorkerStats struct {
	Worker        int // 0 is the owner
	Executed      uint64
	Stolen        uint64 // jobs taken from another participant's deque
	StealAttempts uint64
	Parks         uint64
	Wakes         uint64        // parked participants this one woke to take the work it readied
	Busy          time.Duration // running jobs: from finding work to running out of it
}

// Stats appends every participant's counters to dst (owner first) and
// returns it; with enough capacity it allocates nothing. Any goroutine may call it.
func (p *Pool) Stats(dst []WorkerStats) []WorkerStats {
	for _, w := range p.parts {
		dst = append(dst, WorkerStats{
			Worker:        w.id,
			Executed:      w.done.Load(),
			Stolen:        w.stolen.Load(),
			StealAttempts: w.attempts.Load(),
			Parks:         w.parks.Load(),
			Wakes:         w.wakes.Load(),
			Busy:          time.Duration(w.busy.Load()),
		})
	}
	return dst
}
