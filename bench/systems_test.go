package bench

import (
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
)

// A system is one implementation under comparison, started and ready. Each
// method is one op of a workload; the benchmarks and TestResults drive all
// implementations through it.
type system interface {
	// emptyJobs runs n empty jobs scheduled from the caller, then waits once.
	emptyJobs(n int) error
	// parallelFor applies scale to v.x in jobs of chunk items and waits.
	parallelFor(v *vector, chunk int) error
	// wideDAG runs the graph root -> w3Width middle jobs -> join on d.
	wideDAG(d *dag) error
	// fib computes fib(n) by fork-join down to fibCutoff.
	fib(n int) (int64, error)
	// close stops the system's goroutines.
	close() error
}

// An impl names an implementation and starts it. nested tells it that the
// system will run W4, whose jobs wait for jobs they fork; only ants is set up
// differently for that (see newAnts).
type impl struct {
	name string
	open func(nested bool) (system, error)
}

// impls lists the implementations in report order.
var impls = []impl{
	{"weft", openWeft},
	{"serial", func(bool) (system, error) { return serial{}, nil }},
	{"split", openSplit},
	{"goroutines", peer(newGoroutines)},
	{"chanpool", peer(newChanPool)},
	{"errgroup", peer(newErrGroup)},
	{"ants", peer(newAnts)},
}

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

func (serial) wideDAG(d *dag) error {
	d.root()
	for i := range d.slots {
		d.mid(i)
	}
	d.join()
	return nil
}

func (serial) fib(n int) (int64, error) { return fibSerial(n), nil }

func (serial) close() error { return nil }

// errNoSplit is split's answer to the workloads it does not run; measure
// skips them.
var errNoSplit = errors.New("split runs only W2 and W3: W1's jobs and W4's forks have no static division")

// split is no scheduler at all: W2's pass and W3's middle jobs divided
// into one contiguous part per GOMAXPROCS goroutine, the caller taking the
// first. Its parts are equal, its goroutines spin between ops (so none has
// to be woken), and it never balances, steals or tracks a dependency: it
// shows in the same run what the machine gives goroutines that just
// divide the work, the most a scheduler could hope for.
type split struct {
	part func(lo, hi int) // the op's work; written by the caller before epoch
	n    int              // the op's size; likewise
	p    int              // parts per op: workers() when opened

	epoch atomic.Uint64 // ops started; a change starts the helpers' parts
	done  atomic.Uint64 // parts finished by helpers, over all ops
	quit  atomic.Bool   // set by close before its last epoch
	wg    sync.WaitGroup
}

func openSplit(bool) (system, error) {
	s := &split{p: workers()}
	for i := 1; i < s.p; i++ {
		s.wg.Go(func() { s.help(i) })
	}
	return s, nil
}

// help runs part i of every op until close. Executed by helper i only; the
// epoch's load orders its reads of part and n after the caller's writes.
func (s *split) help(i int) {
	for seen := uint64(0); ; {
		for s.epoch.Load() == seen {
			runtime.Gosched() // spins where a P is free, yields where none is
		}
		seen++
		if s.quit.Load() {
			return
		}
		s.part(s.n*i/s.p, s.n*(i+1)/s.p)
		s.done.Add(1)
	}
}

// divide runs part over [0, n) in s.p contiguous parts at once and returns
// when all are done. Executed only by the goroutine that opened s.
func (s *split) divide(n int, part func(lo, hi int)) {
	s.part, s.n = part, n
	e := s.epoch.Add(1)
	part(0, n/s.p)
	for s.done.Load() < e*uint64(s.p-1) {
		runtime.Gosched()
	}
}

func (*split) emptyJobs(int) error { return errNoSplit }

func (s *split) parallelFor(v *vector, _ int) error {
	s.divide(len(v.x), func(lo, hi int) { scale(v.x[lo:hi]) })
	return nil
}

func (s *split) wideDAG(d *dag) error {
	d.root()
	s.divide(len(d.slots), func(lo, hi int) {
		for i := lo; i < hi; i++ {
			d.mid(i)
		}
	})
	d.join()
	return nil
}

func (*split) fib(int) (int64, error) { return 0, errNoSplit }

func (s *split) close() error {
	s.quit.Store(true)
	s.epoch.Add(1)
	s.wg.Wait()
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
// executor and is waited for, then the middle jobs, then the join.
func (s peerSystem) wideDAG(d *dag) error {
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

func (s peerSystem) fib(n int) (int64, error) {
	f := fibFork(s.r, n)
	s.r.Wait() // every fork has been joined; this just ends the batch
	return f, nil
}

// fibFork forks both children through r.TryGo and joins them with a
// WaitGroup. A bounded executor whose every slot is blocked in wg.Wait could
// never run the children it queued, so a child that finds no free slot runs
// inline on the forking goroutine instead (see the runners' TryGo).
func fibFork(r runner, n int) int64 {
	if n < fibCutoff {
		return fibSerial(n)
	}
	var a, b int64
	var wg sync.WaitGroup
	wg.Add(2)
	left := func() { a = fibFork(r, n-1); wg.Done() }
	right := func() { b = fibFork(r, n-2); wg.Done() }
	if !r.TryGo(left) {
		left()
	}
	if !r.TryGo(right) {
		right()
	}
	wg.Wait()
	return a + b
}

func (s peerSystem) close() error { return s.r.Close() }
