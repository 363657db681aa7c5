package bench

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/weft-engine/weft/bench/internal/pin"
	spinwait "github.com/weft-engine/weft/internal/spin"
)

// A system is one implementation under comparison, started and ready. Each
// method is one op of a workload; the benchmarks and TestResults drive all
// implementations through it.
type system interface {
	// emptyJobs runs n empty jobs scheduled from the caller, then waits once.
	emptyJobs(n int) error
	// parallelFor applies scale to v.x in jobs of chunk items and waits.
	parallelFor(v *vector, chunk int) error
	// wideDAG runs the graph root -> w3Width middle jobs -> join on d,
	// the middle jobs in form f.
	wideDAG(d *dag, f dagForm) error
	// fib computes fib(n) by fork-join down to fibCutoff, forking in form f.
	fib(n int, f forkForm) (int64, error)
	// close stops the system's goroutines.
	close() error
}

// An impl names an implementation and starts it. nested tells it that the
// system will run W4, whose jobs wait for jobs they fork; only ants is set up
// differently for that (see newAnts). A scheduler runs W3 and W4 in each
// of their forms, a sub-benchmark each; the baselines (serial, pinned)
// have one form.
type impl struct {
	name      string
	open      func(nested bool) (system, error)
	scheduler bool
}

// impls lists the implementations in report order.
var impls = []impl{
	{"weft", openWeft, true},
	{"serial", func(bool) (system, error) { return serial{}, nil }, false},
	{"pinned", openPinned, false},
	{"goroutines", peer(newGoroutines), true},
	{"chanpool", peer(newChanPool), true},
	{"errgroup", peer(newErrGroup), true},
	{"ants", peer(newAnts), true},
}

// A dagForm is how W3's middle jobs are scheduled; its String is the
// sub-benchmark's name.
type dagForm int

const (
	// dagJobs: w3Width jobs, each after the root, the join after all.
	dagJobs dagForm = iota
	// dagRange: one range of w3Width items after the root (weft's
	// ParallelFor, enkiTS's one task set), split as the scheduler sees fit.
	dagRange
	// dagPlan: dagJobs's graph built once and run every op (weft's
	// jobs.Plan), as the C++ peers run their form=1000jobs.
	dagPlan
)

var dagForms = []dagForm{dagJobs, dagRange, dagPlan}

func (f dagForm) String() string {
	return [...]string{"form=1000jobs", "form=1range", "form=1000jobs-plan"}[f]
}

// A forkForm is how W4 forks; its String is the sub-benchmark's name.
type forkForm int

const (
	// fork2: both children scheduled, then both waited for.
	fork2 forkForm = iota
	// fork1Inline: one child scheduled where others may steal it, the
	// other run inline by the forking job, then the first waited for.
	fork1Inline
)

var forkForms = []forkForm{fork2, fork1Inline}

func (f forkForm) String() string { return [...]string{"fork=2", "fork=1+inline"}[f] }

// errNoForm is the answer of an implementation that cannot express a form
// of a workload (or, for pinned, the workload): measure skips it.
var errNoForm = errors.New("this implementation has no such form of the workload")

// serial is the baseline: every workload as a plain loop (or plain
// recursion) on the caller.
type serial struct{}

func (serial) emptyJobs(n int) error {
	for range n {
		emptyJob()
	}
	return nil
}

func (serial) parallelFor(v *vector, _ int) error {
	scale(v.x)
	return nil
}

func (serial) wideDAG(d *dag, _ dagForm) error {
	d.root()
	for i := range d.slots {
		d.mid(i)
	}
	d.join()
	return nil
}

func (serial) fib(n int, _ forkForm) (int64, error) { return fibSerial(n), nil }

func (serial) close() error { return nil }

// errNoStatic is pinned's answer to the workloads it does not run; measure
// skips them.
var errNoStatic = fmt.Errorf("pinned runs only W2 and W3, whose work divides statically: %w", errNoForm)

// pinned is no scheduler at all but the machine's ceiling in the same run:
// W2's pass and W3's middle jobs shared between one thread per GOMAXPROCS,
// the caller among them, every thread locked to its own CPU
// (internal/pin: runtime.LockOSThread and sched_setaffinity, as
// cmd/corecheck does). The threads take the op's items from one shared
// counter in guided grains (each a 2·threads-th of what is left, so a
// pass is a few dozen takes), so that a thread whose memory or core is
// slower takes fewer of them: on a VM one part of a 16 MB array can
// stream at half the speed of another, and equal halves fixed in advance
// measure the slower part, not the cores. Its helpers
// spin on their own cores between ops (so none is woken, queued by the Go
// scheduler or moved to another core), and it never steals, queues or
// tracks a dependency: what the cores give, the most a scheduler could
// hope for.
type pinned struct {
	part func(lo, hi int) // the op's work on items [lo, hi); written by the caller before epoch
	n    int              // the op's items; likewise
	p    int              // threads: workers() when opened
	undo func()           // unpins the caller (close)

	next  atomic.Int64  // the first item not yet taken
	epoch atomic.Uint64 // ops started; a change starts the helpers
	done  atomic.Uint64 // ops finished by helpers, summed over helpers
	quit  atomic.Bool   // set by close before its last epoch
	wg    sync.WaitGroup
}

// openPinned pins the caller, the goroutine that will run the ops and
// close, to CPU 0 and starts a helper pinned to each other CPU. Where the
// CPUs cannot be fixed (not Linux) it answers errNoForm: threads that
// move are no ceiling.
func openPinned(bool) (system, error) {
	s := &pinned{p: workers()}
	undo, err := pin.CPU(0)
	s.undo = undo
	if err != nil {
		undo()
		return nil, fmt.Errorf("%w: %w", errNoForm, err)
	}
	ready := make(chan error, s.p)
	for i := 1; i < s.p; i++ {
		s.wg.Go(func() { s.help(i, ready) })
	}
	for i := 1; i < s.p; i++ {
		if e := <-ready; e != nil && err == nil {
			err = e
		}
	}
	if err != nil {
		s.close()
		return nil, fmt.Errorf("%w: %w", errNoForm, err)
	}
	return s, nil
}

// help pins helper i to CPU i, then takes grains of every op until close.
// Executed by helper i only; the epoch's load orders its reads of part
// and n after the caller's writes.
func (s *pinned) help(i int, ready chan<- error) {
	undo, err := pin.CPU(i)
	defer undo()
	ready <- err
	for seen := uint64(0); ; {
		for s.epoch.Load() == seen { // on a core of its own: nothing to yield to
			spinwait.Pause(1) // the hint leaves a hardware thread sharing the core its share
		}
		seen++
		if s.quit.Load() {
			return
		}
		s.take()
		s.done.Add(1)
	}
}

// take runs grains until none is left. Executed by the caller and the
// helpers at once during an op.
func (s *pinned) take() {
	for {
		lo := s.next.Load()
		if lo >= int64(s.n) {
			return
		}
		hi := lo + max((int64(s.n)-lo)/int64(2*s.p), 1)
		if s.next.CompareAndSwap(lo, hi) {
			s.part(int(lo), int(hi))
		}
	}
}

// divide runs part over [0, n) on all threads at once and returns when
// all are done. Executed only by the goroutine that opened s.
func (s *pinned) divide(n int, part func(lo, hi int)) {
	s.part, s.n = part, n
	s.next.Store(0)
	e := s.epoch.Add(1)
	s.take()
	for s.done.Load() < e*uint64(s.p-1) {
		spinwait.Pause(1)
	}
}

func (*pinned) emptyJobs(int) error { return errNoStatic }

func (s *pinned) parallelFor(v *vector, _ int) error {
	s.divide(len(v.x), func(lo, hi int) { scale(v.x[lo:hi]) })
	return nil
}

func (s *pinned) wideDAG(d *dag, _ dagForm) error {
	d.root()
	s.divide(len(d.slots), func(lo, hi int) {
		for i := lo; i < hi; i++ {
			d.mid(i)
		}
	})
	d.join()
	return nil
}

func (*pinned) fib(int, forkForm) (int64, error) { return 0, errNoStatic }

// close stops the helpers and unpins the caller. Executed only by the
// goroutine that opened s.
func (s *pinned) close() error {
	s.quit.Store(true)
	s.epoch.Add(1)
	s.wg.Wait()
	s.undo()
	return nil
}

// peer adapts a runner constructor to an impl's open function.
func peer(newRunner func(workers int, nested bool) (runner, error)) func(bool) (system, error) {
	return func(nested bool) (system, error) {
		r, err := newRunner(workers(), nested)
		if err != nil {
			return nil, err
		}
		return peerSystem{r}, nil
	}
}

// peerSystem implements the workloads once, generically, over a runner: the
// natural way to write them with a task executor that has no dependencies.
// Each op is one batch that ends with r.Wait.
type peerSystem struct{ r runner }

func (s peerSystem) emptyJobs(n int) error {
	for range n {
		s.r.Go(emptyJob)
	}
	s.r.Wait()
	return nil
}

func (s peerSystem) parallelFor(v *vector, chunk int) error {
	for lo := 0; lo < len(v.x); lo += chunk {
		part := v.x[lo:min(lo+chunk, len(v.x))]
		s.r.Go(func() { scale(part) })
	}
	s.r.Wait()
	return nil
}

// wideDAG turns each dependency edge into a barrier: the root runs on the
// executor and is waited for, then the middle jobs, then the join. The
// executors have no range form.
func (s peerSystem) wideDAG(d *dag, f dagForm) error {
	if f != dagJobs {
		return errNoForm
	}
	s.r.Go(d.root)
	s.r.Wait()
	for i := range d.slots {
		s.r.Go(func() { d.mid(i) })
	}
	s.r.Wait()
	s.r.Go(d.join)
	s.r.Wait()
	return nil
}

func (s peerSystem) fib(n int, f forkForm) (int64, error) {
	x := fibFork(s.r, n, f)
	s.r.Wait() // every fork has been joined; this just ends the batch
	return x, nil
}

// fibFork forks through r.TryGo and joins with a WaitGroup: both children
// (fork2), or the left one while the right runs inline (fork1Inline). A
// bounded executor whose every slot is blocked in wg.Wait could never run
// the children it queued, so a child that finds no free slot runs inline
// on the forking goroutine instead (see the runners' TryGo).
func fibFork(r runner, n int, f forkForm) int64 {
	if n < fibCutoff {
		return fibSerial(n)
	}
	var a, b int64
	var wg sync.WaitGroup
	wg.Add(1)
	left := func() { a = fibFork(r, n-1, f); wg.Done() }
	if !r.TryGo(left) {
		left()
	}
	if f == fork1Inline {
		b = fibFork(r, n-2, f)
	} else {
		wg.Add(1)
		right := func() { b = fibFork(r, n-2, f); wg.Done() }
		if !r.TryGo(right) {
			right()
		}
	}
	wg.Wait()
	return a + b
}

func (s peerSystem) close() error { return s.r.Close() }
