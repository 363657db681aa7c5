package jobs

import (
	"fmt"
	"sync/atomic"
)

// Label names a job in traces, timings and errors: usually the system name
// and the chunk index.
type Label struct {
	Name  string
	Chunk int
}

// String is "name"[chunk], or "name" for a negative chunk (a ParallelFor's join).
func (l Label) String() string {
	if l.Chunk < 0 {
		return fmt.Sprintf("%q", l.Name)
	}
	return fmt.Sprintf("%q[%d]", l.Name, l.Chunk)
}

// Func is a job's body. c is valid only during the call, on its goroutine.
type Func func(c *Ctx)

// Priority orders ready jobs: High is taken before Normal from every queue.
type Priority uint8

// The priorities, lowest first.
const (
	Normal Priority = iota
	High
	numPriorities = 2
)

// Job describes one unit of work. Passing it by value allocates nothing.
type Job struct {
	Label    Label
	Run      Func     // nil makes a no-op job: a sync point, as Combine builds
	Data     any      // given back by Ctx.Data; pointer-shaped values do not allocate
	Lo, Hi   int      // given back by Ctx.Range; ParallelFor sets them to the chunk's items
	Priority Priority // Normal or High
	Pipe     *Pipe    // if set, the job never overlaps another job of the pipe
}

// Handle identifies a scheduled job until the pool's next Reset. The zero
// Handle is invalid.
type Handle struct {
	pool, gen, idx uint32
}

// Index is the job's position in its frame's arena. The owner's jobs get
// increasing indices, dense from 0 while only the owner schedules (as on
// the serial executor).
func (h Handle) Index() int { return int(h.idx) }

// String identifies the handle in messages: job#index@pool.frame.
func (h Handle) String() string { return fmt.Sprintf("job#%d@%d.%d", h.idx, h.pool, h.gen) }

// Outcome is the state of a job.
type Outcome uint32

// The outcomes; the last four are final.
const (
	Pending   Outcome = iota // waiting for prerequisites or for a worker
	Running                  // its body is executing
	Succeeded                // its body returned
	Failed                   // its body panicked; Wait returns the panic as an *Error
	Cancelled                // Cancel came before it started; its body never ran
	Blocked                  // a prerequisite failed or was cancelled; its body never ran
)

var outcomeNames = [...]string{"pending", "running", "succeeded", "failed", "cancelled", "blocked"}

// String is the outcome's lower-case name.
func (o Outcome) String() string {
	if int(o) < len(outcomeNames) {
		return outcomeNames[o]
	}
	return fmt.Sprintf("Outcome(%d)", uint32(o))
}

// Done reports whether the outcome is final.
func (o Outcome) Done() bool { return o >= Succeeded }

// outcome is the job's state. Any goroutine may call it.
func (r *record) outcome() Outcome { return outcomeOf(r.link.Load()) }

// The low word of record.link: the Outcome, and cancelBit once Cancel came
// while the job was Pending. The executor decides between running and
// Cancelled with a CAS on link, so Cancel's answer is exact.
const (
	outcomeMask = 7
	cancelBit   = 1 << 31
)

func outcomeOf(link uint64) Outcome { return Outcome(link & outcomeMask) }

// The bits of record.flags.
const (
	flagWatched   = 1 << iota // someone may be parked waiting on the job
	flagWaited                // the owner returned from Pool.Wait on it (see Observed)
	flagEvent                 // an Event: its last hold is the trigger's
	flagTriggered             // Trigger, Cancel or Reset has taken the event's trigger hold
)

// cause packs why a job is blocked: the kind in the high word (the larger
// dominates: failure over cancellation) and the root job's index below.
const (
	causeCancelled = 1
	causeFailed    = 2
)

// record is one job in the arena, two cache lines. The scheduler writes all
// of it plainly before publishing the job (by releasing its builder hold);
// from then on the first group is accessed atomically, the rest is read-only
// but for the executor's writes before it stores the outcome.
type record struct {
	cause atomicU64 // why it is blocked, 0 if it is not
	link  atomicU64 // the Outcome and cancelBit (low word), the successor list head (high word): edge index+1, 0 for none; edges join even after the job is done, holding nothing then, so the list is the job's every successor
	holds atomicI32 // unfinished prerequisites + the builder's hold (+ an Event's trigger hold)
	flags atomicU32 // flagWatched, flagWaited, flagEvent, flagTriggered
	gen   atomicU32 // the frame it was made in; stored last by the scheduler

	parent   uint32 // ParallelFor: the join to release on completion, index+1
	chunkEnd int32  // ParallelFor range job: chunks [job.Label.Chunk, chunkEnd); the join holds n and batch in job.Lo and job.Hi
	root     uint32 // ParallelFor join: its root range job, index+1, which Cancel cancels first
	job      Job
	err      *Error // the panic of a failed job
}

// Atomics that the scheduler may initialise with plain writes (through v)
// while the record is still private to it; sync/atomic's types forbid that.
type (
	atomicU32 struct{ v uint32 }
	atomicI32 struct{ v int32 }
	atomicU64 struct{ v uint64 }
)

func (a *atomicU32) Load() uint32                    { return atomic.LoadUint32(&a.v) }
func (a *atomicU32) Store(x uint32)                  { atomic.StoreUint32(&a.v, x) }
func (a *atomicU32) StoreRelease(x uint32)           { storeRelease32(&a.v, x) } // see storeRelease32
func (a *atomicU32) CompareAndSwap(o, n uint32) bool { return atomic.CompareAndSwapUint32(&a.v, o, n) }
func (a *atomicU32) Or(x uint32) uint32              { return atomic.OrUint32(&a.v, x) }
func (a *atomicI32) Add(d int32) int32               { return atomic.AddInt32(&a.v, d) }
func (a *atomicI32) Load() int32                     { return atomic.LoadInt32(&a.v) }
func (a *atomicU64) Load() uint64                    { return atomic.LoadUint64(&a.v) }
func (a *atomicU64) Add(d uint64) uint64             { return atomic.AddUint64(&a.v, d) }
func (a *atomicU64) CompareAndSwap(o, n uint64) bool { return atomic.CompareAndSwapUint64(&a.v, o, n) }
func (a *atomicU64) Or(x uint64) uint64              { return atomic.OrUint64(&a.v, x) }
func (a *atomicU64) And(x uint64) uint64             { return atomic.AndUint64(&a.v, x) }

// edge is a successor link in a prerequisite's list.
type edge struct {
	to, next uint32 // next is an edge index+1, 0 at the end
}

// blockBits sizes arena blocks: 1024 entries each.
const (
	blockBits = 10
	blockSize = 1 << blockBits
)

// arena is a bump allocator over lazily allocated fixed blocks, so that slots
// never move while jobs read them, and after warm-up nothing is allocated.
type arena[T any] struct {
	next   atomic.Int64
	_      [56]byte // next is written by schedulers; the rest is read by everyone
	limit  int64
	blocks []atomic.Pointer[[blockSize]T]
}

func newArena[T any](limit int) *arena[T] {
	return &arena[T]{limit: int64(limit), blocks: make([]atomic.Pointer[[blockSize]T], (limit+blockSize-1)/blockSize)}
}

// reserve claims k consecutive slots. Any goroutine may call it.
func (a *arena[T]) reserve(k int) (first uint32, ok bool) {
	end := a.next.Add(int64(k))
	if end > a.limit {
		a.next.Add(int64(-k)) // next counts live jobs (see Pool.idle)
		return 0, false
	}
	start := end - int64(k)
	for b := start >> blockBits; b <= (end-1)>>blockBits && k > 0; b++ {
		if a.blocks[b].Load() == nil {
			a.blocks[b].CompareAndSwap(nil, new([blockSize]T)) // the loser's block is dropped
		}
	}
	return uint32(start), true
}

// at returns slot i, which must have been reserved. Any goroutine: a
// reserved slot's block is in place before reserve returns, and blocks
// never move.
func (a *arena[T]) at(i uint32) *T { return &a.blocks[i>>blockBits].Load()[i&(blockSize-1)] }

// find returns slot i, or nil if its block was never made. Any goroutine.
func (a *arena[T]) find(i uint32) *T {
	if int(i>>blockBits) >= len(a.blocks) {
		return nil
	}
	if b := a.blocks[i>>blockBits].Load(); b != nil {
		return &b[i&(blockSize-1)]
	}
	return nil
}

// used is the number of slots handed out since the last reset, a racy
// bound while others reserve. Any goroutine.
func (a *arena[T]) used() int64 { return min(a.next.Load(), a.limit) }

// reset forgets every slot. Executed only by the owner with no job in flight.
func (a *arena[T]) reset() { a.next.Store(0) }
