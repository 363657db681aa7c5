package netplay

import (
	"sync"
	"time"
)

// Clock is the session's time: every timeout, ping and step budget is
// read from it, never from the wall clock directly, so that a test that
// gives a ManualClock decides every time the session sees.
type Clock interface {
	// Now is the time since some fixed origin; it never goes back.
	Now() time.Duration
}

// SystemClock is the monotonic wall clock, from the moment it was made.
func SystemClock() Clock { return systemClock{time.Now()} }

type systemClock struct{ zero time.Time }

func (c systemClock) Now() time.Duration { return time.Since(c.zero) }

// ManualClock is a Clock that moves only when told (Advance, Set): the
// clock of tests and of SimLink. Any goroutine may use it.
type ManualClock struct {
	mu  sync.Mutex
	now time.Duration
}

// Now is the time set so far.
func (c *ManualClock) Now() time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the clock d forward (a negative d is ignored).
func (c *ManualClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if d > 0 {
		c.now += d
	}
}
