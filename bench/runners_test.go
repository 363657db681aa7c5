package bench

import (
	"errors"
	"sync"

	"github.com/panjf2000/ants/v2"
	"golang.org/x/sync/errgroup"
)

// A runner is a peer task executor, the one abstraction peerSystem needs.
// Each is used the way its documentation intends, bounded to GOMAXPROCS
// except goroutines.
type runner interface {
	// Go runs f asynchronously, blocking while the executor is saturated.
	Go(f func())
	// Wait returns once every f given to Go or TryGo since the last Wait
	// has returned.
	Wait()
	// TryGo runs f asynchronously only if that needs neither queueing nor
	// blocking (a slot is free right now) and reports whether it did. The
	// caller runs f itself otherwise: a job blocked waiting for its own
	// children must not sit behind them in a bounded executor (deadlock).
	TryGo(f func()) bool
	Close() error
}

// goroutines starts a goroutine per job and joins them with a WaitGroup.
type goroutines struct{ wg sync.WaitGroup }

func newGoroutines(int, bool) (runner, error) { return new(goroutines), nil }

func (r *goroutines) Go(f func()) {
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		f()
	}()
}

func (r *goroutines) TryGo(f func()) bool { r.Go(f); return true }
func (r *goroutines) Wait()               { r.wg.Wait() }
func (r *goroutines) Close() error        { return nil }

// chanPool is a fixed set of worker goroutines receiving tasks from a
// buffered channel, with a WaitGroup per batch. TryGo hands a task over an
// unbuffered channel instead, which succeeds only when a worker is idle.
type chanPool struct {
	queue   chan task // Go: buffered
	handoff chan task // TryGo: unbuffered
	batch   sync.WaitGroup
	workers sync.WaitGroup
}

type task struct {
	f    func()
	done *sync.WaitGroup
}

// chanQueue is the queue's buffer per worker.
const chanQueue = 64

func newChanPool(n int, _ bool) (runner, error) {
	r := &chanPool{queue: make(chan task, n*chanQueue), handoff: make(chan task)}
	r.workers.Add(n)
	for range n {
		go r.work()
	}
	return r, nil
}

func (r *chanPool) work() {
	defer r.workers.Done()
	for {
		var t task
		select {
		case t = <-r.handoff:
		case q, ok := <-r.queue:
			if !ok {
				return // closed by Close
			}
			t = q
		}
		t.f()
		t.done.Done()
	}
}

func (r *chanPool) Go(f func()) {
	r.batch.Add(1)
	r.queue <- task{f, &r.batch}
}

func (r *chanPool) TryGo(f func()) bool {
	r.batch.Add(1)
	select {
	case r.handoff <- task{f, &r.batch}:
		return true
	default:
		r.batch.Done()
		return false
	}
}

func (r *chanPool) Wait() { r.batch.Wait() }

func (r *chanPool) Close() error {
	close(r.queue)
	r.workers.Wait()
	return nil
}

// errGroup is an errgroup.Group with SetLimit(GOMAXPROCS). errgroup starts a
// goroutine per task (the limit bounds how many are active) and a Group
// should not be reused for different tasks, so every batch gets a new one.
type errGroup struct {
	limit int
	g     *errgroup.Group
}

func newErrGroup(n int, _ bool) (runner, error) {
	r := &errGroup{limit: n}
	r.reset()
	return r, nil
}

func (r *errGroup) reset() {
	r.g = new(errgroup.Group)
	r.g.SetLimit(r.limit)
}

func (r *errGroup) Go(f func())         { r.g.Go(func() error { f(); return nil }) }
func (r *errGroup) TryGo(f func()) bool { return r.g.TryGo(func() error { f(); return nil }) }

func (r *errGroup) Wait() {
	_ = r.g.Wait() // tasks return nil
	r.reset()
}

func (r *errGroup) Close() error { return nil }

// antsPool is an ants.Pool of GOMAXPROCS workers with a WaitGroup per batch.
// Submit blocks while all workers are busy, which a nested fork-join cannot
// afford, so for W4 (nested) the pool is made non-blocking, as the ants
// documentation advises for submitting from a task: Submit then fails with
// ErrPoolOverload instead, and TryGo reports false.
type antsPool struct {
	pool        *ants.Pool
	nonblocking bool
	wg          sync.WaitGroup
}

func newAnts(n int, nested bool) (runner, error) {
	p, err := ants.NewPool(n, ants.WithNonblocking(nested))
	if err != nil {
		return nil, err
	}
	return &antsPool{pool: p, nonblocking: nested}, nil
}

// submit submits f, counted in the batch if accepted.
func (r *antsPool) submit(f func()) error {
	r.wg.Add(1)
	err := r.pool.Submit(func() {
		defer r.wg.Done()
		f()
	})
	if err != nil {
		r.wg.Done()
	}
	return err
}

func (r *antsPool) Go(f func()) {
	err := r.submit(f)
	if errors.Is(err, ants.ErrPoolOverload) {
		f() // non-blocking mode only: the caller runs the task
	} else if err != nil {
		panic(err) // ErrPoolClosed: a bug in this package
	}
}

func (r *antsPool) TryGo(f func()) bool {
	if !r.nonblocking {
		panic("bench: ants TryGo on a blocking pool would block; open it nested")
	}
	err := r.submit(f)
	if err != nil && !errors.Is(err, ants.ErrPoolOverload) {
		panic(err)
	}
	return err == nil
}

func (r *antsPool) Wait() { r.wg.Wait() }

func (r *antsPool) Close() error {
	r.pool.Release()
	return nil
}
