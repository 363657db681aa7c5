package jobs

import (
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// More ready jobs than a deque holds overflow into the injection queue, and
// all of them still run, in the serial executor's repeatable order.
func TestDequeOverflowsIntoInjectionQueue(t *testing.T) {
	p, err := New(Options{Workers: 0})
	require.NoError(t, err)
	defer p.Close()
	const n = dequeSize + 100
	var ran atomic.Int32
	hs := make([]Handle, n)
	for i := range hs {
		hs[i] = mustSchedule(t, p, Job{Run: func(*Ctx) { ran.Add(1) }})
	}
	assert.Equal(t, int64(100), p.inj.n.Load(), "the deque is full: the rest overflowed")
	all, err := p.Combine(hs...)
	require.NoError(t, err)
	require.NoError(t, p.Wait(all))
	assert.Equal(t, int32(n), ran.Load())
	assert.Zero(t, p.inj.n.Load())
}

// A guest's Wait sleeps (it has no deque to help from) until the job is
// done, and wakes when another participant finishes it. Serial executor:
// the owner holds the owner deque, parked in Wait on a job behind an event;
// the guest waits on another job behind it; a third goroutine triggers the
// event once the guest sleeps. Each step waits for the state the previous
// one produces, so the order is fixed whatever the timing.
func TestGuestWaitSleepsUntilDone(t *testing.T) {
	p, err := New(Options{Workers: 0})
	require.NoError(t, err)
	defer p.Close()
	ev := mustEvent(t, p, "go")
	target := mustSchedule(t, p, Job{Label: Label{Name: "target"}}, ev)
	owners := mustSchedule(t, p, Job{}, ev)
	guestErr := make(chan error)
	go func() {
		for p.ec.waiters() == 0 { // the owner is parked inside Wait
			runtime.Gosched()
		}
		guestErr <- p.Wait(target)
	}()
	go func() {
		for p.guests.waiters() == 0 { // the guest is asleep
			runtime.Gosched()
		}
		if err := p.Trigger(ev); err != nil {
			panic(err)
		}
	}()
	require.NoError(t, p.Wait(owners))
	require.NoError(t, <-guestErr)
	o, err := p.Outcome(target)
	require.NoError(t, err)
	assert.Equal(t, Succeeded, o)
}

// A participant releases a finished job's last successor hold later (see
// owe), but never past the point where it would change what runs: here the
// serial executor runs a, then its successor b, then the unrelated j
// scheduled first, as if a had released b at once.
func TestOwedHoldRunsSuccessorFirst(t *testing.T) {
	p, err := New(Options{Workers: 0})
	require.NoError(t, err)
	defer p.Close()
	var order []string
	log := func(s string) Func { return func(*Ctx) { order = append(order, s) } }
	j := mustSchedule(t, p, Job{Run: log("j")})
	a := mustSchedule(t, p, Job{Run: log("a")})
	b := mustSchedule(t, p, Job{Run: log("b")}, a)
	all, err := p.Combine(j, b)
	require.NoError(t, err)
	require.NoError(t, p.Wait(all))
	assert.Equal(t, []string{"a", "b", "j"}, order)
}

// Wait leaves nothing owed: a successor of a job the owner ran inside Wait
// is ready when Wait returns, though only a later call would look for it.
func TestWaitLeavesNoHoldOwed(t *testing.T) {
	p, err := New(Options{Workers: 0})
	require.NoError(t, err)
	defer p.Close()
	a := mustSchedule(t, p, Job{})
	b := mustSchedule(t, p, Job{}, a)
	require.NoError(t, p.Wait(a))
	assert.Zero(t, p.parts[0].owed)
	assert.Zero(t, p.jobs.at(b.idx).holds.Load(), "b is ready")
}

// The owner reserves job slots ahead (see reserveJob); the ones it has not
// used when the frame ends are not jobs: Reset does not wait for them,
// Snapshot does not count them, and the owner's jobs stay dense from 0.
func TestOwnerSlotsReservedAhead(t *testing.T) {
	p, err := New(Options{Workers: 0})
	require.NoError(t, err)
	defer p.Close()
	for range 2 {
		for i := range ownerSlots + 6 {
			h := mustSchedule(t, p, Job{})
			require.Equal(t, i, h.Index())
		}
		assert.Equal(t, 2*ownerSlots, int(p.jobs.used()), "two blocks reserved")
		require.NoError(t, p.Reset()) // waits for the 70 jobs only
		assert.Zero(t, p.parts[0].slotEnd-p.parts[0].slot)
	}
	mustSchedule(t, p, Job{})
	assert.Equal(t, Snapshot{Pending: 1}, p.Snapshot())
}
