package jobs

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// forkFib is fib(n) by Ctx.Fork down to n < 8: fib(n-1) a job that others
// may take, fib(n-2) computed here.
func forkFib(c *Ctx, n int) int {
	if n < 8 {
		a, b := 0, 1
		for range n {
			a, b = b, a+b
		}
		return a
	}
	var left, right int
	err := c.Fork(Job{Run: func(c *Ctx) { left = forkFib(c, n-1) }}, func(c *Ctx) { right = forkFib(c, n-2) })
	if err != nil {
		panic(err)
	}
	return left + right
}

// TestForkComputesWhatSerialDoes: nested Forks give the serial answer on
// every worker count, frame after frame.
func TestForkComputesWhatSerialDoes(t *testing.T) {
	eachPool(t, func(t *testing.T, p *Pool) {
		for range 3 {
			var got int
			h := mustSchedule(t, p, Job{Run: func(c *Ctx) { got = forkFib(c, 22) }})
			require.NoError(t, p.Wait(h))
			assert.Equal(t, 17711, got)
			require.NoError(t, p.Reset())
		}
	})
}

// TestForkRunsHereOnTheCaller: here runs on the forking job's goroutine
// with the same Ctx, and other has ended when Fork returns.
func TestForkRunsHereOnTheCaller(t *testing.T) {
	eachPool(t, func(t *testing.T, p *Pool) {
		var otherDone, sameCtx bool
		h := mustSchedule(t, p, Job{Run: func(c *Ctx) {
			err := c.Fork(Job{Run: func(*Ctx) { otherDone = true }}, func(here *Ctx) { sameCtx = here == c })
			if err != nil {
				panic(err)
			}
			if !otherDone {
				panic("Fork returned before other ended")
			}
		}})
		require.NoError(t, p.Wait(h))
		assert.True(t, sameCtx)
	})
}

// TestForkReturnsOthersError: a panic in other is Fork's error, as Wait
// reports it; here ran all the same.
func TestForkReturnsOthersError(t *testing.T) {
	eachPool(t, func(t *testing.T, p *Pool) {
		var err error
		ranHere := false
		h := mustSchedule(t, p, Job{Run: func(c *Ctx) {
			err = c.Fork(Job{Label: Label{Name: "other"}, Run: func(*Ctx) { panic("boom") }}, func(*Ctx) { ranHere = true })
		}})
		require.NoError(t, p.Wait(h))
		requireCode(t, err, ErrFailed)
		assert.True(t, ranHere)
	})
}

// TestForkPanicHereFailsTheJob: a panic in here ends the forking job
// Failed; Reset still waits for other.
func TestForkPanicHereFailsTheJob(t *testing.T) {
	eachPool(t, func(t *testing.T, p *Pool) {
		otherRan := false
		h := mustSchedule(t, p, Job{Run: func(c *Ctx) {
			_ = c.Fork(Job{Run: func(*Ctx) { otherRan = true }}, func(*Ctx) { panic("here") })
		}})
		requireCode(t, p.Wait(h), ErrFailed)
		require.NoError(t, p.Reset())
		assert.True(t, otherRan)
	})
}

// TestForkNilHere: without a func to run here Fork refuses, running
// nothing.
func TestForkNilHere(t *testing.T) {
	eachPool(t, func(t *testing.T, p *Pool) {
		var err error
		ran := false
		h := mustSchedule(t, p, Job{Run: func(c *Ctx) { err = c.Fork(Job{Run: func(*Ctx) { ran = true }}, nil) }})
		require.NoError(t, p.Wait(h))
		requireCode(t, err, ErrBadArgument)
		require.NoError(t, p.Reset())
		assert.False(t, ran)
	})
}

// TestForkArenaFull: when other cannot be scheduled Fork returns the
// error and runs neither.
func TestForkArenaFull(t *testing.T) {
	p, err := New(Options{Workers: 1, MaxJobs: 1})
	require.NoError(t, err)
	defer func() { require.NoError(t, p.Close()) }()
	var forkErr error
	ran := false
	h := mustSchedule(t, p, Job{Run: func(c *Ctx) {
		forkErr = c.Fork(Job{Run: func(*Ctx) { ran = true }}, func(*Ctx) { ran = true })
	}})
	require.NoError(t, p.Wait(h))
	requireCode(t, forkErr, ErrArenaFull)
	assert.False(t, ran)
}
