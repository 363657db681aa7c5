package jobs

import "sync"

// Pipe serialises jobs that use a resource which is not thread-safe, as
// UE's FPipe does: jobs on one pipe never overlap in time, run on any
// worker, and need no goroutine of their own. Ready jobs run in the order
// they became ready, so jobs without prerequisites run in launch order.
type Pipe struct {
	pool *Pool
	name string
	mu   sync.Mutex
	busy bool // a job of the pipe is queued or running; guarded by mu
	q    fifo // ready jobs waiting for the pipe; guarded by mu
}

// NewPipe makes a pipe for jobs of this pool. Any goroutine may call it.
func (p *Pool) NewPipe(name string) *Pipe { return &Pipe{pool: p, name: name} }

// ready queues job idx, or hands it to w's queues if the pipe is free.
// Called by whoever released the job's last hold.
func (pp *Pipe) ready(p *Pool, w *participant, idx uint32) {
	pp.mu.Lock()
	if pp.busy {
		pp.q.put(idx)
		pp.mu.Unlock()
		return
	}
	pp.busy = true
	pp.mu.Unlock()
	p.push(w, idx, p.jobs.at(idx).job.Priority)
}

// done passes the pipe to its next ready job. Called by the participant
// that finished the pipe's running job.
func (pp *Pipe) done(p *Pool, w *participant) {
	pp.mu.Lock()
	idx, ok := pp.q.take()
	pp.busy = ok
	pp.mu.Unlock()
	if ok {
		p.push(w, idx, p.jobs.at(idx).job.Priority)
	}
}
