package jobs

import (
	"sync"
	"sync/atomic"
)

// injector is the FIFO for jobs readied by goroutines that own no deque and
// for deque overflow. It grows instead of blocking or dropping; after warm-up
// its ring is large enough and it allocates nothing.
type injector struct {
	n    atomic.Int64 // queued jobs, read without the lock as a hint
	_    [56]byte     // every participant reads n on every search
	mu   sync.Mutex
	ring [numPriorities]fifo
}

// fifo is a growable ring of job indices. Guarded by injector.mu.
type fifo struct {
	buf        []uint32
	head, size int
}

func (q *fifo) put(idx uint32) {
	if q.size == len(q.buf) {
		grown := make([]uint32, max(64, 2*len(q.buf)))
		for i := 0; i < q.size; i++ {
			grown[i] = q.buf[(q.head+i)%len(q.buf)]
		}
		q.buf, q.head = grown, 0
	}
	q.buf[(q.head+q.size)%len(q.buf)] = idx
	q.size++
}

func (q *fifo) take() (uint32, bool) {
	if q.size == 0 {
		return 0, false
	}
	idx := q.buf[q.head]
	q.head = (q.head + 1) % len(q.buf)
	q.size--
	return idx, true
}

// put appends idx at priority pr. Any goroutine may call it.
func (in *injector) put(idx uint32, pr Priority) {
	in.mu.Lock()
	in.ring[pr].put(idx)
	in.n.Add(1) // under the lock, before any taker can see the job
	in.mu.Unlock()
}

// take removes the oldest job of the highest priority. Any goroutine may call it.
func (in *injector) take() (uint32, bool) {
	if in.n.Load() == 0 { // seq-cst load: a put that completed before it is seen
		return 0, false
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	for pr := numPriorities - 1; pr >= 0; pr-- {
		if idx, ok := in.ring[pr].take(); ok {
			in.n.Add(-1)
			return idx, true
		}
	}
	return 0, false
}
