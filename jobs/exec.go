package jobs

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"sync/atomic"
	"time"
)

// An idle participant looks for work at least spinRounds times, yielding in
// between, and for at least spinFor, before it parks. Waking a parked
// worker costs tens of microseconds (a futex round trip, more in a VM); a
// frame's passes follow each other closer than that, so a worker that
// spins across the tail of a pass is there when the next one starts.
const (
	spinRounds = 64
	spinFor    = 50 * time.Microsecond
)

// participant is the owner or a worker: its deques, its Ctx and its
// counters. Everything but the deques' tops and the counters' reads is
// touched only by the goroutine that drives it.
type participant struct {
	dq                            [numPriorities]deque
	executed                      uint64        // jobs finished here; only this goroutine touches it
	busySince                     int64         // start of the current streak of jobs + 1, 0 outside one; this goroutine only
	done                          atomic.Uint64 // executed as last published (see publish)
	stolen, attempts, parks, busy atomic.Uint64

	id    int
	rng   uint64
	sema  chan struct{}
	stack []uint32 // jobs running on this goroutine, innermost last
	ctx   Ctx
	ring  *ring
	seen  map[uint32]struct{} // cycle check scratch
	walk  []uint32            // cycle check scratch
	_     [64]byte            // keep the next participant's hot fields off this line
}

func newParticipant(p *Pool, id int) *participant {
	w := &participant{id: id, rng: uint64(id)*0x9E3779B97F4A7C15 + 1, sema: make(chan struct{}, 1),
		stack: make([]uint32, 0, 64), seen: make(map[uint32]struct{})}
	w.ctx = Ctx{p: p, w: w}
	return w
}

// work is a worker goroutine's loop. It parks when no work is found after
// spinning and exits once the pool quits.
func (p *Pool) work(w *participant) {
	defer p.wg.Done()
	for {
		idx, ok := p.find(w)
		if !ok {
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

// find takes a ready job: from w's own deques, then the injection queue, then
// by stealing from a random victim; High before Normal in each queue.
// Executed only by w's goroutine.
func (p *Pool) find(w *participant) (uint32, bool) {
	for pr := numPriorities - 1; pr >= 0; pr-- {
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
		if v == w {
			continue
		}
		for pr := numPriorities - 1; pr >= 0; pr-- {
			if v.dq[pr].empty() {
				continue
			}
			w.attempts.Add(1)
			if idx, ok := v.dq[pr].steal(); ok {
				w.stolen.Add(1)
				return idx, true
			}
		}
	}
	return 0, false
}

// push makes a ready job available: on w's deque, or through the injection
// queue for guests and on overflow; then wakes a sleeper if nobody is
// spinning. Executed by w's goroutine (w may be nil for a guest).
func (p *Pool) push(w *participant, idx uint32, pr Priority) {
	if w == nil || !w.dq[pr].push(idx) {
		p.inj.put(idx, pr)
	}
	// Wake a sleeper only if there is one and nobody is already looking.
	// Both loads are seq-cst and follow the push: a waiter prepares, and a
	// spinner stops spinning, before rechecking the queues.
	if p.ec.waiters() != 0 && p.spinning.Load() == 0 {
		p.ec.notify(false)
	}
}

// ready hands a job whose last hold was released to its pipe or a queue.
func (p *Pool) ready(w *participant, idx uint32, r *record) {
	if r.job.Pipe != nil {
		r.job.Pipe.ready(p, w, idx)
		return
	}
	p.push(w, idx, r.job.Priority)
}

// releaseHold drops one hold of job idx and readies it at zero.
func (p *Pool) releaseHold(w *participant, idx uint32) {
	r := p.jobs.at(idx)
	if r.holds.Add(-1) == 0 {
		p.ready(w, idx, r)
	}
}

// block records that job r cannot run because of root (cause kind k), keeping
// the dominant cause: failure over cancellation, the first of equals.
func (r *record) block(k uint64, root uint32) {
	c := k<<32 | uint64(root)
	for {
		old := r.cause.Load()
		if old>>32 >= k || r.cause.CompareAndSwap(old, c) {
			return
		}
	}
}

// blockBy blocks r if prerequisite d (index di) did not succeed.
func (r *record) blockBy(d *record, di uint32) {
	switch d.outcome() {
	case Failed:
		r.block(causeFailed, di)
	case Cancelled:
		r.block(causeCancelled, di)
	case Blocked:
		c := d.cause.Load()
		r.block(c>>32, uint32(c))
	}
}

// run executes job idx on w: its body (for a ParallelFor range job, its
// chunks), unless it is blocked or cancelled; then its completion.
// Executed only by w's goroutine.
func (p *Pool) run(w *participant, idx uint32) {
	r := p.jobs.at(idx)
	var outcome Outcome
	switch c := r.cause.Load(); {
	case c>>32 == causeFailed:
		outcome = Blocked
	case r.cancel.Load() != 0:
		outcome = Cancelled
	case c != 0:
		outcome = Blocked
	}
	if outcome != 0 {
		if p.tracing.Load() {
			now := p.now()
			w.record(Event{Kind: KindJob, Worker: w.id, Job: p.handle(idx), Label: r.job.Label, Start: now, End: now})
		}
		p.finish(w, idx, r, outcome)
		return
	}
	r.link.Add(uint64(Running - Pending)) // the outcome sits in the low word
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
	outcome = Succeeded
	if r.err != nil {
		outcome = Failed
	}
	p.finish(w, idx, r, outcome)
}

// runOnce runs a plain job's body, traced as one slice.
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
// keeps only about keepFor of chunks (see keepBudget). A panic ends the
// range job; the chunks of other range jobs still run. Executed only by
// w's goroutine.
func (p *Pool) runChunks(w *participant, idx uint32, r *record) *Error {
	join := p.jobs.at(r.parent - 1)
	n, batch := join.job.Lo, join.job.Hi
	pr := r.job.Priority
	first := int32(r.job.Label.Chunk)
	var t0 int64
	for k := first; k < r.chunkEnd; k++ {
		if r.chunkEnd-k > 1 && len(p.parts) > 1 {
			if w.dq[pr].empty() {
				p.splitOff(w, idx, r, k+(r.chunkEnd-k+1)/2, join)
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
		if err := p.runOnce(w, idx, r); err != nil {
			return err
		}
	}
	return nil
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
// off all but keepFor's worth of them. Executed only by w's goroutine.
func (p *Pool) keepBudget(w *participant, idx uint32, r *record, k int32, cost int64, join *record) {
	keep := int64(r.chunkEnd - k)
	if cost > 0 {
		keep = max(1, int64(keepFor)/cost)
	}
	if keep < int64(r.chunkEnd-k) {
		p.splitOff(w, idx, r, k+int32(keep), join)
	}
}

// splitOff moves chunks [mid, chunkEnd) of range job r (arena index idx)
// to a new range job on w's deque. With the arena full, r simply keeps
// them.
func (p *Pool) splitOff(w *participant, idx uint32, r *record, mid int32, join *record) {
	child := r.job
	child.Label.Chunk = int(mid)
	ci, cr, _, err := p.alloc(&child, 0)
	if err != nil {
		return
	}
	cr.parent, cr.chunkEnd = r.parent, r.chunkEnd
	cr.holds.v = 0 // still private: it has no prerequisites
	join.holds.Add(1)
	r.chunkEnd = mid
	if p.tracing.Load() { // so that the analysis gives it r's prerequisites
		w.record(Event{Kind: KindSplit, Worker: w.id, Job: p.handle(ci), From: p.handle(idx), Start: p.now()})
	}
	p.ready(w, ci, cr)
}

// call runs a body and turns a panic into the job's error.
func (p *Pool) call(c *Ctx, r *record) (err *Error) {
	defer func() {
		if v := recover(); v != nil {
			err = &Error{Code: CodeFailed, Job: r.job.Label, Msg: fmt.Sprintf("panic: %v", v), Panic: v, Stack: debug.Stack()}
		}
	}()
	r.job.Run(c)
	return nil
}

// finish publishes a job's outcome and releases its successors, its
// ParallelFor join and its pipe. Executed only by w's goroutine.
func (p *Pool) finish(w *participant, idx uint32, r *record, outcome Outcome) {
	pipe := r.job.Pipe
	// Publish the outcome and close the successor list in one step: a
	// dependent added later sees the outcome instead of joining the list.
	head := uint32(r.link.Swap(uint64(succClosed)<<32|uint64(outcome)) >> 32)
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
	if r.watched.Load() != 0 { // after the state store: pairs with help's prepare, store, recheck
		p.ec.notify(true)
		p.guests.notify(true)
	}
	w.executed++ // published in batches by publish; Reset may reuse r once it is
}

// beginBusy and endBusy bracket a streak of jobs run back to back, so that
// busy time costs two clock reads per streak rather than per job. Executed
// only by w's goroutine; nested streaks (a job's Wait) count once.
func (w *participant) beginBusy(p *Pool) {
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
	if p.draining.Load() { // after the store: pairs with drain's prepare, recheck idle
		p.ec.notify(true)
	}
}

// releaseTo passes a finished prerequisite's outcome to successor to.
func (p *Pool) releaseTo(w *participant, from uint32, r *record, to uint32) {
	if r.outcome() != Succeeded {
		p.jobs.at(to).blockBy(r, from)
	}
	if p.tracing.Load() {
		w.record(Event{Kind: KindEdge, Worker: w.id, Job: p.handle(to), From: p.handle(from), Start: p.now()})
	}
	p.releaseHold(w, to)
}

func (p *Pool) handle(idx uint32) Handle { return Handle{pool: p.id, gen: p.epoch.Load(), idx: idx} }

// help runs jobs on w until target is done, parking when there is nothing
// to run. It refuses waits that could never end. Executed only by w's goroutine.
func (p *Pool) help(w *participant, idx uint32, target *record) error {
	if err := p.checkWait(w, idx, target); err != nil {
		return err
	}
	defer w.endBusy(p)
	for !target.outcome().Done() {
		j, ok := p.find(w)
		if !ok && len(p.parts) > 1 {
			w.endBusy(p)
			j, ok = p.spinUntil(w, target)
		}
		if ok {
			w.beginBusy(p)
			p.run(w, j)
			continue
		}
		if target.outcome().Done() {
			break
		}
		if len(p.parts) == 1 {
			// Serial executor: nothing is ready and nobody else runs jobs.
			return errorf(CodeWaitCycle, target.job.Label, "no job can run while waiting; a pipe job waits on a later job of its own pipe, or the job waits on work only this job could release")
		}
		if j, ok := p.park(w, func() bool { target.watched.Store(1); return target.outcome().Done() }); ok {
			w.beginBusy(p)
			p.run(w, j)
		}
	}
	return nil
}

// spinUntil looks for work for at least spinRounds rounds and spinFor,
// yielding in between, and stops early once target (if any) finishes. Uncounted in
// p.spinning: a waiting job is not a free worker. Executed only by w's goroutine.
func (p *Pool) spinUntil(w *participant, target *record) (uint32, bool) {
	var start int64
	for i := 0; ; i++ {
		if target != nil && target.outcome().Done() {
			return 0, false
		}
		runtime.Gosched()
		if idx, ok := p.find(w); ok {
			return idx, true
		}
		if i >= spinRounds && i%16 == 0 { // the clock costs more than a round
			if start == 0 {
				start = p.now()
			} else if p.now()-start > int64(spinFor) {
				return 0, false
			}
		}
	}
}

// sleepUntil parks a guest goroutine until target is done. Any goroutine may call it.
func (p *Pool) sleepUntil(target *record) {
	var sema chan struct{}
	for !target.outcome().Done() {
		if sema == nil {
			sema = make(chan struct{}, 1)
		}
		epoch := p.guests.prepare()
		target.watched.Store(1)
		if target.outcome().Done() {
			p.guests.cancel()
			return
		}
		p.guests.commit(sema, epoch)
	}
}

// idle reports whether no job is in flight: every job reserved in the arena
// is finished and published. Executed only by the owner. Reading the done counts before the arena's
// count makes it conservative: a job is reserved before it can finish.
func (p *Pool) idle() bool {
	var done uint64
	for _, w := range p.parts {
		done += w.done.Load()
	}
	return done == p.finishedFrames+uint64(p.jobs.next.Load())
}

// drain helps until no job is in flight. Executed only by the owner (w).
func (p *Pool) drain(w *participant) {
	p.draining.Store(true)
	defer p.draining.Store(false)
	defer w.endBusy(p)
	for spins := 0; ; spins++ {
		p.publish(w)
		if p.idle() {
			return
		}
		if j, ok := p.find(w); ok {
			w.beginBusy(p)
			p.run(w, j)
			continue
		}
		w.endBusy(p)
		if spins < spinRounds { // workers publish as they run dry: usually soon
			runtime.Gosched()
			continue
		}
		if j, ok := p.park(w, p.idle); ok {
			w.beginBusy(p)
			p.run(w, j)
		}
	}
}

// park puts w to sleep until a notify, unless, after it announced the sleep,
// done reports true or a job turns up: it returns that job, if any. done
// runs after the announcement, so a change it checks for that comes with a
// notify is never missed. Executed only by w's goroutine.
func (p *Pool) park(w *participant, done func() bool) (uint32, bool) {
	epoch := p.ec.prepare()
	if done() {
		p.ec.cancel()
		return 0, false
	}
	if j, ok := p.find(w); ok {
		p.ec.cancel()
		return j, true
	}
	p.publish(w)
	w.parks.Add(1)
	p.ec.commit(w.sema, epoch)
	return 0, false
}

// checkWait refuses a wait by w on target that could never end: on a job
// running on w's own stack, on one that (transitively) needs such a job, or
// on a not-yet-started job of a pipe that a job on the stack occupies.
func (p *Pool) checkWait(w *participant, idx uint32, target *record) error {
	if len(w.stack) == 0 || target.outcome().Done() {
		return nil
	}
	// Without an unfinished prerequisite the target cannot need a job of the
	// stack (all of them are unfinished): only then is the walk needed.
	deep := target.holds.Load() > 0
	if deep {
		clear(w.seen)
	}
	for _, s := range w.stack {
		sr := p.jobs.at(s)
		if s == idx {
			return errorf(CodeWaitCycle, target.job.Label, "a job waits on itself; wait on other jobs only")
		}
		if target.job.Pipe != nil && sr.job.Pipe == target.job.Pipe && target.outcome() == Pending {
			return errorf(CodeWaitCycle, target.job.Label, "%s waits on a later job of its own pipe %q, which cannot start before it ends", sr.job.Label, target.job.Pipe.name)
		}
		if deep && p.reaches(w, s, idx) {
			return errorf(CodeWaitCycle, target.job.Label, "%s waits on a job that depends on it; wait only on jobs it does not precede", sr.job.Label)
		}
	}
	return nil
}

// reaches reports whether to is a transitive successor of from: an
// iterative walk over successor edges and ParallelFor joins, w.seen
// marking what it visited (cleared by the caller).
func (p *Pool) reaches(w *participant, from, to uint32) bool {
	w.walk = append(w.walk[:0], from)
	for len(w.walk) > 0 {
		u := w.walk[len(w.walk)-1]
		w.walk = w.walk[:len(w.walk)-1]
		if _, ok := w.seen[u]; ok {
			continue
		}
		w.seen[u] = struct{}{}
		r := p.jobs.at(u)
		if r.parent != 0 {
			w.walk = append(w.walk, r.parent-1)
		}
		for e := uint32(r.link.Load() >> 32); e != 0 && e != succClosed; {
			ed := p.edges.at(e - 1)
			w.walk = append(w.walk, ed.to)
			e = ed.next
		}
		if u != from && u == to {
			return true
		}
	}
	return false
}

// schedule makes a job on behalf of w (nil for a guest).
func (p *Pool) schedule(w *participant, j Job, deps []Handle) (Handle, error) {
	if err := p.validate(&j, deps); err != nil {
		return Handle{}, err
	}
	idx, r, e0, err := p.alloc(&j, len(deps))
	if err != nil {
		return Handle{}, err
	}
	if len(deps) == 0 { // still private: no atomic needed to drop the builder's hold
		r.holds.v = 0
		p.ready(w, idx, r)
	} else {
		p.depend(w, idx, r, e0, deps)
		p.releaseHold(w, idx)
	}
	return p.handle(idx), nil
}

// validate checks a job and its dependency handles before anything is
// reserved, so that a refused job leaves no trace.
func (p *Pool) validate(j *Job, deps []Handle) error {
	if err := p.checkJob(j); err != nil {
		return err
	}
	for _, d := range deps {
		if _, err := p.lookup(d); err != nil {
			return err
		}
	}
	return nil
}

func (p *Pool) checkJob(j *Job) error {
	if j.Priority >= numPriorities {
		return errorf(CodeBadArgument, j.Label, "Priority %d is not Normal or High", j.Priority)
	}
	if j.Pipe != nil && j.Pipe.pool != p {
		return errorf(CodeBadArgument, j.Label, "pipe %q belongs to another pool; make it with this pool's NewPipe", j.Pipe.name)
	}
	return nil
}

// alloc reserves and initialises a record holding the builder's hold, and
// k edges for its dependencies, returned as the first edge index.
func (p *Pool) alloc(j *Job, k int) (uint32, *record, uint32, error) {
	var e0 uint32
	if k > 0 {
		var ok bool
		if e0, ok = p.edges.reserve(k); !ok {
			return 0, nil, 0, errorf(CodeArenaFull, j.Label, "more than %d dependency edges since the last Reset; call Reset between frames or raise Options.MaxJobs", p.edges.limit)
		}
	}
	idx, ok := p.jobs.reserve(1)
	if !ok {
		return 0, nil, 0, errorf(CodeArenaFull, j.Label, "more than %d jobs since the last Reset; call Reset between frames or raise Options.MaxJobs", p.jobs.limit)
	}
	r := p.jobs.at(idx)
	r.cause.v, r.link.v, r.holds.v, r.cancel.v, r.watched.v = 0, uint64(Pending), 1, 0, 0
	r.parent, r.chunkEnd, r.err = 0, 0, nil
	r.job = *j
	r.gen.Store(p.epoch.Load()) // last: Snapshot and lookup read the record only after seeing it
	return idx, r, e0, nil
}

// depend adds a hold and a successor edge (from e0 on) on each dependency
// still running, and takes over the cause of any that already ended
// without success.
func (p *Pool) depend(w *participant, idx uint32, r *record, e0 uint32, deps []Handle) {
	for i, d := range deps {
		dr := p.jobs.at(d.idx)
		if !p.addEdge(dr, e0+uint32(i), idx, r) {
			r.blockBy(dr, d.idx)
			if w != nil && p.tracing.Load() { // the edge is in the graph even though it held nothing back
				w.record(Event{Kind: KindEdge, Worker: w.id, Job: p.handle(idx), From: d, Start: p.now()})
			}
		}
	}
}

// addEdge links job to (record r) as a successor of d through edge ei and
// reports false if d has already ended. Any goroutine may call it.
func (p *Pool) addEdge(d *record, ei, to uint32, r *record) bool {
	e := p.edges.at(ei)
	e.to = to
	r.holds.Add(1)
	for {
		link := d.link.Load()
		head := uint32(link >> 32)
		if head == succClosed {
			r.holds.Add(-1) // never reaches 0: the builder still holds
			return false
		}
		e.next = head
		if d.link.CompareAndSwap(link, uint64(ei+1)<<32|link&(1<<32-1)) { // publishes e to the finisher's Swap
			return true
		}
	}
}

// parallelFor builds a join and one root range job over all chunks; range
// jobs split as they run (see runChunks).
func (p *Pool) parallelFor(w *participant, j Job, n, batch int, deps []Handle) (Handle, error) {
	if n < 0 || batch < 1 || j.Run == nil || j.Pipe != nil {
		return Handle{}, errorf(CodeBadArgument, j.Label, "ParallelFor(n=%d, batch=%d) needs n >= 0, batch >= 1, a Run func and no Pipe", n, batch)
	}
	chunks := (n + batch - 1) / batch
	if chunks == 0 {
		return p.schedule(w, Job{Label: j.Label, Priority: j.Priority}, deps)
	}
	if chunks > 1<<31-1 {
		return Handle{}, errorf(CodeBadArgument, j.Label, "ParallelFor(n=%d, batch=%d) has too many chunks; raise batch", n, batch)
	}
	if err := p.validate(&j, deps); err != nil {
		return Handle{}, err
	}
	ji, jr, _, err := p.alloc(&Job{Label: Label{Name: j.Label.Name, Chunk: -1}, Lo: n, Hi: batch, Priority: j.Priority}, 0)
	if err != nil {
		return Handle{}, err
	}
	jr.holds.Add(1) // the root range job's hold
	j.Label.Chunk = 0
	ri, rr, e0, err := p.alloc(&j, len(deps))
	if err != nil {
		jr.cancel.Store(1)
		jr.holds.Add(-1)
		p.releaseHold(w, ji) // the join finishes Cancelled
		return Handle{}, err
	}
	rr.parent, rr.chunkEnd = ji+1, int32(chunks)
	p.depend(w, ri, rr, e0, deps)
	p.releaseHold(w, ri)
	p.releaseHold(w, ji)
	return p.handle(ji), nil
}
