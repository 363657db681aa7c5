package jobs

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func requireObserved(t *testing.T, p *Pool, h Handle, want bool) {
	t.Helper()
	got, err := p.Observed(h)
	require.NoError(t, err)
	require.Equal(t, want, got, "Observed(%v)", h)
}

// The owner observes a job by waiting on it or on a job after it, through
// edges, Combine and ParallelFor joins, including a dependent scheduled
// after the job had finished; a job that merely finished is not observed.
func TestObserved(t *testing.T) {
	eachPool(t, func(t *testing.T, p *Pool) {
		a := mustSchedule(t, p, Job{})
		b := mustSchedule(t, p, Job{}, a)
		free := mustSchedule(t, p, Job{})
		// free runs: a job waits on it (not an edge), and the owner on that job.
		waiter := mustSchedule(t, p, Job{Run: func(c *Ctx) {
			if err := c.Wait(free); err != nil {
				panic(err)
			}
		}})
		requireObserved(t, p, a, false)
		require.NoError(t, p.Wait(waiter))
		o, _ := p.Outcome(free)
		assert.Equal(t, Succeeded, o)
		requireObserved(t, p, free, false)
		requireObserved(t, p, waiter, true)

		require.NoError(t, p.Wait(b))
		requireObserved(t, p, a, true)
		requireObserved(t, p, b, true)

		// A dependent made after free finished still observes it.
		late := mustSchedule(t, p, Job{}, free)
		pf, err := p.ParallelFor(Job{Run: func(*Ctx) {}}, 10, 2, late)
		require.NoError(t, err)
		all, err := p.Combine(pf)
		require.NoError(t, err)
		require.NoError(t, p.Wait(all))
		requireObserved(t, p, free, true)
		requireObserved(t, p, late, true)
		requireObserved(t, p, pf, true)

		// A guest's Wait is not the owner's.
		guest := mustSchedule(t, p, Job{})
		done := make(chan error)
		go func() { done <- p.Wait(guest) }()
		require.NoError(t, <-done)
		requireObserved(t, p, guest, false)
		require.NoError(t, p.Reset())
		_, err = p.Observed(a)
		requireCode(t, err, ErrStaleHandle)
	})
}

// Observed and Reset are the owner's, outside of jobs: from another
// goroutine, or inside a job (on a worker, or on the owner in its Wait),
// they are refused with ErrBusy, and the pool goes on as before.
func TestObservedAndResetRefusedOffTheOwner(t *testing.T) {
	eachPool(t, func(t *testing.T, p *Pool) {
		h := mustSchedule(t, p, Job{Label: Label{Name: "a"}})
		require.NoError(t, p.Wait(h))
		errs := make(chan error, 2)
		go func() {
			_, err := p.Observed(h)
			errs <- err
			errs <- p.Reset()
		}()
		e := requireCode(t, <-errs, ErrBusy)
		assert.Contains(t, e.Msg, "Observed called from a goroutine other than the pool's owner")
		e = requireCode(t, <-errs, ErrBusy)
		assert.Contains(t, e.Msg, "Reset called from a goroutine other than the pool's owner")
		var inside error
		j := mustSchedule(t, p, Job{Run: func(*Ctx) { _, inside = p.Observed(h) }})
		require.NoError(t, p.Wait(j))
		requireCode(t, inside, ErrBusy)
		requireObserved(t, p, h, true)
		require.NoError(t, p.Reset())
	})
}
