package jobs

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/weft-engine/weft/internal/fault"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// workerCounts are the pool sizes every contract is checked on; 0 is the oracle.
var workerCounts = []int{0, 1, 2, 4, 8}

// eachPool runs f on a fresh pool of every size and closes it.
func eachPool(t *testing.T, f func(t *testing.T, p *Pool)) {
	for _, w := range workerCounts {
		t.Run(fmt.Sprintf("W=%d", w), func(t *testing.T) {
			p, err := New(Options{Workers: w})
			require.NoError(t, err)
			defer func() { require.NoError(t, p.Close()) }()
			f(t, p)
		})
	}
}

func mustSchedule(t testing.TB, p *Pool, j Job, deps ...Handle) Handle {
	t.Helper()
	h, err := p.Schedule(j, deps...)
	require.NoError(t, err)
	return h
}

func requireCode(t *testing.T, err error, code fault.Code) *Error {
	t.Helper()
	var e *Error
	require.ErrorAs(t, err, &e)
	require.Equal(t, code, e.Code, "error: %v", err)
	require.ErrorIs(t, err, &Error{Code: code})
	return e
}

func TestRecordIsTwoCacheLines(t *testing.T) {
	assert.Equal(t, uintptr(128), unsafe.Sizeof(record{}))
}

func TestNewOptions(t *testing.T) {
	p, err := New(Options{Workers: DefaultWorkers})
	require.NoError(t, err)
	assert.Equal(t, max(1, runtime.GOMAXPROCS(0)-1), p.Workers())
	require.NoError(t, p.Close())

	for _, o := range []Options{{Workers: -2}, {Workers: MaxWorkers + 1}, {Workers: 10000}, {MaxJobs: -1}, {TraceCapacity: -1}} {
		_, err := New(o)
		requireCode(t, err, ErrBadArgument)
	}
	p, err = New(Options{Workers: MaxWorkers})
	require.NoError(t, err)
	assert.Equal(t, MaxWorkers, p.Workers())
	require.NoError(t, p.Close())
}

// ResolveWorkers is the one place a worker count is resolved and bounded:
// New starts what it returns and refuses what it refuses.
func TestResolveWorkers(t *testing.T) {
	for _, n := range []int{0, 1, 7, MaxWorkers} {
		w, err := ResolveWorkers(n)
		require.NoError(t, err)
		assert.Equal(t, n, w)
	}
	w, err := ResolveWorkers(DefaultWorkers)
	require.NoError(t, err)
	assert.Equal(t, min(MaxWorkers, max(1, runtime.GOMAXPROCS(0)-1)), w)
	for _, n := range []int{-2, MaxWorkers + 1, 10000} {
		_, err := ResolveWorkers(n)
		e := requireCode(t, err, ErrBadArgument)
		assert.Contains(t, e.Msg, fmt.Sprintf("Workers = %d", n))
		assert.Contains(t, e.Msg, "MaxWorkers")
	}
}

func TestDependenciesOrderJobs(t *testing.T) {
	eachPool(t, func(t *testing.T, p *Pool) {
		var log []int
		var mu sync.Mutex
		step := func(i int) Job {
			return Job{Label: Label{Name: "step", Chunk: i}, Run: func(*Ctx) { mu.Lock(); log = append(log, i); mu.Unlock() }}
		}
		a := mustSchedule(t, p, step(0))
		b := mustSchedule(t, p, step(1), a)
		c := mustSchedule(t, p, step(2), a)
		d := mustSchedule(t, p, step(3), b, c)
		require.NoError(t, p.Wait(d))
		require.Len(t, log, 4)
		assert.Equal(t, 0, log[0])
		assert.Equal(t, 3, log[3])
		for _, h := range []Handle{a, b, c, d} {
			o, err := p.Outcome(h)
			require.NoError(t, err)
			assert.Equal(t, Succeeded, o)
		}
	})
}

func TestDependencyOnFinishedJob(t *testing.T) {
	eachPool(t, func(t *testing.T, p *Pool) {
		ran := false
		a := mustSchedule(t, p, Job{Run: func(*Ctx) {}})
		require.NoError(t, p.Wait(a))
		b := mustSchedule(t, p, Job{Run: func(*Ctx) { ran = true }}, a, a)
		require.NoError(t, p.Wait(b))
		assert.True(t, ran)
	})
}

func TestHandleErrors(t *testing.T) {
	p, err := New(Options{Workers: 1})
	require.NoError(t, err)
	other, err := New(Options{Workers: 0})
	require.NoError(t, err)
	defer p.Close()
	defer other.Close()

	h := mustSchedule(t, p, Job{})
	require.NoError(t, p.Wait(h))
	foreign := mustSchedule(t, other, Job{})

	requireCode(t, p.Wait(Handle{}), ErrForeignHandle)
	requireCode(t, p.Wait(foreign), ErrForeignHandle)
	_, err = p.Schedule(Job{}, foreign)
	requireCode(t, err, ErrForeignHandle)

	require.NoError(t, p.Reset())
	requireCode(t, p.Wait(h), ErrStaleHandle)
	_, err = p.Outcome(h)
	requireCode(t, err, ErrStaleHandle)
	_, err = p.Cancel(h)
	requireCode(t, err, ErrStaleHandle)
	_, err = p.Schedule(Job{}, h)
	requireCode(t, err, ErrStaleHandle)
	// A fresh job reusing the same slot does not make the old handle valid.
	h2 := mustSchedule(t, p, Job{})
	assert.Equal(t, h.Index(), h2.Index())
	requireCode(t, p.Wait(h), ErrStaleHandle)
	require.NoError(t, p.Wait(h2))
}

func TestBadArguments(t *testing.T) {
	p, err := New(Options{Workers: 0})
	require.NoError(t, err)
	defer p.Close()
	other, err := New(Options{Workers: 0})
	require.NoError(t, err)
	defer other.Close()
	run := func(*Ctx) {}
	_, err = p.Schedule(Job{Priority: 7})
	requireCode(t, err, ErrBadArgument)
	_, err = p.Schedule(Job{Pipe: other.NewPipe("x")})
	requireCode(t, err, ErrBadArgument)
	for _, c := range []struct {
		j        Job
		n, batch int
	}{{Job{Run: run}, -1, 1}, {Job{Run: run}, 10, 0}, {Job{}, 10, 1}, {Job{Run: run, Pipe: p.NewPipe("p")}, 10, 1}} {
		_, err = p.ParallelFor(c.j, c.n, c.batch)
		requireCode(t, err, ErrBadArgument)
	}
}

func TestArenaFull(t *testing.T) {
	p, err := New(Options{Workers: 1, MaxJobs: 3})
	require.NoError(t, err)
	defer p.Close()
	for range 3 {
		mustSchedule(t, p, Job{})
	}
	_, err = p.Schedule(Job{Label: Label{Name: "fourth"}})
	e := requireCode(t, err, ErrArenaFull)
	assert.Equal(t, "fourth", e.Detail.Job.Name)
	assert.Contains(t, err.Error(), "call Reset between frames or raise Options.MaxJobs")
	require.NoError(t, p.Reset())
	h := mustSchedule(t, p, Job{})
	require.NoError(t, p.Wait(h))
}

// TestEdgeArenaFull: the owner reserves edges ahead in ranges, and still
// every one of the 4·MaxJobs edges can be used before a job is refused.
func TestEdgeArenaFull(t *testing.T) {
	for _, w := range workerCounts {
		t.Run(fmt.Sprintf("W=%d", w), func(t *testing.T) {
			p, err := New(Options{Workers: w, MaxJobs: 100}) // 400 edges
			require.NoError(t, err)
			defer func() { require.NoError(t, p.Close()) }()
			edgeArenaFrames(t, p)
		})
	}
}

// edgeArenaFrames fills the edge arena twice, with a Reset between: ten
// roots, then forty jobs that each depend on all ten.
func edgeArenaFrames(t *testing.T, p *Pool) {
	for range 2 { // the second frame: Reset gave every edge back
		roots := make([]Handle, 10)
		for i := range roots {
			roots[i] = mustSchedule(t, p, Job{})
		}
		for range 40 {
			mustSchedule(t, p, Job{}, roots...)
		}
		_, err := p.Schedule(Job{Label: Label{Name: "41st"}}, roots...)
		requireCode(t, err, ErrArenaFull)
		assert.Contains(t, err.Error(), "more than 400 dependency edges")
		require.NoError(t, p.Reset())
	}
}

// TestReserveAhead: a range grows in place while nobody else reserves, and
// moves (its rest dropped) when somebody did; near the limit it takes no
// more than asked.
func TestReserveAhead(t *testing.T) {
	a := newArena[edge](300)
	var next, end uint32
	take := func(k int) uint32 {
		t.Helper()
		first, ok := reserveAhead(a, &next, &end, k)
		require.True(t, ok, "reserveAhead(%d)", k)
		return first
	}
	assert.Equal(t, uint32(0), take(3))
	assert.Equal(t, [2]uint32{3, ownerSlots}, [2]uint32{next, end})
	assert.Equal(t, uint32(3), take(61))  // the range's exact rest
	assert.Equal(t, uint32(64), take(10)) // grown in place
	_, ok := a.reserve(5)                 // another goroutine: [128, 133)
	require.True(t, ok)
	assert.Equal(t, uint32(74), take(54))  // the rest of [64, 128)
	assert.Equal(t, uint32(133), take(70)) // moved past the other's slots
	assert.Equal(t, [2]uint32{203, 203}, [2]uint32{next, end})
	assert.Equal(t, uint32(203), take(10)) // 97 left < 2·64: exactly 10
	assert.Equal(t, [2]uint32{213, 213}, [2]uint32{next, end})
	assert.Equal(t, uint32(213), take(87))
	_, ok = reserveAhead(a, &next, &end, 1)
	assert.False(t, ok, "the arena is full")
	assert.Equal(t, int64(300), a.used())
}

func TestPanicBecomesFailure(t *testing.T) {
	eachPool(t, func(t *testing.T, p *Pool) {
		h := mustSchedule(t, p, Job{Label: Label{Name: "boom", Chunk: 3}, Run: func(*Ctx) { panic("kaboom") }})
		err := p.Wait(h)
		e := requireCode(t, err, ErrFailed)
		assert.Equal(t, "kaboom", e.Detail.Panic)
		assert.Contains(t, string(e.Detail.Stack), "pool_test.go")
		assert.Equal(t, `jobs: WEFT-J005 "boom"[3]: panic: kaboom`, err.Error())
		o, _ := p.Outcome(h)
		assert.Equal(t, Failed, o)
	})
}

func TestBlockedAndUnrelatedBranches(t *testing.T) {
	eachPool(t, func(t *testing.T, p *Pool) {
		var ranAfter, unrelated atomic.Bool
		bad := mustSchedule(t, p, Job{Label: Label{Name: "bad"}, Run: func(*Ctx) { panic("no") }})
		mid := mustSchedule(t, p, Job{Label: Label{Name: "mid"}, Run: func(*Ctx) { ranAfter.Store(true) }}, bad)
		leaf := mustSchedule(t, p, Job{Label: Label{Name: "leaf"}, Run: func(*Ctx) { ranAfter.Store(true) }}, mid)
		free := mustSchedule(t, p, Job{Run: func(*Ctx) { unrelated.Store(true) }})
		err := p.Wait(leaf)
		e := requireCode(t, err, ErrBlocked)
		assert.Equal(t, "leaf", e.Detail.Job.Name)
		assert.ErrorIs(t, err, ErrFailed, "the cause is the root failure")
		assert.Contains(t, err.Error(), `prerequisite "bad"[0] did not succeed`)
		assert.False(t, ranAfter.Load())
		require.NoError(t, p.Wait(free))
		assert.True(t, unrelated.Load())
		o, _ := p.Outcome(mid)
		assert.Equal(t, Blocked, o)
	})
}

// gate returns a job that holds its dependents back until open is called,
// so that cancellations are deterministic on every pool size.
func gate(t *testing.T, p *Pool) (Handle, func()) {
	release := make(chan struct{})
	h := mustSchedule(t, p, Job{Label: Label{Name: "gate"}, Run: func(*Ctx) { <-release }})
	return h, func() { close(release) }
}

func TestCancel(t *testing.T) {
	eachPool(t, func(t *testing.T, p *Pool) {
		g, open := gate(t, p)
		ran := atomic.Bool{}
		c := mustSchedule(t, p, Job{Label: Label{Name: "c"}, Run: func(*Ctx) { ran.Store(true) }}, g)
		dep := mustSchedule(t, p, Job{Run: func(*Ctx) { ran.Store(true) }}, c)
		requireCancel(t, p, c, true)
		open()
		requireCode(t, p.Wait(c), ErrCancelled)
		err := p.Wait(dep)
		requireCode(t, err, ErrBlocked)
		assert.ErrorIs(t, err, ErrCancelled)
		assert.False(t, ran.Load())
		// Cancelling a finished job changes nothing, and says so.
		require.NoError(t, p.Wait(g))
		requireCancel(t, p, g, false)
		require.NoError(t, p.Wait(g))
	})
}

func requireCancel(t *testing.T, p *Pool, h Handle, took bool) {
	t.Helper()
	got, err := p.Cancel(h)
	require.NoError(t, err)
	require.Equal(t, took, got, "Cancel took effect")
}

func TestFailureDominatesCancellation(t *testing.T) {
	eachPool(t, func(t *testing.T, p *Pool) {
		g, open := gate(t, p)
		cancelled := mustSchedule(t, p, Job{Label: Label{Name: "cancelled"}}, g)
		failed := mustSchedule(t, p, Job{Label: Label{Name: "failed"}, Run: func(*Ctx) { panic("x") }}, g)
		// Both orders of prerequisites give the failure as the cause.
		j1 := mustSchedule(t, p, Job{}, cancelled, failed)
		j2 := mustSchedule(t, p, Job{}, failed, cancelled)
		requireCancel(t, p, cancelled, true)
		open()
		for _, h := range []Handle{j1, j2} {
			err := p.Wait(h)
			requireCode(t, err, ErrBlocked)
			assert.ErrorIs(t, err, ErrFailed)
			assert.NotErrorIs(t, err, ErrCancelled)
		}
	})
}

// Between two failures the blocked job names the one scheduled first,
// whichever finished first: the same answer on every worker count.
func TestBlockedNamesTheEarliestScheduledFailure(t *testing.T) {
	eachPool(t, func(t *testing.T, p *Pool) {
		g, open := gate(t, p)
		f1 := mustSchedule(t, p, Job{Label: Label{Name: "f1"}, Run: func(*Ctx) { panic("one") }}, g)
		f2 := mustSchedule(t, p, Job{Label: Label{Name: "f2"}, Run: func(*Ctx) { panic("two") }})
		d := mustSchedule(t, p, Job{Label: Label{Name: "d"}}, f2, f1)
		requireCode(t, p.Wait(f2), ErrFailed) // f2 fails first
		open()
		e := requireCode(t, p.Wait(d), ErrBlocked)
		var root *Error
		require.ErrorAs(t, e.Err, &root)
		assert.Equal(t, "f1", root.Detail.Job.Name)
	})
}

// A cancelled job whose prerequisite later fails ends Cancelled (J006),
// not Blocked: the cancellation came first and wins. Its dependents are
// Blocked by the cancelled job, not by the failure behind it.
func TestCancelWinsOverALaterFailure(t *testing.T) {
	eachPool(t, func(t *testing.T, p *Pool) {
		g, open := gate(t, p)
		failed := mustSchedule(t, p, Job{Label: Label{Name: "failed"}, Run: func(*Ctx) { panic("x") }}, g)
		b := mustSchedule(t, p, Job{Label: Label{Name: "b"}}, failed)
		after := mustSchedule(t, p, Job{Label: Label{Name: "after"}}, b)
		requireCancel(t, p, b, true)
		requireCancel(t, p, b, true) // again: still not started, still cancelled
		open()
		requireCode(t, p.Wait(failed), ErrFailed)
		requireCode(t, p.Wait(b), ErrCancelled)
		err := p.Wait(after)
		requireCode(t, err, ErrBlocked)
		assert.ErrorIs(t, err, ErrCancelled)
		assert.NotErrorIs(t, err, ErrFailed)
		assert.Contains(t, err.Error(), `prerequisite "b"[0] did not succeed`)
		requireCancel(t, p, b, false) // done now
	})
}

// A job whose prerequisite failed is claimed before it ends Blocked, so a
// Cancel racing with that reports false, and a Cancel that reports true
// always ends it Cancelled: whichever comes first, the answer and the end
// agree. (A property of every interleaving, checked over many.)
func TestCancelAgreesWithTheEnd(t *testing.T) {
	eachPool(t, func(t *testing.T, p *Pool) {
		for range 2000 {
			f := mustSchedule(t, p, Job{Label: Label{Name: "f"}, Run: func(*Ctx) { panic("x") }})
			h := mustSchedule(t, p, Job{Label: Label{Name: "h"}}, f)
			requireCode(t, p.Wait(f), ErrFailed)
			took, err := p.Cancel(h)
			require.NoError(t, err)
			want := ErrBlocked
			if took {
				want = ErrCancelled
			}
			requireCode(t, p.Wait(h), want)
			require.NoError(t, p.Reset())
		}
	})
}

// Cancel on a ParallelFor handle cancels its range: before any chunk
// started it reports true and no chunk runs; once one runs it reports
// false and every chunk runs.
func TestCancelParallelFor(t *testing.T) {
	eachPool(t, func(t *testing.T, p *Pool) {
		g, open := gate(t, p)
		var ran atomic.Int32
		pf, err := p.ParallelFor(Job{Label: Label{Name: "pf"}, Run: func(*Ctx) { ran.Add(1) }}, 10, 1, g)
		require.NoError(t, err)
		requireCancel(t, p, pf, true)
		requireCancel(t, p, pf, true) // again: still not started
		open()
		requireCode(t, p.Wait(pf), ErrCancelled)
		assert.Equal(t, int32(0), ran.Load(), "chunks run after Cancel reported true")

		started, release := make(chan struct{}), make(chan struct{})
		var took bool
		var cancelErr error
		pf2, err := p.ParallelFor(Job{Label: Label{Name: "pf2"}, Run: func(c *Ctx) {
			if lo, _ := c.Range(); lo == 0 {
				close(started)
				<-release
			}
			ran.Add(1)
		}}, 10, 1)
		require.NoError(t, err)
		go func() { // a guest: the owner runs chunks inside Wait with W=0
			<-started
			took, cancelErr = p.Cancel(pf2)
			close(release)
		}()
		require.NoError(t, p.Wait(pf2))
		require.NoError(t, cancelErr)
		assert.False(t, took)
		assert.Equal(t, int32(10), ran.Load())
	})
}

// Cancel on a running job reports false and changes nothing.
func TestCancelRunningJob(t *testing.T) {
	eachPool(t, func(t *testing.T, p *Pool) {
		started, release := make(chan struct{}), make(chan struct{})
		var took bool
		var cancelErr error
		h := mustSchedule(t, p, Job{Run: func(c *Ctx) {
			close(started)
			<-release
		}})
		// The owner cannot block on started with W=0 (the job runs inside
		// Wait), so a guest cancels once the body has begun.
		go func() {
			<-started
			took, cancelErr = p.Cancel(h)
			close(release)
		}()
		require.NoError(t, p.Wait(h))
		require.NoError(t, cancelErr)
		assert.False(t, took)
	})
}

func TestCombine(t *testing.T) {
	eachPool(t, func(t *testing.T, p *Pool) {
		var n atomic.Int32
		hs := make([]Handle, 50)
		for i := range hs {
			hs[i] = mustSchedule(t, p, Job{Run: func(*Ctx) { n.Add(1) }})
		}
		all, err := p.Combine(hs...)
		require.NoError(t, err)
		require.NoError(t, p.Wait(all))
		assert.Equal(t, int32(50), n.Load())
		none, err := p.Combine()
		require.NoError(t, err)
		require.NoError(t, p.Wait(none))
	})
}

func TestParallelForChunks(t *testing.T) {
	eachPool(t, func(t *testing.T, p *Pool) {
		for _, c := range []struct{ n, batch int }{{0, 4}, {1, 4}, {10, 3}, {1000, 7}, {4096, 64}, {5, 100}} {
			seen := make([]int32, c.n)
			var chunks sync.Map
			h, err := p.ParallelFor(Job{Label: Label{Name: "pf"}, Run: func(ctx *Ctx) {
				lo, hi := ctx.Range()
				k := ctx.Label().Chunk
				assert.Equal(t, k*c.batch, lo)
				assert.Equal(t, min(lo+c.batch, c.n), hi)
				assert.Equal(t, "pf", ctx.Label().Name)
				_, dup := chunks.LoadOrStore(k, true)
				assert.False(t, dup, "chunk %d ran twice", k)
				for i := lo; i < hi; i++ {
					atomic.AddInt32(&seen[i], 1)
				}
			}}, c.n, c.batch)
			require.NoError(t, err)
			require.NoError(t, p.Wait(h))
			for i, s := range seen {
				require.Equal(t, int32(1), s, "item %d of n=%d batch=%d", i, c.n, c.batch)
			}
			require.NoError(t, p.Reset())
		}
	})
}

func TestParallelForDepsAndFailure(t *testing.T) {
	eachPool(t, func(t *testing.T, p *Pool) {
		var before atomic.Bool
		first := mustSchedule(t, p, Job{Run: func(*Ctx) { before.Store(true) }})
		var ok atomic.Bool
		ok.Store(true)
		h, err := p.ParallelFor(Job{Run: func(*Ctx) {
			if !before.Load() {
				ok.Store(false)
			}
		}}, 100, 3, first)
		require.NoError(t, err)
		require.NoError(t, p.Wait(h))
		assert.True(t, ok.Load())

		bad, err := p.ParallelFor(Job{Label: Label{Name: "bad"}, Run: func(c *Ctx) {
			if c.Label().Chunk == 5 {
				panic("chunk 5")
			}
		}}, 100, 3)
		require.NoError(t, err)
		err = p.Wait(bad)
		requireCode(t, err, ErrBlocked)
		assert.ErrorIs(t, err, ErrFailed)
		assert.Contains(t, err.Error(), "chunk 5")

		failedDep := mustSchedule(t, p, Job{Run: func(*Ctx) { panic("dep") }})
		blocked, err := p.ParallelFor(Job{Run: func(*Ctx) { t.Error("ran after a failed prerequisite") }}, 10, 1, failedDep)
		require.NoError(t, err)
		requireCode(t, p.Wait(blocked), ErrBlocked)
	})
}

func TestNestedForkJoin(t *testing.T) {
	var fib func(c *Ctx)
	fib = func(c *Ctx) {
		n := c.Data().(*[2]int)
		if n[0] < 2 {
			n[1] = n[0]
			return
		}
		a, b := &[2]int{n[0] - 1, 0}, &[2]int{n[0] - 2, 0}
		ha, err := c.Schedule(Job{Run: fib, Data: a})
		if err != nil {
			panic(err)
		}
		hb, err := c.Schedule(Job{Run: fib, Data: b})
		if err != nil {
			panic(err)
		}
		if err := c.Wait(ha); err != nil {
			panic(err)
		}
		if err := c.Wait(hb); err != nil {
			panic(err)
		}
		n[1] = a[1] + b[1]
	}
	eachPool(t, func(t *testing.T, p *Pool) {
		v := &[2]int{16, 0}
		h := mustSchedule(t, p, Job{Run: fib, Data: v})
		require.NoError(t, p.Wait(h))
		assert.Equal(t, 987, v[1])
	})
}

func TestWaitCycles(t *testing.T) {
	eachPool(t, func(t *testing.T, p *Pool) {
		var selfErr, descErr, nestedPF error
		h := mustSchedule(t, p, Job{Label: Label{Name: "waiter"}, Run: func(c *Ctx) {
			me := c.Handle()
			selfErr = c.Wait(me)
			child, err := c.Schedule(Job{Label: Label{Name: "child"}}, me)
			if err != nil {
				panic(err)
			}
			grandchild, err := c.Schedule(Job{}, child)
			if err != nil {
				panic(err)
			}
			descErr = c.Wait(grandchild)
			pf, err := c.ParallelFor(Job{Run: func(*Ctx) {}}, 10, 2)
			if err != nil {
				panic(err)
			}
			nestedPF = c.Wait(pf)
		}})
		require.NoError(t, p.Wait(h))
		requireCode(t, selfErr, ErrWaitCycle)
		e := requireCode(t, descErr, ErrWaitCycle)
		assert.Contains(t, e.Msg, "depends on it")
		assert.NoError(t, nestedPF)
	})
}

func TestPipeSerialises(t *testing.T) {
	eachPool(t, func(t *testing.T, p *Pool) {
		pipe := p.NewPipe("log")
		var inside, overlaps atomic.Int32
		var order []int
		hs := make([]Handle, 200)
		for i := range hs {
			hs[i] = mustSchedule(t, p, Job{Pipe: pipe, Run: func(*Ctx) {
				if inside.Add(1) != 1 {
					overlaps.Add(1)
				}
				order = append(order, i) // safe only because the pipe serialises
				inside.Add(-1)
			}})
		}
		all, err := p.Combine(hs...)
		require.NoError(t, err)
		require.NoError(t, p.Wait(all))
		assert.Zero(t, overlaps.Load())
		require.Len(t, order, len(hs))
		for i, v := range order {
			require.Equal(t, i, v, "jobs without prerequisites run in launch order")
		}
	})
}

func TestPipeWaitOnOwnPipe(t *testing.T) {
	eachPool(t, func(t *testing.T, p *Pool) {
		pipe := p.NewPipe("gpu")
		var waitErr error
		h := mustSchedule(t, p, Job{Pipe: pipe, Run: func(c *Ctx) {
			later, err := c.Schedule(Job{Pipe: pipe})
			if err != nil {
				panic(err)
			}
			waitErr = c.Wait(later)
		}})
		require.NoError(t, p.Wait(h))
		requireCode(t, waitErr, ErrWaitCycle)
	})
}

// High is taken first from a deque, which is LIFO within a priority: the
// High job is pushed first, so order alone would run it last.
func TestHighPriorityFirst(t *testing.T) {
	p, err := New(Options{Workers: 0})
	require.NoError(t, err)
	defer p.Close()
	var order []string
	add := func(name string, pr Priority) Handle {
		return mustSchedule(t, p, Job{Priority: pr, Run: func(*Ctx) { order = append(order, name) }})
	}
	c := add("high", High)
	a := add("normal1", Normal)
	b := add("normal2", Normal)
	all, err := p.Combine(a, b, c)
	require.NoError(t, err)
	require.NoError(t, p.Wait(all))
	assert.Equal(t, []string{"high", "normal2", "normal1"}, order)
}

// High is taken first from the injection queue too, which is FIFO within a
// priority: the High job is queued last. A guest queues them while the owner
// holds the owner deque (inside Wait, running the job that started it).
func TestHighPriorityFirstFromInjectionQueue(t *testing.T) {
	p, err := New(Options{Workers: 0})
	require.NoError(t, err)
	defer p.Close()
	var order []string
	var queued []Handle
	hs := make(chan []Handle)
	starter := mustSchedule(t, p, Job{Run: func(*Ctx) {
		go func() {
			var out []Handle
			for _, j := range []struct {
				name string
				pr   Priority
			}{{"normal1", Normal}, {"normal2", Normal}, {"high", High}} {
				h, err := p.Schedule(Job{Priority: j.pr, Run: func(*Ctx) { order = append(order, j.name) }})
				if err != nil {
					panic(err)
				}
				out = append(out, h)
			}
			hs <- out
		}()
		queued = <-hs
	}})
	require.NoError(t, p.Wait(starter))
	assert.Equal(t, int64(3), p.inj.n.Load(), "the guest's jobs went through the injection queue")
	all, err := p.Combine(queued...)
	require.NoError(t, err)
	require.NoError(t, p.Wait(all))
	assert.Equal(t, []string{"high", "normal1", "normal2"}, order)
}

func TestSnapshotAndStats(t *testing.T) {
	eachPool(t, func(t *testing.T, p *Pool) {
		g, open := gate(t, p)
		ok := mustSchedule(t, p, Job{Run: func(*Ctx) { time.Sleep(time.Millisecond) }}, g)
		bad := mustSchedule(t, p, Job{Run: func(*Ctx) { panic("x") }}, g)
		blocked := mustSchedule(t, p, Job{}, bad)
		cancelled := mustSchedule(t, p, Job{}, g)
		requireCancel(t, p, cancelled, true)
		s := p.Snapshot()
		assert.Equal(t, 5, s.Pending+s.Running)
		open()
		all, err := p.Combine(ok, bad, blocked, cancelled)
		require.NoError(t, err)
		_ = p.Wait(all)
		require.NoError(t, p.Reset()) // publishes every participant's counts
		// The frame was reset: Snapshot sees the new, empty frame.
		assert.Equal(t, Snapshot{}, p.Snapshot())
		var executed uint64
		var busy time.Duration
		for _, st := range p.Stats(nil) {
			executed += st.Executed
			busy += st.Busy
		}
		assert.Equal(t, uint64(6), executed)
		assert.GreaterOrEqual(t, busy, time.Millisecond, "one job slept for a millisecond")
	})
}

func TestSnapshotCounts(t *testing.T) {
	p, err := New(Options{Workers: 0})
	require.NoError(t, err)
	defer p.Close()
	ok := mustSchedule(t, p, Job{})
	bad := mustSchedule(t, p, Job{Run: func(*Ctx) { panic("x") }})
	blocked := mustSchedule(t, p, Job{}, bad)
	cancelled := mustSchedule(t, p, Job{})
	requireCancel(t, p, cancelled, true)
	assert.Equal(t, Snapshot{Pending: 4}, p.Snapshot())
	all, err := p.Combine(ok, bad, blocked, cancelled)
	require.NoError(t, err)
	_ = p.Wait(all)
	assert.Equal(t, Snapshot{Succeeded: 1, Failed: 1, Blocked: 2, Cancelled: 1}, p.Snapshot())
}

func TestGuestGoroutines(t *testing.T) {
	for _, w := range []int{1, 2, 4} {
		p, err := New(Options{Workers: w})
		require.NoError(t, err)
		var n atomic.Int32
		var wg sync.WaitGroup
		for range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range 50 {
					h, err := p.Schedule(Job{Run: func(*Ctx) { n.Add(1) }})
					if !assert.NoError(t, err) {
						return
					}
					assert.NoError(t, p.Wait(h))
				}
			}()
		}
		wg.Wait()
		assert.Equal(t, int32(200), n.Load())
		require.NoError(t, p.Close())
	}
}

func TestCloseDrainsAndIsIdempotent(t *testing.T) {
	for _, w := range workerCounts {
		p, err := New(Options{Workers: w})
		require.NoError(t, err)
		var n atomic.Int32
		for range 100 {
			mustSchedule(t, p, Job{Run: func(c *Ctx) {
				time.Sleep(10 * time.Microsecond)
				n.Add(1)
			}})
		}
		require.NoError(t, p.Close())
		assert.Equal(t, int32(100), n.Load(), "W=%d", w)
		require.NoError(t, p.Close())
		_, err = p.Schedule(Job{})
		requireCode(t, err, ErrClosed)
		_, err = p.ParallelFor(Job{Run: func(*Ctx) {}}, 1, 1)
		requireCode(t, err, ErrClosed)
	}
}

func TestResetFromInsideJob(t *testing.T) {
	p, err := New(Options{Workers: 0})
	require.NoError(t, err)
	defer p.Close()
	var resetErr error
	h := mustSchedule(t, p, Job{Run: func(*Ctx) { resetErr = p.Reset() }})
	require.NoError(t, p.Wait(h))
	requireCode(t, resetErr, ErrBusy)
}

func TestSerialOrderIsRepeatable(t *testing.T) {
	run := func() []int {
		p, err := New(Options{Workers: 0})
		require.NoError(t, err)
		defer p.Close()
		var order []int
		var hs []Handle
		for i := range 20 {
			var deps []Handle
			if i >= 3 {
				deps = append(deps, hs[i-3])
			}
			hs = append(hs, mustSchedule(t, p, Job{Run: func(*Ctx) { order = append(order, i) }}, deps...))
		}
		all, err := p.Combine(hs...)
		require.NoError(t, err)
		require.NoError(t, p.Wait(all))
		return order
	}
	first := run()
	for range 5 {
		assert.Equal(t, first, run())
	}
}

func TestErrorsAreDistinct(t *testing.T) {
	all := []fault.Code{ErrStaleHandle, ErrForeignHandle, ErrClosed, ErrArenaFull, ErrFailed, ErrCancelled, ErrBlocked, ErrWaitCycle, ErrBusy, ErrBadArgument, ErrInsideJob, ErrTriggered, ErrUntriggered}
	for i, a := range all {
		for j, b := range all {
			assert.Equal(t, i == j, errors.Is(&Error{Code: a}, b), "%s vs %s", a, b)
		}
	}
}

type customErr struct{ msg string }

func (e *customErr) Error() string { return e.msg }

func TestPanicWithErrorUnwraps(t *testing.T) {
	p, err := New(Options{Workers: 0})
	require.NoError(t, err)
	defer p.Close()
	bad := mustSchedule(t, p, Job{Run: func(*Ctx) { panic(&customErr{"typed"}) }})
	after := mustSchedule(t, p, Job{}, bad)
	err = p.Wait(after)
	var ce *customErr
	require.ErrorAs(t, err, &ce, "through Blocked's cause and Failed's panic")
	assert.Equal(t, "typed", ce.msg)
}

func TestLabelString(t *testing.T) {
	assert.Equal(t, `"cull"[3]`, Label{Name: "cull", Chunk: 3}.String())
	assert.Equal(t, `"cull"`, Label{Name: "cull", Chunk: -1}.String())
}

// TestLearnIdle: a participant's spin budget grows to cover the idle
// spells that ended in work within spinMax, and halves, down to spinFor,
// on each longer one.
func TestLearnIdle(t *testing.T) {
	us := func(n int64) int64 { return n * int64(time.Microsecond) }
	w := &participant{spinBudget: int64(spinFor)}
	w.learnIdle(us(20)) // within the budget: no change
	assert.Equal(t, int64(spinFor), w.spinBudget)
	w.learnIdle(us(200)) // parked, and work came soon after: cover such a spell
	assert.Equal(t, us(250), w.spinBudget)
	w.learnIdle(us(100))
	assert.Equal(t, us(250), w.spinBudget)
	w.learnIdle(us(900))
	assert.Equal(t, int64(spinMax), w.spinBudget, "never more than spinMax")
	for want := int64(spinMax) / 2; want >= int64(spinFor); want /= 2 {
		w.learnIdle(us(5000)) // a game rendering between steps
		assert.Equal(t, want, w.spinBudget)
	}
	for range 4 {
		w.learnIdle(us(5000))
	}
	assert.Equal(t, int64(spinFor), w.spinBudget, "never less than spinFor")
}
