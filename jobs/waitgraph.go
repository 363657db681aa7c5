package jobs

import "sync"

// The wait-for graph: which participant is parked in a wait, and on which
// job. A job that waits (Ctx.Wait) holds up the jobs beneath it on its
// participant's stack, and a wait can close a loop through other
// participants: job O waits on its child K, a thief runs K, and K waits on
// O. Nothing finishes then, and every participant of the loop would park
// for ever. checkWait sees only the waiter's own stack; the graph sees the
// others', and only where a wait would park, so that a wait that finds its
// job done, or work to run meanwhile, pays nothing for it.
//
// Every participant of a loop parks before it can hang, and each checks
// the graph, with itself in it, under mu before it parks: the last of them
// to check finds the loop and is refused with ErrWaitCycle, which ends
// its wait and so the loop. The edges it follows are exact: a parked
// participant's stack does not change until it leaves the graph, and a
// job on a stack, or behind one through a dependency or a pipe, cannot
// finish before that participant's wait ends. So no loop is reported that
// would have ended.

// waitGraph is the participants parked in a wait. Guarded by mu.
type waitGraph struct {
	mu    sync.Mutex
	on    []uint32 // per participant: the job it is parked waiting on, index+1; 0 if it is not
	seen  []bool   // findLoop's scratch
	queue []int    // findLoop's scratch
}

func newWaitGraph(participants int) waitGraph {
	return waitGraph{on: make([]uint32, participants), seen: make([]bool, participants), queue: make([]int, 0, participants)}
}

// enterWait puts w in the graph as parked waiting on job idx, unless that
// closes a loop: then it refuses the wait. Executed only by w's goroutine,
// in help, before it parks; it must call leaveWait once it stops parking.
func (p *Pool) enterWait(w *participant, idx uint32, target *record) error {
	g := &p.waits
	g.mu.Lock()
	defer g.mu.Unlock()
	g.on[w.id] = idx + 1
	if held, ok := p.findLoop(w); ok {
		g.on[w.id] = 0
		return errorf(ErrWaitCycle, target.job.Label, "%s waits on it, and it cannot finish before %s does: it waits on it in turn, through jobs that other participants run (a wait cycle across workers); wait only on jobs that do not wait on the waiter",
			p.jobs.at(w.stack[len(w.stack)-1]).job.Label, p.jobs.at(held).job.Label)
	}
	return nil
}

// leaveWait takes w out of the graph. Executed only by w's goroutine,
// after enterWait, before it runs a job or leaves help.
func (p *Pool) leaveWait(w *participant) {
	p.waits.mu.Lock()
	p.waits.on[w.id] = 0
	p.waits.mu.Unlock()
}

// findLoop follows the graph from w: from a parked participant to those
// that hold up the job it waits on (see holdsUp). It reports the job of
// w's stack that a loop back to w runs through. Executed only by w's
// goroutine, holding p.waits.mu, with w in the graph.
func (p *Pool) findLoop(w *participant) (uint32, bool) {
	g := &p.waits
	clear(g.seen)
	g.queue = append(g.queue[:0], w.id)
	g.seen[w.id] = true
	for len(g.queue) > 0 {
		from := g.queue[len(g.queue)-1]
		g.queue = g.queue[:len(g.queue)-1]
		t := g.on[from] - 1
		tr := p.jobs.at(t)
		deep := tr.outcome() == Pending && tr.holds.Load() > 0
		if deep {
			clear(w.walker.seen)
		}
		for q, on := range g.on {
			if on == 0 {
				continue
			}
			s, held := p.holdsUp(w, p.parts[q], t, tr, deep)
			if !held {
				continue
			}
			if q == w.id {
				return s, true
			}
			if !g.seen[q] {
				g.seen[q] = true
				g.queue = append(g.queue, q)
			}
		}
	}
	return 0, false
}

// holdsUp reports whether job t cannot finish before parked participant
// q's wait ends, and the job of q's stack that holds it: t runs on q's
// stack, or t has not started and a job of q's stack comes before it
// (through dependencies when deep, its unfinished prerequisites) or
// occupies its pipe. Executed only by w's goroutine (whose walker it
// uses, cleared by the caller for t), holding p.waits.mu, so q's stack
// does not change meanwhile.
func (p *Pool) holdsUp(w, q *participant, t uint32, tr *record, deep bool) (uint32, bool) {
	pending := tr.outcome() == Pending
	for _, s := range q.stack {
		if s == t {
			return s, true
		}
		if !pending {
			continue
		}
		if tr.job.Pipe != nil && p.jobs.at(s).job.Pipe == tr.job.Pipe {
			return s, true
		}
		if deep && p.reaches(w, s, t) {
			clear(w.walker.seen) // what led to t is marked: the next walk must pass it
			return s, true
		}
	}
	return 0, false
}
