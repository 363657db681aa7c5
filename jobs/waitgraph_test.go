package jobs

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// waitErrs collects the errors of the waits inside a frame's jobs.
type waitErrs struct {
	mu   sync.Mutex
	errs []error
}

func (w *waitErrs) add(err error) {
	w.mu.Lock()
	w.errs = append(w.errs, err)
	w.mu.Unlock()
}

// cycles counts ErrWaitCycle among the errors and fails on any other.
func (w *waitErrs) cycles(t *testing.T) int {
	n := 0
	for _, err := range w.errs {
		if err == nil {
			continue
		}
		requireCode(t, err, ErrWaitCycle)
		n++
	}
	return n
}

// untilStarted spins until flag is set: with workers, another participant
// takes the job that sets it, since this one is busy here.
func untilStarted(flag *atomic.Bool) {
	for !flag.Load() {
		runtime.Gosched()
	}
}

// waitLoop runs a loop of waits: job 0 schedules job 1 and waits on it,
// job 1 job 2, ..., and the last waits on job 0. With stolen, each job
// waits only once its child has started, so that (with enough workers)
// each runs on a participant of its own. It returns how many waits were
// refused with ErrWaitCycle; the frame must end.
func waitLoop(t *testing.T, p *Pool, n int, stolen bool) int {
	var errs waitErrs
	var root Handle
	started := make([]atomic.Bool, n)
	var link func(k int) Job
	link = func(k int) Job {
		return Job{Label: Label{Name: fmt.Sprintf("loop%d", k)}, Run: func(c *Ctx) {
			started[k].Store(true)
			if k == 0 {
				root = c.Handle() // before the children exist: they see it
			}
			if k == n-1 {
				errs.add(c.Wait(root))
				return
			}
			h, err := c.Schedule(link(k + 1))
			require.NoError(t, err)
			if stolen {
				untilStarted(&started[k+1])
			}
			errs.add(c.Wait(h))
		}}
	}
	require.NoError(t, p.Wait(mustSchedule(t, p, link(0))))
	require.NoError(t, p.Reset())
	return errs.cycles(t)
}

// A wait cycle through a stolen child (O waits on its child K, which
// another participant runs and which waits on O), and longer ones across
// participants, are refused with ErrWaitCycle on every worker count: a
// wait of the loop is refused, which ends the loop, and the frame ends.
func TestWaitCycleAcrossWorkers(t *testing.T) {
	for w := range 9 {
		t.Run(fmt.Sprintf("W=%d", w), func(t *testing.T) {
			for _, n := range []int{2, 3, 4} {
				for _, stolen := range []bool{false, true} {
					if stolen && w+1 < n {
						continue // a participant per job of the loop
					}
					p, err := New(Options{Workers: w})
					require.NoError(t, err)
					for range 4 { // a fresh pool's first frames: no solo mode (adapt.go)
						// The last wait to park is refused, and another wait of
						// the loop checked at that moment may be too (timing).
						refused := waitLoop(t, p, n, stolen)
						assert.True(t, refused >= 1 && refused <= n, "W=%d n=%d stolen=%v: %d waits refused", w, n, stolen, refused)
					}
					require.NoError(t, p.Close())
				}
			}
		})
	}
}

// A wait on a job that has not started, behind a prerequisite that a
// parked participant's job holds up, closes a loop too: O schedules M
// (which waits on O) and K after M, and waits on K.
func TestWaitCycleThroughADependency(t *testing.T) {
	for w := range 9 {
		p, err := New(Options{Workers: w})
		require.NoError(t, err)
		for range 4 {
			var errs waitErrs
			var mStarted atomic.Bool
			o := mustSchedule(t, p, Job{Label: Label{Name: "O"}, Run: func(c *Ctx) {
				o := c.Handle()
				m, err := c.Schedule(Job{Label: Label{Name: "M"}, Run: func(c *Ctx) {
					mStarted.Store(true)
					errs.add(c.Wait(o))
				}})
				require.NoError(t, err)
				k, err := c.Schedule(Job{Label: Label{Name: "K"}}, m)
				require.NoError(t, err)
				if w > 0 {
					untilStarted(&mStarted)
				}
				errs.add(c.Wait(k))
			}})
			require.NoError(t, p.Wait(o))
			require.NoError(t, p.Reset())
			assert.Equal(t, 1, errs.cycles(t), "W=%d", w)
		}
		require.NoError(t, p.Close())
	}
}

// forkTree runs a random fork-join tree below c: each job schedules up to
// three children (some after an earlier sibling), waits on them in a
// random order (or forks one inline), and adds its leaves' values. Waits
// follow the tree only, so none may be refused.
func forkTree(c *Ctx, seed uint64, depth int, errs *waitErrs) int64 {
	rng := rand.New(rand.NewPCG(seed, uint64(depth)))
	if depth == 0 || rng.IntN(5) == 0 {
		return int64(seed % 1000)
	}
	kids := 1 + rng.IntN(3)
	vals := make([]int64, kids)
	hs := make([]Handle, kids)
	for i := range kids {
		s := seed*31 + uint64(i) + 1
		j := Job{Run: func(c *Ctx) { vals[i] = forkTree(c, s, depth-1, errs) }}
		var deps []Handle
		if i > 0 && rng.IntN(3) == 0 {
			deps = append(deps, hs[rng.IntN(i)])
		}
		if i == kids-1 && len(deps) == 0 && rng.IntN(2) == 0 {
			errs.add(c.Fork(j, func(c *Ctx) {}))
			hs[i] = Handle{}
			continue
		}
		h, err := c.Schedule(j, deps...)
		errs.add(err)
		hs[i] = h
	}
	for _, i := range rng.Perm(kids) {
		if hs[i] != (Handle{}) {
			errs.add(c.Wait(hs[i]))
		}
	}
	var sum int64
	for _, v := range vals {
		sum += v
	}
	return sum
}

// No false cycles: random fork-join trees whose jobs wait only on their
// own children give the serial answer, and no error, on every worker count.
func TestForkJoinTreesNeverSeeAWaitCycle(t *testing.T) {
	const trees = 30
	want := make([]int64, trees)
	for w := range 9 {
		p, err := New(Options{Workers: w})
		require.NoError(t, err)
		for i := range trees {
			var errs waitErrs
			var got int64
			h := mustSchedule(t, p, Job{Run: func(c *Ctx) { got = forkTree(c, uint64(i), 5, &errs) }})
			require.NoError(t, p.Wait(h))
			require.NoError(t, p.Reset())
			for _, err := range errs.errs {
				require.NoError(t, err, "W=%d tree %d", w, i)
			}
			if w == 0 {
				want[i] = got
			}
			require.Equal(t, want[i], got, "W=%d tree %d", w, i)
		}
		require.NoError(t, p.Close())
	}
}
