package jobs

import "sync/atomic"

// dequeSize is the capacity of one deque; a push beyond it overflows to the
// injection queue. A power of two, so indices wrap with a mask.
const dequeSize = 4096

// deque is a bounded Chase-Lev work-stealing deque of job indices, with the
// memory orderings of Lê, Pop, Cohen and Zappa Nardelli, "Correct and
// Efficient Work-Stealing for Weak Memory Models" (PPoPP 2013). Go's atomics
// are sequentially consistent, so every fence of the paper is implied by the
// atomic operation named beside it.
//
// One goroutine at a time owns the bottom (push and pop); any goroutine may
// steal from the top.
type deque struct {
	top    atomic.Int64
	_      [56]byte // top is written by thieves, bottom by the owner
	bottom atomic.Int64
	topMin int64 // owner's last reading of top: top never decreases, so it bounds fullness
	_      [48]byte
	buf    [dequeSize]atomicU32
}

// push adds idx at the bottom and reports false when the deque is full.
// Executed only by the deque's owner.
func (d *deque) push(idx uint32) bool {
	if d.full() {
		return false
	}
	b := d.bottom.Load()
	d.buf[b&(dequeSize-1)].StoreRelease(idx)
	// Sequentially consistent, not just release (which would make the slot
	// visible to thieves): a pusher then loads the sleepers' count in
	// wake, and a sleeper stores it before looking at the deques again,
	// Dekker's handshake, which needs this store ordered before that load.
	d.bottom.Store(b + 1)
	return true
}

// full reports whether a push would fail. Executed only by the deque's owner.
func (d *deque) full() bool {
	b := d.bottom.Load()
	if b-d.topMin >= dequeSize {
		d.topMin = d.top.Load() // acquire: see thieves' progress before judging fullness
	}
	return b-d.topMin >= dequeSize
}

// pop takes the most recently pushed index. Executed only by the deque's owner.
func (d *deque) pop() (uint32, bool) {
	if d.bottom.Load() <= d.top.Load() {
		return 0, false // empty: thieves only ever raise top, so skip the claim's fence
	}
	b := d.bottom.Load() - 1
	d.bottom.Store(b) // with the seq-cst fence of the paper: publish the claim before reading top
	t := d.top.Load()
	if t > b {
		d.bottom.Store(b + 1) // empty: undo the claim
		return 0, false
	}
	idx := d.buf[b&(dequeSize-1)].Load()
	if t == b {
		// Last element: race the thieves for it through top.
		ok := d.top.CompareAndSwap(t, t+1)
		d.bottom.Store(b + 1)
		return idx, ok
	}
	return idx, true
}

// steal takes the oldest index. Any goroutine may call it; a lost race
// reports false like an empty deque (the caller moves on to another victim).
func (d *deque) steal() (uint32, bool) {
	t := d.top.Load()    // acquire
	b := d.bottom.Load() // seq-cst fence between the two loads, then acquire
	if t >= b {
		return 0, false
	}
	idx := d.buf[t&(dequeSize-1)].Load()
	if !d.top.CompareAndSwap(t, t+1) { // seq-cst: claim the slot against other thieves and the owner
		return 0, false
	}
	return idx, true
}

// stealInto moves up to n indices, oldest first, from d's top to dst's
// bottom and returns how many; it stops early when d runs dry, a steal
// loses a race, or dst is full. Executed by dst's owner; any goroutine
// may be d's. Each index is claimed by its own steal, the same CAS on top
// as a single steal, so the single steal's argument covers every one: the
// owner's pop decides the last index through the same CAS, and a thief
// never takes one the owner already took, however long the batch. (One
// CAS for the whole batch would not be safe here: between the thief's
// read of bottom and its CAS, the owner may pop past the batch's end
// without a CAS.)
func (d *deque) stealInto(dst *deque, n int64) int64 {
	var k int64
	for ; k < n; k++ {
		if dst.full() {
			break // before the steal: nothing is taken that cannot be kept
		}
		idx, ok := d.steal()
		if !ok {
			break
		}
		dst.push(idx) // room checked above, and only this goroutine pushes to dst
	}
	return k
}

// size is a racy hint of how many indices d holds; it may be off, even
// negative, while the owner pops. Any goroutine.
func (d *deque) size() int64 { return d.bottom.Load() - d.top.Load() }

// empty is a racy hint used by thieves to skip victims cheaply. Any goroutine.
func (d *deque) empty() bool { return d.top.Load() >= d.bottom.Load() }

// stack is the owner's private LIFO of ready jobs while no thief may take
// them (the serial executor, or solo mode: see adapt.go): the deque's order
// and capacity without its atomics. Executed only by the driver of parts[0].
type stack struct {
	buf []uint32 // capacity dequeSize, made by newParticipant for parts[0]
}

// push adds idx on top and reports false when the stack is full, where the
// deque would overflow too.
func (s *stack) push(idx uint32) bool {
	if len(s.buf) == cap(s.buf) {
		return false
	}
	s.buf = append(s.buf, idx)
	return true
}

// pop takes the most recently pushed index.
func (s *stack) pop() (uint32, bool) {
	n := len(s.buf)
	if n == 0 {
		return 0, false
	}
	idx := s.buf[n-1]
	s.buf = s.buf[:n-1]
	return idx, true
}
