package jobs

import (
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// eachPoolUpTo8 runs f on a fresh pool of every size from 0 to 8 workers.
func eachPoolUpTo8(t *testing.T, f func(t *testing.T, p *Pool)) {
	for w := range 9 {
		t.Run(fmt.Sprintf("W=%d", w), func(t *testing.T) {
			p, err := New(Options{Workers: w})
			require.NoError(t, err)
			defer func() { require.NoError(t, p.Close()) }()
			f(t, p)
		})
	}
}

func mustEvent(t *testing.T, p *Pool, name string) Handle {
	t.Helper()
	h, err := p.Event(Label{Name: name})
	require.NoError(t, err)
	return h
}

// An event gates its dependents until another goroutine triggers it, and
// holds no participant meanwhile: an unrelated job still runs, even on the
// serial executor.
func TestEventTriggeredByAnotherGoroutine(t *testing.T) {
	eachPoolUpTo8(t, func(t *testing.T, p *Pool) {
		ev := mustEvent(t, p, "loaded")
		var ran atomic.Bool
		after := mustSchedule(t, p, Job{Run: func(*Ctx) { ran.Store(true) }}, ev)
		pf, err := p.ParallelFor(Job{Run: func(*Ctx) {}}, 10, 3, ev)
		require.NoError(t, err)
		all, err := p.Combine(after, pf)
		require.NoError(t, err)

		require.NoError(t, p.Wait(mustSchedule(t, p, Job{})), "an unrelated job runs while the event waits")
		o, err := p.Outcome(ev)
		require.NoError(t, err)
		assert.Equal(t, Pending, o)
		assert.False(t, ran.Load())
		assert.Equal(t, 5, p.Snapshot().Pending, "the event, after, the ParallelFor's join and range job, the combine")

		triggered := make(chan error)
		go func() { triggered <- p.Trigger(ev) }()
		require.NoError(t, p.Wait(all)) // on W=0 the owner sleeps until the trigger
		require.NoError(t, <-triggered)
		assert.True(t, ran.Load())
		require.NoError(t, p.Wait(ev))
		require.NoError(t, p.Reset())
	})
}

func TestEventMisuse(t *testing.T) {
	eachPoolUpTo8(t, func(t *testing.T, p *Pool) {
		ev := mustEvent(t, p, "once")
		require.NoError(t, p.Trigger(ev))
		e := requireCode(t, p.Trigger(ev), ErrTriggered)
		assert.Equal(t, "once", e.Detail.Job.Name)
		requireCode(t, p.Trigger(mustSchedule(t, p, Job{})), ErrBadArgument)
		requireCode(t, p.Trigger(Handle{}), ErrForeignHandle)
		require.NoError(t, p.Wait(ev))

		// Cancel ends an untriggered event; a later Trigger is refused.
		cancelled := mustEvent(t, p, "cancelled")
		after := mustSchedule(t, p, Job{Run: func(*Ctx) { t.Error("ran after a cancelled event") }}, cancelled)
		requireCancel(t, p, cancelled, true)
		requireCode(t, p.Trigger(cancelled), ErrTriggered)
		requireCode(t, p.Wait(cancelled), ErrCancelled)
		err := p.Wait(after)
		requireCode(t, err, ErrBlocked)
		assert.ErrorIs(t, err, ErrCancelled)

		require.NoError(t, p.Reset())
		requireCode(t, p.Trigger(ev), ErrStaleHandle)
	})
}

// Reset (and Close) with an event never triggered does not hang: the event
// is cancelled, its dependents are Blocked, the frame ends, and the error
// says so. The pool stays usable.
func TestResetWithUntriggeredEvent(t *testing.T) {
	eachPoolUpTo8(t, func(t *testing.T, p *Pool) {
		var ran atomic.Bool
		ev := mustEvent(t, p, "never")
		after := mustSchedule(t, p, Job{Run: func(*Ctx) { ran.Store(true) }}, ev)
		mustSchedule(t, p, Job{}, after)
		e := requireCode(t, p.Reset(), ErrUntriggered)
		assert.Equal(t, "never", e.Detail.Job.Name)
		assert.Contains(t, e.Msg, "1 event(s)")
		assert.False(t, ran.Load())
		requireCode(t, p.Trigger(ev), ErrStaleHandle)

		require.NoError(t, p.Wait(mustSchedule(t, p, Job{Run: func(*Ctx) { ran.Store(true) }})))
		assert.True(t, ran.Load())
		require.NoError(t, p.Reset())
		mustEvent(t, p, "at close")
		e = requireCode(t, p.Close(), ErrUntriggered)
		assert.Contains(t, e.Msg, "Close found 1 event(s)")
		assert.Contains(t, e.Msg, "before Close")
		assert.NotContains(t, e.Msg, "Reset")
		_, err := p.Event(Label{Name: "closed"})
		requireCode(t, err, ErrClosed)
	})
}

// Frames alternate between an event triggered and one that Reset cancels:
// the arena and the event count start clean every frame.
func TestEventsUnderReset(t *testing.T) {
	eachPoolUpTo8(t, func(t *testing.T, p *Pool) {
		for frame := range 20 {
			ev := mustEvent(t, p, "frame")
			var sum atomic.Int32
			hs := make([]Handle, 8)
			for i := range hs {
				hs[i] = mustSchedule(t, p, Job{Run: func(*Ctx) { sum.Add(1) }}, ev)
			}
			all, err := p.Combine(hs...)
			require.NoError(t, err)
			if frame%2 == 0 {
				require.NoError(t, p.Trigger(ev))
				require.NoError(t, p.Wait(all))
				assert.Equal(t, int32(8), sum.Load())
				require.NoError(t, p.Reset())
			} else {
				requireCode(t, p.Reset(), ErrUntriggered)
				assert.Zero(t, sum.Load())
			}
		}
	})
}

// Close does not hang on a guest asleep in Wait behind an event nobody
// triggers: it cancels the event, as Reset would, and reports it; the
// guest's Wait then ends Blocked.
func TestCloseCancelsTheEventAGuestWaitsOn(t *testing.T) {
	for w := range 9 {
		t.Run(fmt.Sprintf("W=%d", w), func(t *testing.T) {
			p, err := New(Options{Workers: w})
			require.NoError(t, err)
			ev, err := p.Event(Label{Name: "never"})
			require.NoError(t, err)
			d := mustSchedule(t, p, Job{Label: Label{Name: "after"}}, ev)
			waited := make(chan error)
			go func() { waited <- p.Wait(d) }()
			for p.Stats(nil)[0].Parks == 0 { // the guest drives parts[0] and has parked
				runtime.Gosched()
			}
			e := requireCode(t, p.Close(), ErrUntriggered)
			assert.Contains(t, e.Msg, "Close found")
			requireCode(t, <-waited, ErrBlocked)
		})
	}
}
