package jobs

import (
	"sync"
	"sync/atomic"
)

// eventCount parks idle participants without busy polling and without lost
// wake-ups, in the manner of Vyukov's EventCount and UE's FWaitingQueue:
//
//	key := ec.prepare()        // announce the intent to sleep
//	if <condition holds> { ec.cancel(); ... } // recheck after announcing
//	ec.commit(id, key)          // sleep unless a notify came in between
//
// A notifier that changes the condition and then calls notify either sees the
// announced waiter (and bumps the epoch, so commit returns at once) or ran
// before prepare, in which case the waiter's recheck sees the change. Both
// orders hold because every state access is a sequentially consistent atomic.
type eventCount struct {
	// state packs the epoch (high 32 bits) and the number of prepared
	// waiters (low 32 bits), so notify's fast path is one load.
	state    atomic.Uint64
	mu       sync.Mutex
	sleepers []chan struct{} // semaphores (capacity 1) of those asleep in commit; guarded by mu
}

const waiterMask = 1<<32 - 1

func newEventCount(participants int) *eventCount {
	return &eventCount{sleepers: make([]chan struct{}, 0, participants)}
}

// prepare announces a waiter and returns the epoch to pass to commit.
// Any participant may call it; it must follow with cancel or commit.
func (ec *eventCount) prepare() uint32 {
	return uint32(ec.state.Add(1) >> 32)
}

// cancel withdraws a prepare whose recheck found work. Executed only by the
// goroutine that called prepare, instead of commit.
func (ec *eventCount) cancel() { ec.state.Add(^uint64(0)) }

// commit sleeps on sema until a notify after prepare. Executed only by the
// goroutine that called prepare; sema is its own: one goroutine sleeps on
// it at a time.
func (ec *eventCount) commit(sema chan struct{}, epoch uint32) {
	ec.mu.Lock()
	if uint32(ec.state.Load()>>32) != epoch {
		ec.state.Add(^uint64(0)) // notified in between: do not sleep
		ec.mu.Unlock()
		return
	}
	ec.sleepers = append(ec.sleepers, sema)
	ec.mu.Unlock()
	<-sema // the notifier removed us from sleepers and from the waiter count
}

// waiters is a racy count of prepared waiters, for fast paths. Any goroutine.
func (ec *eventCount) waiters() uint32 { return uint32(ec.state.Load() & waiterMask) }

// notify wakes one sleeper (all of them if all is set) and makes every
// prepared waiter's commit return; it reports whether it woke a sleeper.
// Any goroutine may call it; with no prepared waiter it is a single atomic
// load.
func (ec *eventCount) notify(all bool) bool {
	if ec.state.Load()&waiterMask == 0 {
		return false
	}
	ec.mu.Lock()
	ec.state.Add(1 << 32) // new epoch: prepared-but-uncommitted waiters will not sleep
	n := len(ec.sleepers)
	if n == 0 {
		ec.mu.Unlock()
		return false
	}
	wake := ec.sleepers[n-1:]
	if all {
		wake = ec.sleepers
	}
	ec.state.Add(-uint64(len(wake))) // the woken no longer count as waiters
	for _, sema := range wake {
		sema <- struct{}{}
	}
	ec.sleepers = ec.sleepers[:n-len(wake)]
	ec.mu.Unlock()
	return true
}
