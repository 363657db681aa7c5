package jobs

// A participant's own loop: finding work (its deques, the injection queue,
// stealing), running a job and completing it. Unless a comment says
// otherwise, a function here is executed only by the goroutine that drives
// participant w: a worker's own goroutine, or for parts[0] whoever holds
// Pool.guard (the owner, or a guest inside a Pool call). That goroutine
// alone touches w's deque bottoms, stack, ctx, executed and busySince; the
// rest of w, and every record, is shared through the atomics named where
// they are used.

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"sync/atomic"
	"time"

	"github.com/weft-engine/weft/internal/spin"
)

// An idle participant looks for work at least spinRounds times, relaxing in
// between, and for its spin budget, before it parks. Waking a parked
// worker costs tens of microseconds (a futex round trip, 100-200 µs in a
// VM); a frame's passes follow each other closer than that, so a worker
// that spins across the tail of a pass is there when the next one starts.
// The budget starts at spinFor and learns from the participant's idle
// spells (see learnIdle), up to spinMax. spinPause is the pause of one
// round (see relax).
const (
	spinRounds = 64
	spinFor    = 50 * time.Microsecond
	spinMax    = time.Millisecond
	spinPause  = 8
)

// relax is one idle round of a spinning participant. When every
// participant has a P of its own (GOMAXPROCS >= participants when New ran)
// it pauses on its CPU. runtime.Gosched would put the goroutine on the
// runtime's global run queue at every round, and there a worker can wait
// for microseconds each time, runnable but not running, while a P stands
// idle: a W1 trace showed a worker runnable 89 ms, running 7 ms, while the
// owner's Reset spun waiting for it (bench/cmd/gstates). With fewer Ps
// than participants it yields instead, so that the goroutine sharing its P
// can run. Executed only by a participant's own goroutine.
func (p *Pool) relax() {
	if p.sharedPs {
		runtime.Gosched()
		return
	}
	spin.Pause(spinPause)
}

// participant is the owner or a worker: its deques, its Ctx and its
// counters. Everything but the deques' tops and the counters' reads is
// touched only by the goroutine that drives it.
type participant struct {
	dq                                   [numPriorities]deque
	own                                  [numPriorities]stack // parts[0]'s jobs while no thief may take them (see Pool.private)
	executed                             uint64               // jobs finished here; only this goroutine touches it
	owed                                 uint32               // the job whose holds w still has to release (see owe): index+1, 0 for none; this goroutine only
	owedN                                int32                // how many holds of it
	slot, slotEnd                        uint32               // parts[0]: job slots reserved ahead, [slot, slotEnd) unused (see reserveJob); its driver only
	dropped                              uint32               // parts[0]: slots reserved ahead that a plan's run left unused this frame (see reserveJobs); its driver only
	edge, edgeEnd                        uint32               // parts[0]: edge slots reserved ahead, [edge, edgeEnd) unused (see reserveEdges); its driver only
	busySince                            int64                // start of the current streak of jobs + 1, 0 outside one; this goroutine only
	spinBudget                           int64                // how long it spins before parking (see learnIdle); this goroutine only
	idleSince                            int64                // start of the current idle spell, 0 outside one (see beginIdle); this goroutine only
	done                                 atomic.Uint64        // executed as last published (see publish)
	stolen, attempts, parks, wakes, busy atomic.Uint64
	g                                    atomic.Uintptr // a worker's goroutine (see goroutine), set as it starts; 0 for the owner

	id     int
	rng    uint64
	sema   chan struct{}
	stack  []uint32 // jobs running on this goroutine, innermost last
	ctx    Ctx
	ring   *ring
	walker walker   // cycle check scratch
	_      [64]byte // keep the next participant's hot fields off this line
}

func newParticipant(p *Pool, id int) *participant {
	w := &participant{id: id, rng: uint64(id)*0x9E3779B97F4A7C15 + 1, sema: make(chan struct{}, 1), spinBudget: int64(spinFor),
		stack: make([]uint32, 0, 64), walker: walker{seen: make(map[uint32]struct{})}}
	w.ctx = Ctx{p: p, w: w}
	if id == 0 {
		for pr := range w.own {
			w.own[pr].buf = make([]uint32, 0, dequeSize)
		}
	}
	return w
}

// work is a worker goroutine's loop. It parks when no work is found after
// spinning and exits once the pool quits.
func (p *Pool) work(w *participant) {
	defer p.wg.Done()
	w.g.Store(goroutine()) // before any job runs here: inJob of a body on w finds it
	defer w.g.Store(0)     // the runtime reuses a dead goroutine's descriptor
	for {
		idx, ok := p.find(w)
		if !ok {
			w.beginIdle(p)
			idx, ok = p.spin(w)
		}
		if !ok {
			if idx, ok = p.park(w, p.quit.Load); !ok {
				if p.quit.Load() {
					return
				}
				continue
			}
		}
		w.beginBusy(p)
		for ok {
			p.run(w, idx)
			idx, ok = p.find(w)
		}
		w.endBusy(p)
		p.publish(w)
	}
}

// spin looks for work for a bounded time (spinUntil), counted in p.spinning so
// that schedulers skip the wake-up while someone is already looking.
// Executed only by w's goroutine.
func (p *Pool) spin(w *participant) (uint32, bool) {
	p.spinning.Add(1)
	defer p.spinning.Add(-1)
	return p.spinUntil(w, nil)
}

// learnIdle adapts w's spin budget to an idle spell of d that ended with
// work to do (a job, or the job waited for finished), as KVM's haltpoll
// adapts a guest's polling: a spell longer than the budget but within
// spinMax raises the budget to a quarter more than the spell, so that w
// spins through the next such spell instead of parking and paying the
// wake-up: fixed steps run back to back leave the workers idle for the
// owner's work between them (merges, the trace's analysis), 100-300 µs.
// A spell longer than spinMax halves the budget, down to spinFor: a game
// that renders between its steps leaves the workers idle for
// milliseconds, and they park after spinFor again within a few steps.
// Executed only by w's goroutine.
func (w *participant) learnIdle(d int64) {
	switch {
	case d > int64(spinMax):
		w.spinBudget = max(int64(spinFor), w.spinBudget/2)
	case d > w.spinBudget:
		w.spinBudget = min(int64(spinMax), d+d/4)
	}
}

// beginIdle starts an idle spell of w as it runs out of work, unless one
// is under way; endIdle ends it (a job to run, see beginBusy, or the job
// w waited for finished) and learns from it. Executed only by w's
// goroutine.
func (w *participant) beginIdle(p *Pool) {
	if w.idleSince == 0 {
		w.idleSince = p.now()
	}
}

func (w *participant) endIdle(p *Pool) {
	if w.idleSince != 0 {
		w.learnIdle(p.now() - w.idleSince)
		w.idleSince = 0
	}
}

// spinUntil looks for work for at least spinRounds rounds and w's spin
// budget, relaxing in between, and stops early once target (if any)
// finishes. Uncounted in p.spinning: a waiting job is not a free worker.
// Executed only by w's goroutine.
func (p *Pool) spinUntil(w *participant, target *record) (uint32, bool) {
	var start int64
	budget := w.spinBudget
	if p.solo.Load() { // the owner runs its jobs alone: nothing to stay awake for
		budget = int64(spinFor)
	}
	for i := 0; ; i++ {
		if target != nil && target.outcome().Done() {
			return 0, false
		}
		p.relax()
		if idx, ok := p.find(w); ok {
			return idx, true
		}
		if i >= spinRounds && i%16 == 0 { // the clock costs more than a round
			if start == 0 {
				start = p.now()
			} else if p.now()-start > budget {
				return 0, false
			}
		}
	}
}

// find takes a ready job (see take). While w owes holds (see owe), the
// job must hold the same successor back, else w first releases what it
// owes and looks again: a job that makes ready then comes first, as if it
// had been released at once. Executed only by w's goroutine.
func (p *Pool) find(w *participant) (uint32, bool) {
	idx, ok := p.take(w)
	if w.owed == 0 || ok && p.holdsBack(idx, w.owed-1) {
		return idx, ok
	}
	if ok {
		p.push(w, idx, p.jobs.at(idx).job.Priority) // where it came from, or to be stolen from w
	}
	p.settle(w)
	return p.take(w)
}

// take takes a ready job: from w's own deques, then the injection queue, then
// by stealing from a random victim; High before Normal in each queue.
// Executed only by w's goroutine.
func (p *Pool) take(w *participant) (uint32, bool) {
	for pr := numPriorities - 1; pr >= 0; pr-- {
		if idx, ok := w.own[pr].pop(); ok {
			return idx, true
		}
		if idx, ok := w.dq[pr].pop(); ok {
			return idx, true
		}
	}
	if idx, ok := p.inj.take(); ok {
		return idx, true
	}
	n := uint64(len(p.parts))
	if n == 1 {
		return 0, false
	}
	w.rng ^= w.rng << 13 // xorshift64
	w.rng ^= w.rng >> 7
	w.rng ^= w.rng << 17
	start := w.rng % n
	for i := range n {
		v := p.parts[(start+i)%n]
		if v == w || !p.stealable(v) {
			continue
		}
		for pr := numPriorities - 1; pr >= 0; pr-- {
			if v.dq[pr].empty() {
				continue
			}
			w.attempts.Add(1)
			if idx, ok := v.dq[pr].steal(); ok {
				w.stolen.Add(1 + p.stealMore(w, idx, &v.dq[pr], Priority(pr)))
				return idx, true
			}
		}
	}
	return 0, false
}

// stealBatch bounds the jobs a thief takes in one go besides the first
// (see stealMore).
const stealBatch = 32

// stealMin is the least a victim's deque must hold for a thief to take more
// than one job: below it, leaving a short deque whole keeps what the
// others split (ParallelFor's range jobs split only while their runner's
// deque is empty) where it was.
const stealMin = 4

// stealMore follows a successful steal of job first from victim deque d:
// it moves up to half of what is left there, at most stealBatch, to w's own
// deque (see deque.stealInto) and returns how many. A steal reads the
// victim's bottom and claims its top, two cache lines the victim writes,
// and the victim's next pop reads top back: taken one at a time (W3: 1,000
// jobs in the owner's deque), every job moved both lines between the
// cores. Taken back to back, the lines stay in w's cache for the batch, and
// the victim's pops find top unchanged until w comes back. A ParallelFor
// range job is a batch already, split on demand (runChunks): a thief that
// took one takes nothing more (W2 was slower with batches of them).
// Executed only by w's goroutine, after take found w's deques empty. Not
// for the owner of a solo frame, whose deque nobody may take from.
func (p *Pool) stealMore(w *participant, first uint32, d *deque, pr Priority) uint64 {
	if p.private(w) || p.jobs.at(first).chunkEnd > 0 {
		return 0
	}
	n := d.size()
	if n < stealMin {
		return 0
	}
	k := d.stealInto(&w.dq[pr], min(n/2, stealBatch))
	if k > 0 {
		p.wake(w)
	}
	return uint64(k)
}

// run executes job idx on w: its body (for a ParallelFor range job, its
// chunks), unless it is blocked or cancelled; then its completion.
// Executed only by w's goroutine.
func (p *Pool) run(w *participant, idx uint32) {
	r := p.jobs.at(idx)
	if outcome := p.start(r); outcome != Running {
		if p.tracing.Load() {
			now := p.now()
			w.record(Event{Kind: KindJob, Worker: w.id, Job: p.handle(idx), Label: r.job.Label, Start: now, End: now})
		}
		from := Running // start claimed a blocked job
		if outcome == Cancelled {
			from = Pending
		}
		p.finish(w, idx, r, from, outcome)
		return
	}
	w.stack = append(w.stack, idx)
	saved := w.ctx.cur
	w.ctx.cur = r
	if r.chunkEnd > 0 {
		r.err = p.runChunks(w, idx, r)
	} else {
		r.err = p.runOnce(w, idx, r)
	}
	w.ctx.cur = saved
	w.stack = w.stack[:len(w.stack)-1]
	outcome := Succeeded
	if r.err != nil {
		outcome = Failed
	}
	p.finish(w, idx, r, Running, outcome)
}

// start claims a ready job, moving it from Pending to Running, unless
// Cancel came first (Cancelled, the job left Pending: a cancellation wins
// over a blocked cause, as documented). It returns Running, or Blocked if
// a prerequisite did not succeed: a blocked job is claimed too, so that a
// Cancel after this point reports false instead of true for a job that
// ends Blocked. Executed only by the goroutine that took the job from a
// queue; the CAS decides against a concurrent Cancel, and retries when a
// dependent's edge joins meanwhile. The cause is final: every
// prerequisite stored it before releasing its hold.
func (p *Pool) start(r *record) Outcome {
	blocked := r.cause.Load() != 0
	for {
		link := r.link.Load()
		if link&cancelBit != 0 {
			return Cancelled
		}
		if r.link.CompareAndSwap(link, link+uint64(Running-Pending)) {
			if blocked {
				return Blocked
			}
			return Running
		}
	}
}

// runOnce runs a plain job's body, traced as one slice. Executed only by
// w's goroutine, with r on top of w.stack.
func (p *Pool) runOnce(w *participant, idx uint32, r *record) *Error {
	tracing := p.tracing.Load()
	var start int64
	if tracing {
		start = p.now()
	}
	var err *Error
	if r.job.Run != nil {
		err = p.call(&w.ctx, r)
	}
	if tracing {
		w.record(Event{Kind: KindJob, Worker: w.id, Job: p.handle(idx), Label: r.job.Label, Start: start, End: p.now()})
	}
	return err
}

// runChunks runs a ParallelFor range job's chunks in order, each traced as
// its own slice. Lazy binary splitting: whenever w's deque is empty (no
// thief has anything to take from w) it first hands the upper half of the
// remaining chunks to a new range job, so idle participants get big ranges
// and a busy pool makes few jobs. Once the first chunk's cost is known, w
// keeps only about keepFor of chunks (see keepBudget). A chunk that
// panics fails the range job, but its other chunks still run, as do those
// of other range jobs: every chunk of the ParallelFor runs whatever the
// splitting, and the job's error is its first failed chunk's. Executed
// only by w's goroutine.
func (p *Pool) runChunks(w *participant, idx uint32, r *record) *Error {
	join := p.jobs.at(r.parent - 1)
	p.startAffine(w, idx, r, join)
	var failed *Error
	for k := int32(r.job.Label.Chunk); k < r.chunkEnd; {
		var err *Error
		if k, err = p.chunksFrom(w, idx, r, k, join); err != nil && failed == nil {
			failed = err
		}
	}
	return failed
}

// chunksFrom runs r's chunks from k on, splitting as runChunks says, and
// returns r's end, or after a panic the chunk after the one that panicked,
// with its error. One deferred recover serves the whole run of chunks: one
// per chunk, as call has, was about half of ParallelFor's cost per chunk
// (BenchmarkParallelForOverhead). Traced chunks go through runOnce, a
// slice each.
// Executed only by w's goroutine, which runs r; whether w's pushes are
// private changes only in Reset, when no job runs.
func (p *Pool) chunksFrom(w *participant, idx uint32, r *record, k int32, join *record) (next int32, err *Error) {
	defer func() {
		if v := recover(); v != nil {
			next, err = int32(r.job.Label.Chunk)+1, panicError(r, v)
		}
	}()
	n, batch := join.job.Lo, join.job.Hi
	pr := r.job.Priority
	split := !p.private(w)
	first := k
	var t0 int64
	for ; k < r.chunkEnd; k++ {
		if split && r.chunkEnd-k > 1 {
			if w.dq[pr].empty() {
				p.splitTail(w, idx, r, k+(r.chunkEnd-k+1)/2, join)
			}
			switch k {
			case first:
				t0 = p.now()
			case first + 1:
				p.keepBudget(w, idx, r, k, p.now()-t0, join)
			}
		}
		r.job.Label.Chunk = int(k)
		r.job.Lo = int(k) * batch
		r.job.Hi = min(r.job.Lo+batch, n)
		if !p.tracing.Load() {
			r.job.Run(&w.ctx)
		} else if err := p.runOnce(w, idx, r); err != nil {
			return k + 1, err
		}
	}
	return k, nil
}

// keepFor is about how much of a range job's work its runner keeps for
// itself; the rest waits on the runner's deque, where any participant can
// take it. The OS may deschedule a runner for milliseconds (another process
// busy on its core): the others then wait for at most the chunk it is in
// and keepFor, not for half of the pass, which is what binary splitting
// alone would leave with it. Each keepFor of work costs a split (a job
// record and a push), far below keepFor.
const keepFor = 100 * time.Microsecond

// keepBudget is called with the first chunk's cost, before chunk k runs:
// if r's remaining chunks at that cost are more than keepFor, it splits
// off all but keepFor's worth of them. Executed only by w's goroutine,
// which runs r.
func (p *Pool) keepBudget(w *participant, idx uint32, r *record, k int32, cost int64, join *record) {
	keep := int64(r.chunkEnd - k)
	if cost > 0 {
		keep = max(1, int64(keepFor)/cost)
	}
	if mid := k + int32(keep); mid < r.chunkEnd {
		p.splitTail(w, idx, r, mid, join)
	}
}

// startAffine starts a whole range job of n chunks at chunk n·id/P for
// participant id of P, and hands the chunks before it to a new range job:
// the owner starts at the front, the last worker near the back. Passes
// over the same rows (a system's chained passes, the next step's) then
// give each participant about the same rows whoever released them, and
// the rows stay in that core's cache; where the first participant to run
// a pass always started at the front, chained passes swapped halves
// between the cores whenever the other finished the previous pass last.
// Executed only by w's goroutine, before it runs r's first chunk.
func (p *Pool) startAffine(w *participant, idx uint32, r *record, join *record) {
	n := int32((join.job.Lo + join.job.Hi - 1) / join.job.Hi)
	if r.job.Label.Chunk != 0 || r.chunkEnd != n || p.private(w) {
		return // a range split off another, or nobody to hand chunks to
	}
	at := int32(int64(n) * int64(w.id) / int64(len(p.parts)))
	if at > 0 && p.splitOff(w, idx, r, 0, at, join) {
		r.job.Label.Chunk = int(at)
	}
}

// splitTail moves r's chunks from mid on to a new range job (see
// splitOff); with the arena full r keeps them. Executed only by w's
// goroutine, which runs r.
func (p *Pool) splitTail(w *participant, idx uint32, r *record, mid int32, join *record) {
	if p.splitOff(w, idx, r, mid, r.chunkEnd, join) {
		r.chunkEnd = mid
	}
}

// splitOff moves chunks [from, to) of range job r (arena index idx), its
// first or its last chunks, to a new range job on w's deque; the caller
// takes them off r. With the arena full it returns false, and r simply
// keeps them. Executed only by w's goroutine, which runs r: r's range is
// its own; the join's extra hold is added before the child can finish.
func (p *Pool) splitOff(w *participant, idx uint32, r *record, from, to int32, join *record) bool {
	child := r.job
	child.Label.Chunk = int(from)
	ci, cr, _, err := p.alloc(w, &child, 0)
	if err != nil {
		return false
	}
	cr.parent, cr.chunkEnd = r.parent, to
	cr.holds.v = 0 // still private: it has no prerequisites
	join.holds.Add(1)
	if p.tracing.Load() { // so that the analysis gives it r's prerequisites
		w.record(Event{Kind: KindSplit, Worker: w.id, Job: p.handle(ci), From: p.handle(idx), Start: p.now()})
	}
	p.ready(w, ci, cr)
	return true
}

// call runs a body and turns a panic into the job's error. Executed only
// by the goroutine running r, with c its participant's Ctx.
func (p *Pool) call(c *Ctx, r *record) (err *Error) {
	defer func() {
		if v := recover(); v != nil {
			err = panicError(r, v)
		}
	}()
	r.job.Run(c)
	return nil
}

// panicError is the error of r's body (of its current chunk), which
// panicked with v. Executed only in the deferred recover of the goroutine
// running r, so that the stack is the panic's.
func panicError(r *record, v any) *Error {
	e := &Error{Code: ErrFailed, Msg: fmt.Sprintf("panic: %v", v), Detail: Detail{Job: r.job.Label, Panic: v, Stack: debug.Stack()}}
	if err, ok := v.(error); ok { // its cause, for errors.As; the text stays "panic: v"
		e.Msg, e.Err = "panic", err
	}
	return e
}

// finish publishes a job's outcome (it was from: Pending or Running) and
// releases its successors, its ParallelFor join and its pipe. Executed only
// by w's goroutine.
func (p *Pool) finish(w *participant, idx uint32, r *record, from, outcome Outcome) {
	pipe := r.job.Pipe
	// Publish the outcome and read the successor list in one step: a
	// dependent added later sees the outcome and takes no hold.
	head := uint32(r.link.Add(uint64(outcome)-uint64(from)) >> 32)
	for e := head; e != 0; {
		ed := p.edges.at(e - 1)
		p.releaseTo(w, idx, r, ed.to)
		e = ed.next
	}
	if r.parent != 0 {
		p.releaseTo(w, idx, r, r.parent-1)
	}
	if pipe != nil {
		pipe.done(p, w)
	}
	if r.flags.Load()&flagWatched != 0 { // after the state store: pairs with help's prepare, store, recheck
		p.ec.notify(true)
		p.guests.notify(true)
	}
	w.executed++ // published in batches by publish; Reset may reuse r once it is
}

// releaseTo passes a finished prerequisite's outcome to successor to.
// Executed only by w's goroutine, which finished r (index from): the cause
// is stored before the hold is released.
func (p *Pool) releaseTo(w *participant, from uint32, r *record, to uint32) {
	if r.outcome() != Succeeded {
		p.blockBy(p.jobs.at(to), r, from)
	}
	if p.tracing.Load() {
		w.record(Event{Kind: KindEdge, Worker: w.id, Job: p.handle(to), From: p.handle(from), Start: p.now()})
	}
	p.owe(w, to)
}

// owe releases one hold of job to on behalf of w, later: w keeps count and
// releases them together (settle) when it is about to run a job that does
// not hold to back too, or finds none. So jobs that finish one after the
// other on w and share a successor (the 1,000 middle jobs of W3 and their
// join, a ParallelFor's range jobs) write its hold count once, not once
// each, from every core. That delays nothing: to cannot become ready
// before the jobs w runs meanwhile, which hold it too, have finished.
// Executed only by w's goroutine, for a job it finished; the blocked cause
// is already stored.
func (p *Pool) owe(w *participant, to uint32) {
	if w.owed == to+1 {
		w.owedN++
		return
	}
	p.settle(w)
	w.owed, w.owedN = to+1, 1
}

// settle releases the holds w owes (see owe). Executed only by w's
// goroutine: in find, and before w leaves help, so that nothing stays
// owed while w's goroutine does anything but run jobs that hold the
// successor back.
func (p *Pool) settle(w *participant) {
	if w.owed == 0 {
		return
	}
	to, n := w.owed-1, w.owedN
	w.owed, w.owedN = 0, 0
	p.releaseHolds(w, to, n)
}

// holdsBack reports whether job idx, not yet finished, holds job to back:
// to is its ParallelFor join, or its latest successor edge leads to to (an
// edge that joins an unfinished job holds its successor). Any goroutine.
func (p *Pool) holdsBack(idx, to uint32) bool {
	r := p.jobs.at(idx)
	if r.parent == to+1 {
		return true
	}
	head := uint32(r.link.Load() >> 32)
	return head != 0 && p.edges.at(head-1).to == to
}

// block records that job r cannot run because of root (cause kind k), keeping
// the dominant cause: failure over cancellation, and between equals the
// root first in the frame's order (see precedes), so that which
// prerequisite happened to finish first does not change the answer. Any
// goroutine: a finishing prerequisite or a scheduler that found one ended.
// The CAS loop makes concurrent blocks keep the dominant cause; it happens
// before r's hold is released, so r's executor sees it.
func (p *Pool) block(r *record, k uint64, root uint32) {
	c := k<<32 | uint64(root)
	for {
		old := r.cause.Load()
		if old != 0 && (old>>32 > k || old>>32 == k && !p.precedes(root, uint32(old))) {
			return // a stronger cause, or as strong and first
		}
		if r.cause.CompareAndSwap(old, c) {
			return
		}
	}
}

// precedes reports whether ended job a comes before ended job b in the
// order that picks a blocked job's cause: the order they were scheduled
// in (their index), where a ParallelFor's range jobs sort as its join,
// among themselves by the chunk that failed (or, cancelled, their first),
// since which range job holds which chunks depends on run-time splitting.
// Any goroutine: both jobs are done, so their errors and chunks are final.
func (p *Pool) precedes(a, b uint32) bool {
	ra, rb := p.jobs.at(a), p.jobs.at(b)
	ka, kb := a, b
	if ra.chunkEnd > 0 {
		ka = ra.parent - 1
	}
	if rb.chunkEnd > 0 {
		kb = rb.parent - 1
	}
	if ka == kb && ra.chunkEnd > 0 && rb.chunkEnd > 0 {
		return endChunk(ra) < endChunk(rb)
	}
	if ka != kb {
		return ka < kb
	}
	return a < b // a join before its own range jobs
}

// endChunk is the chunk an ended range job is known by: the first that
// failed, or the first it held. Any goroutine, once r is done.
func endChunk(r *record) int {
	if r.err != nil {
		return r.err.Detail.Job.Chunk
	}
	return r.job.Label.Chunk
}

// blockBy blocks r if prerequisite d (index di) did not succeed. Any
// goroutine, once d is done: its outcome (and a Blocked d's cause) is final.
func (p *Pool) blockBy(r, d *record, di uint32) {
	switch d.outcome() {
	case Failed:
		p.block(r, causeFailed, di)
	case Cancelled:
		p.block(r, causeCancelled, di)
	case Blocked:
		c := d.cause.Load()
		p.block(r, c>>32, uint32(c))
	}
}

// beginBusy and endBusy bracket a streak of jobs run back to back, so that
// busy time costs two clock reads per streak rather than per job; a streak
// ends w's idle spell, if one is under way (see beginIdle). Executed only
// by w's goroutine; nested streaks (a job's Wait) count once.
func (w *participant) beginBusy(p *Pool) {
	w.endIdle(p)
	if w.busySince == 0 {
		w.busySince = p.now() + 1 // +1: zero means "not in a streak"
	}
}

func (w *participant) endBusy(p *Pool) {
	if w.busySince != 0 && len(w.stack) == 0 {
		w.busy.Add(uint64(p.now() + 1 - w.busySince))
		w.busySince = 0
	}
}

// publish makes w's finished jobs count in idle, and wakes a draining owner.
// Executed only by w's goroutine, whenever it runs out of work and before it
// parks: jobs finished here are not idle-complete until then, and w touches
// none of their records afterwards.
func (p *Pool) publish(w *participant) {
	if w.done.Load() == w.executed {
		return
	}
	w.done.Store(w.executed)
	if w.id != 0 && p.draining.Load() { // after the store: pairs with drain's prepare, recheck idle; the owner is the drainer
		p.ec.notify(true)
	}
}

// unused is the slots of the frame that w, parts[0], reserved and that
// hold no job: those reserved ahead and not used yet, and those dropped
// (see reserveJobs). Executed only by the driver of parts[0].
func (w *participant) unused() uint64 { return uint64(w.slotEnd-w.slot) + uint64(w.dropped) }
