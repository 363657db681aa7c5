package bench

import (
	"fmt"
	"testing"

	"github.com/weft-engine/weft/jobs"
)

// weft runs the workloads on a jobs.Pool owned by the goroutine that opened
// it. Every Run func is built once (package-level funcs, or a method value
// made in openWeft) and all per-job state travels in Lo/Hi and a
// pointer-shaped Data, so steady-state ops allocate nothing. Each op ends
// with a Wait and a Reset.
type weft struct {
	p            *jobs.Pool
	hs           []jobs.Handle // W1 batch and W3 middle-job handles
	fibs         []int64       // W4 result slots, indexed as a binary tree (root 1)
	fib2F, fib1F jobs.Func     // W4 job bodies, w.fib2Job and w.fib1Job
	plan         *jobs.Plan    // W3's graph built once (form=1000jobs-plan) ...
	planFor      *dag          // ... for this dag
	planJoin     jobs.PlanJob  // its join

	stats0, stats1 []jobs.WorkerStats // the pool's counters at begin and report
}

// weftFibDepth bounds the W4 fork tree: 2^weftFibDepth result slots hold
// fib(n) for n up to fibCutoff - 2 + weftFibDepth (fib(30) with depth 16).
const weftFibDepth = 16

func openWeft(bool) (system, error) {
	p, err := jobs.New(jobs.Options{Workers: jobs.DefaultWorkers})
	if err != nil {
		return nil, err
	}
	w := &weft{
		p:    p,
		hs:   make([]jobs.Handle, max(w1Batch, w3Width)),
		fibs: make([]int64, 1<<weftFibDepth),
	}
	w.fib2F, w.fib1F = w.fib2Job, w.fib1Job
	return w, nil
}

// frame waits for h, then resets the pool for the next op.
func (w *weft) frame(h jobs.Handle) error {
	if err := w.p.Wait(h); err != nil {
		return err
	}
	return w.p.Reset()
}

// weftEmpty is the W1 job body.
func weftEmpty(*jobs.Ctx) { emptyJob() }

// emptyJobs schedules n independent jobs and waits once: Reset waits for
// every job of the frame (the owner helping), as wg.Wait does for the peers.
func (w *weft) emptyJobs(n int) error {
	for range n {
		if _, err := w.p.Schedule(jobs.Job{Run: weftEmpty}); err != nil {
			return err
		}
	}
	return w.p.Reset()
}

// weftScale is the W2 chunk body; Data is the *vector.
func weftScale(c *jobs.Ctx) {
	lo, hi := c.Range()
	scale(c.Data().(*vector).x[lo:hi])
}

func (w *weft) parallelFor(v *vector, chunk int) error {
	h, err := w.p.ParallelFor(jobs.Job{Run: weftScale, Data: v}, len(v.x), chunk)
	if err != nil {
		return err
	}
	return w.frame(h)
}

// The W3 job bodies; Data is the *dag, Lo the middle job's index (for
// the range form, Lo and Hi the chunk's items).
func weftRoot(c *jobs.Ctx) { c.Data().(*dag).root() }
func weftMid(c *jobs.Ctx)  { lo, _ := c.Range(); c.Data().(*dag).mid(lo) }
func weftJoin(c *jobs.Ctx) { c.Data().(*dag).join() }

func weftMids(c *jobs.Ctx) {
	lo, hi := c.Range()
	d := c.Data().(*dag)
	for i := lo; i < hi; i++ {
		d.mid(i)
	}
}

func (w *weft) wideDAG(d *dag, f dagForm) error {
	if f == dagPlan {
		return w.planDAG(d)
	}
	root, err := w.p.Schedule(jobs.Job{Run: weftRoot, Data: d})
	if err != nil {
		return err
	}
	mids := w.hs[:w3Width]
	if f == dagRange { // one ParallelFor of one item per chunk; it splits as it runs
		if mids[0], err = w.p.ParallelFor(jobs.Job{Run: weftMids, Data: d}, w3Width, 1, root); err != nil {
			return err
		}
		mids = mids[:1]
	} else {
		for i := range mids {
			if mids[i], err = w.p.Schedule(jobs.Job{Run: weftMid, Data: d, Lo: i}, root); err != nil {
				return err
			}
		}
	}
	join, err := w.p.Schedule(jobs.Job{Run: weftJoin, Data: d}, mids...)
	if err != nil {
		return err
	}
	return w.frame(join)
}

// planDAG runs W3's graph as a jobs.Plan, built on the first op for d
// (as the C++ peers build theirs) and run every op after.
func (w *weft) planDAG(d *dag) error {
	if w.planFor != d {
		p := w.p.NewPlan()
		root, err := p.Add(jobs.Job{Run: weftRoot, Data: d})
		if err != nil {
			return err
		}
		mids := make([]jobs.PlanJob, w3Width)
		for i := range mids {
			if mids[i], err = p.Add(jobs.Job{Run: weftMid, Data: d, Lo: i}, root); err != nil {
				return err
			}
		}
		if w.planJoin, err = p.Add(jobs.Job{Run: weftJoin, Data: d}, mids...); err != nil {
			return err
		}
		if err := p.Build(); err != nil {
			return err
		}
		w.plan, w.planFor = p, d
	}
	run, err := w.p.Run(w.plan)
	if err != nil {
		return err
	}
	return w.frame(run.Handle(w.planJoin))
}

func (w *weft) fib(n int, f forkForm) (int64, error) {
	if n-fibCutoff+2 > weftFibDepth { // the deepest children have index < 2^(n-fibCutoff+2)
		return 0, fmt.Errorf("weft fib(%d): more than 2^%d result slots needed", n, weftFibDepth)
	}
	fn := w.fib2F
	if f == fork1Inline {
		fn = w.fib1F
	}
	h, err := w.p.Schedule(jobs.Job{Run: fn, Lo: n, Hi: 1, Data: &w.fibs[1]})
	if err != nil {
		return 0, err
	}
	if err := w.frame(h); err != nil {
		return 0, err
	}
	return w.fibs[1], nil
}

// The W4 job computing fib(n) into tree slot k has Lo n, Hi k and Data
// pointing at the slot. Errors in its body are bugs, hence the panics.

// fib2Job forks both children, 2k and 2k+1, as jobs and waits for both,
// helping the pool meanwhile.
func (w *weft) fib2Job(c *jobs.Ctx) {
	n, k := c.Range()
	out := c.Data().(*int64)
	if n < fibCutoff {
		*out = fibSerial(n)
		return
	}
	left, err := c.Schedule(jobs.Job{Run: w.fib2F, Lo: n - 1, Hi: 2 * k, Data: &w.fibs[2*k]})
	if err != nil {
		panic(err)
	}
	right, err := c.Schedule(jobs.Job{Run: w.fib2F, Lo: n - 2, Hi: 2*k + 1, Data: &w.fibs[2*k+1]})
	if err != nil {
		panic(err)
	}
	if err := c.Wait(left); err != nil {
		panic(err)
	}
	if err := c.Wait(right); err != nil {
		panic(err)
	}
	*out = w.fibs[2*k] + w.fibs[2*k+1]
}

// fib1Job forks with Ctx.Fork: the left child a job (slot 2k) that others
// may steal, the right one computed here (fibHere).
func (w *weft) fib1Job(c *jobs.Ctx) {
	n, k := c.Range()
	*c.Data().(*int64) = w.fibHere(c, n, k)
}

// fibHere is fib(n) for tree slot k on c's goroutine, forking as fib1Job.
func (w *weft) fibHere(c *jobs.Ctx, n, k int) int64 {
	if n < fibCutoff {
		return fibSerial(n)
	}
	var right int64
	left := jobs.Job{Run: w.fib1F, Lo: n - 1, Hi: 2 * k, Data: &w.fibs[2*k]}
	if err := c.Fork(left, func(c *jobs.Ctx) { right = w.fibHere(c, n-2, 2*k+1) }); err != nil {
		panic(err)
	}
	return w.fibs[2*k] + right
}

func (w *weft) close() error { return w.p.Close() }

func (w *weft) begin() { w.stats0 = w.p.Stats(w.stats0[:0]) }

// report adds, per op, the jobs the workers ran (the owner ran the rest),
// the jobs stolen, the steal attempts (a thief takes a batch of jobs in
// one), the parks and the wake-ups of every participant together.
func (w *weft) report(b *testing.B) {
	w.stats1 = w.p.Stats(w.stats1[:0])
	var ran, stolen, attempts, parks, wakes uint64
	for i, s := range w.stats1 {
		s0 := w.stats0[i]
		if i > 0 {
			ran += s.Executed - s0.Executed
		}
		stolen += s.Stolen - s0.Stolen
		attempts += s.StealAttempts - s0.StealAttempts
		parks += s.Parks - s0.Parks
		wakes += s.Wakes - s0.Wakes
	}
	n := float64(b.N)
	b.ReportMetric(float64(ran)/n, "workerjobs/op")
	b.ReportMetric(float64(stolen)/n, "steals/op")
	b.ReportMetric(float64(attempts)/n, "stealtries/op")
	b.ReportMetric(float64(parks)/n, "parks/op")
	b.ReportMetric(float64(wakes)/n, "wakes/op")
}
