package engine_test

// The examples of docs/errors.md's jobs section (WEFT-J…): each section's
// ```go block is copied here verbatim, and its Example prints the error,
// so that the page shows what the pool really says (TestErrorPages).

import (
	"fmt"
	"regexp"

	"github.com/weft-engine/weft/jobs"
)

// firstPool shows a handle of err as one of the process's first pool:
// the pool's number in a handle's text (job#index@pool.generation)
// counts the pools made so far.
func firstPool(err error) string {
	return regexp.MustCompile(`@\d+\.`).ReplaceAllString(err.Error(), "@1.")
}

func Example_j001() {
	p, _ := jobs.New(jobs.Options{})
	defer p.Close()
	job := jobs.Job{Label: jobs.Label{Name: "physics"}, Run: func(*jobs.Ctx) {}}
	h, _ := p.Schedule(job)
	p.Reset()
	err := p.Wait(h) // jobs: WEFT-J001: job#0@1.1 is from before the last Reset; handles are valid only within their frame
	fmt.Println(firstPool(err))
	// Output: jobs: WEFT-J001: job#0@1.1 is from before the last Reset; handles are valid only within their frame
}

func Example_j002() {
	p, _ := jobs.New(jobs.Options{})
	defer p.Close()
	var h jobs.Handle
	err := p.Wait(h) // jobs: WEFT-J002: job#0@0.0 was not made by this pool (a zero Handle, or one from another Pool); pass a handle this pool returned
	fmt.Println(err)
	// Output: jobs: WEFT-J002: job#0@0.0 was not made by this pool (a zero Handle, or one from another Pool); pass a handle this pool returned
}

func Example_j003() {
	p, _ := jobs.New(jobs.Options{})
	job := jobs.Job{Label: jobs.Label{Name: "physics"}, Run: func(*jobs.Ctx) {}}
	p.Close()
	_, err := p.Schedule(job) // jobs: WEFT-J003 "physics"[0]: the pool is closed; schedule before Close
	fmt.Println(err)
	// Output: jobs: WEFT-J003 "physics"[0]: the pool is closed; schedule before Close
}

func Example_j004() {
	a, b, c := jobs.Job{Label: jobs.Label{Name: "a"}}, jobs.Job{Label: jobs.Label{Name: "b"}}, jobs.Job{Label: jobs.Label{Name: "c"}}
	p, _ := jobs.New(jobs.Options{MaxJobs: 2})
	p.Schedule(a)
	p.Schedule(b)
	_, err := p.Schedule(c) // jobs: WEFT-J004 "c"[0]: more than 2 jobs since the last Reset; call Reset between frames or raise Options.MaxJobs
	defer p.Close()
	fmt.Println(err)
	// Output: jobs: WEFT-J004 "c"[0]: more than 2 jobs since the last Reset; call Reset between frames or raise Options.MaxJobs
}

func Example_j005() {
	p, _ := jobs.New(jobs.Options{})
	defer p.Close()
	h, _ := p.Schedule(jobs.Job{Label: jobs.Label{Name: "physics.Integrate", Chunk: 3},
		Run: func(*jobs.Ctx) { panic("boom") }})
	err := p.Wait(h) // jobs: WEFT-J005 "physics.Integrate"[3]: panic: boom
	fmt.Println(err)
	// Output: jobs: WEFT-J005 "physics.Integrate"[3]: panic: boom
}

func Example_j006() {
	p, _ := jobs.New(jobs.Options{})
	defer p.Close()
	gate, _ := p.Schedule(jobs.Job{Label: jobs.Label{Name: "gate"}, Run: func(*jobs.Ctx) {}})
	late := jobs.Job{Label: jobs.Label{Name: "late"}, Run: func(*jobs.Ctx) {}}
	h, _ := p.Schedule(late, gate)     // still waiting for gate
	if took, _ := p.Cancel(h); !took { // true: h had not started
		fmt.Println("too late")
	}
	err := p.Wait(h) // jobs: WEFT-J006 "late"[0]: cancelled before it started
	fmt.Println(err)
	// Output: jobs: WEFT-J006 "late"[0]: cancelled before it started
}

func Example_j007() {
	p, _ := jobs.New(jobs.Options{})
	defer p.Close()
	panics := jobs.Job{Label: jobs.Label{Name: "physics.Integrate", Chunk: 3}, Run: func(*jobs.Ctx) { panic("boom") }}
	cull := jobs.Job{Label: jobs.Label{Name: "cull.Frustum"}, Run: func(*jobs.Ctx) {}}
	f, _ := p.Schedule(panics) // fails with J005
	d, _ := p.Schedule(cull, f)
	err := p.Wait(d) // jobs: WEFT-J007 "cull.Frustum"[0]: not run because prerequisite "physics.Integrate"[3] did not succeed: jobs: WEFT-J005 "physics.Integrate"[3]: panic: boom
	fmt.Println(err)
	// Output: jobs: WEFT-J007 "cull.Frustum"[0]: not run because prerequisite "physics.Integrate"[3] did not succeed: jobs: WEFT-J005 "physics.Integrate"[3]: panic: boom
}

func Example_j008() {
	p, _ := jobs.New(jobs.Options{})
	defer p.Close()
	var later jobs.Handle
	var err error
	first, _ := p.Schedule(jobs.Job{Label: jobs.Label{Name: "first"},
		Run: func(c *jobs.Ctx) { err = c.Wait(later) }})
	later, _ = p.Schedule(jobs.Job{Label: jobs.Label{Name: "later"}, Run: func(*jobs.Ctx) {}}, first)
	p.Wait(later) // err: jobs: WEFT-J008 "later"[0]: "first"[0] waits on a job that depends on it; wait only on jobs it does not precede
	fmt.Println(err)
	// Output: jobs: WEFT-J008 "later"[0]: "first"[0] waits on a job that depends on it; wait only on jobs it does not precede
}

func Example_j009() {
	p, _ := jobs.New(jobs.Options{})
	defer p.Close()
	var err error
	h, _ := p.Schedule(jobs.Job{Run: func(*jobs.Ctx) { err = p.Reset() }})
	p.Wait(h) // err: jobs: WEFT-J009: Reset called from inside a job; call it between frames
	fmt.Println(err)
	// Output: jobs: WEFT-J009: Reset called from inside a job; call it between frames
}

func Example_j010() {
	p, _ := jobs.New(jobs.Options{})
	defer p.Close()
	other, _ := jobs.New(jobs.Options{})
	defer other.Close()
	_, err := p.ParallelFor(jobs.Job{Label: jobs.Label{Name: "pf"}}, 10, 0)
	// jobs: WEFT-J010 "pf"[0]: ParallelFor(n=10, batch=0) needs n >= 0, batch >= 1, a Run func and no Pipe
	fmt.Println(err)
	_, err = jobs.New(jobs.Options{Workers: -5})
	// jobs: WEFT-J010: Workers = -5: give 0 (the serial executor) up to MaxWorkers (256), or DefaultWorkers
	fmt.Println(err)
	_, err = p.Schedule(jobs.Job{Label: jobs.Label{Name: "pipe"}, Pipe: other.NewPipe("io")})
	// jobs: WEFT-J010 "pipe"[0]: pipe "io" belongs to another pool; make it with this pool's NewPipe
	fmt.Println(err)
	// Output:
	// jobs: WEFT-J010 "pf"[0]: ParallelFor(n=10, batch=0) needs n >= 0, batch >= 1, a Run func and no Pipe
	// jobs: WEFT-J010: Workers = -5: give 0 (the serial executor) up to MaxWorkers (256), or DefaultWorkers
	// jobs: WEFT-J010 "pipe"[0]: pipe "io" belongs to another pool; make it with this pool's NewPipe
}

func Example_j011() {
	p, _ := jobs.New(jobs.Options{})
	defer p.Close()
	other, _ := p.Schedule(jobs.Job{Label: jobs.Label{Name: "other"}, Run: func(*jobs.Ctx) {}})
	h, _ := p.Schedule(jobs.Job{Label: jobs.Label{Name: "load"}, Run: func(*jobs.Ctx) {
		fmt.Println(p.Wait(other)) // jobs: WEFT-J011 "other"[0]: Pool.Wait called from inside a job, which could be waiting on itself; inside a job use its Ctx.Wait
		fmt.Println(p.Close())     // jobs: WEFT-J011: Pool.Close called from inside a job, which would wait for itself; close the pool from the owner, after the frame's last Wait
	}})
	p.Wait(h)
	// Output:
	// jobs: WEFT-J011 "other"[0]: Pool.Wait called from inside a job, which could be waiting on itself; inside a job use its Ctx.Wait
	// jobs: WEFT-J011: Pool.Close called from inside a job, which would wait for itself; close the pool from the owner, after the frame's last Wait
}

func Example_j012() {
	p, _ := jobs.New(jobs.Options{})
	defer p.Close()
	ev, _ := p.Event(jobs.Label{Name: "asset loaded"})
	p.Trigger(ev)
	err := p.Trigger(ev) // jobs: WEFT-J012 "asset loaded"[0]: the event was already triggered or cancelled; trigger each event once
	fmt.Println(err)
	// Output: jobs: WEFT-J012 "asset loaded"[0]: the event was already triggered or cancelled; trigger each event once
}

func Example_j013() {
	p, _ := jobs.New(jobs.Options{})
	defer p.Close()
	consume := jobs.Job{Label: jobs.Label{Name: "consume"}, Run: func(*jobs.Ctx) {}}
	ev, _ := p.Event(jobs.Label{Name: "input ready"})
	p.Schedule(consume, ev)
	err := p.Reset() // jobs: WEFT-J013 "input ready"[0]: Reset found 1 event(s) never triggered in this frame and cancelled them, and the jobs after them Blocked; trigger every event (or Cancel it) before Reset
	fmt.Println(err)
	// Output: jobs: WEFT-J013 "input ready"[0]: Reset found 1 event(s) never triggered in this frame and cancelled them, and the jobs after them Blocked; trigger every event (or Cancel it) before Reset
}
