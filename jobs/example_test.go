package jobs_test

import (
	"fmt"

	"github.com/weft-engine/weft/jobs"
)

// A frame's graph: two jobs, one after the other, then a ParallelFor that
// depends on both. Wait helps run the jobs; Reset starts the next frame.
func Example() {
	pool, err := jobs.New(jobs.Options{Workers: jobs.DefaultWorkers})
	if err != nil {
		panic(err)
	}
	defer pool.Close()

	xs := make([]int, 1000)
	fill, _ := pool.Schedule(jobs.Job{Label: jobs.Label{Name: "fill"}, Run: func(*jobs.Ctx) {
		for i := range xs {
			xs[i] = i
		}
	}})
	double, _ := pool.ParallelFor(jobs.Job{Label: jobs.Label{Name: "double"}, Run: func(c *jobs.Ctx) {
		lo, hi := c.Range() // this chunk's items: [64k, 64k+64)
		for i := lo; i < hi; i++ {
			xs[i] *= 2
		}
	}}, len(xs), 64, fill)
	if err := pool.Wait(double); err != nil {
		panic(err)
	}
	fmt.Println(xs[999])
	if err := pool.Reset(); err != nil {
		panic(err)
	}
	// Output: 1998
}

// A panic inside a job becomes its error; jobs that depend on it are
// Blocked and never run.
func ExamplePool_Wait() {
	pool, _ := jobs.New(jobs.Options{Workers: 0}) // the serial executor
	defer pool.Close()
	bad, _ := pool.Schedule(jobs.Job{Label: jobs.Label{Name: "physics"}, Run: func(*jobs.Ctx) { panic("NaN velocity") }})
	after, _ := pool.Schedule(jobs.Job{Label: jobs.Label{Name: "cull"}}, bad)
	fmt.Println(pool.Wait(after))
	// Output: jobs: WEFT-J007 "cull"[0]: not run because prerequisite "physics"[0] did not succeed: jobs: WEFT-J005 "physics"[0]: panic: NaN velocity
}

// Fork-join: a job schedules children on its own deque and waits for them,
// running other jobs meanwhile instead of blocking its worker. (For two
// children, Ctx.Fork runs one inline instead: see its example.)
func ExampleCtx_Wait() {
	pool, _ := jobs.New(jobs.Options{Workers: 2})
	defer pool.Close()
	var left, right int
	parent, _ := pool.Schedule(jobs.Job{Run: func(c *jobs.Ctx) {
		l, _ := c.Schedule(jobs.Job{Run: func(*jobs.Ctx) { left = 20 }})
		r, _ := c.Schedule(jobs.Job{Run: func(*jobs.Ctx) { right = 22 }})
		_ = c.Wait(l)
		_ = c.Wait(r)
	}})
	_ = pool.Wait(parent)
	fmt.Println(left + right)
	// Output: 42
}

// Fork is the usual fork-join: one child a job that an idle worker may
// take, the other computed inline, here down a recursion.
func ExampleCtx_Fork() {
	pool, _ := jobs.New(jobs.Options{Workers: 2})
	defer pool.Close()
	var fib func(c *jobs.Ctx, n int) int
	fib = func(c *jobs.Ctx, n int) int {
		if n < 10 {
			return fibLoop(n)
		}
		var a, b int
		if err := c.Fork(jobs.Job{Run: func(c *jobs.Ctx) { a = fib(c, n-1) }}, func(c *jobs.Ctx) { b = fib(c, n-2) }); err != nil {
			panic(err)
		}
		return a + b
	}
	var got int
	root, _ := pool.Schedule(jobs.Job{Run: func(c *jobs.Ctx) { got = fib(c, 25) }})
	_ = pool.Wait(root)
	fmt.Println(got)
	// Output: 75025
}

func fibLoop(n int) int {
	a, b := 0, 1
	for range n {
		a, b = b, a+b
	}
	return a
}

// A pipe keeps jobs that share a non-thread-safe resource from overlapping.
func ExamplePool_NewPipe() {
	pool, _ := jobs.New(jobs.Options{Workers: 2})
	defer pool.Close()
	log := pool.NewPipe("log")
	var lines []string // only pipe jobs touch it
	var hs []jobs.Handle
	for _, s := range []string{"a", "b", "c"} {
		h, _ := pool.Schedule(jobs.Job{Pipe: log, Run: func(*jobs.Ctx) { lines = append(lines, s) }})
		hs = append(hs, h)
	}
	all, _ := pool.Combine(hs...)
	_ = pool.Wait(all)
	fmt.Println(lines)
	// Output: [a b c]
}

// Where did the frame's time go? Rebuild the traced graph and ask for the
// critical path, the parallelism and what another pool size would take.
func ExampleGraph() {
	pool, _ := jobs.New(jobs.Options{Workers: 0})
	defer pool.Close()
	pool.SetTracing(true)
	work := func(*jobs.Ctx) {}
	a, _ := pool.Schedule(jobs.Job{Label: jobs.Label{Name: "physics"}, Run: work})
	b, _ := pool.Schedule(jobs.Job{Label: jobs.Label{Name: "anim"}, Run: work})
	c, _ := pool.Schedule(jobs.Job{Label: jobs.Label{Name: "cull"}, Run: work}, a, b)
	_ = pool.Wait(c)
	_ = pool.Reset()

	events, _ := pool.ReadTrace(nil)
	var g jobs.Graph
	g.Build(events)
	path, span := g.CriticalPath(nil)
	fmt.Println(len(g.Nodes), "jobs; critical path ends at", g.Nodes[path[len(path)-1]].Label.Name)
	fmt.Println("parallelism >= 1:", float64(g.Work()) >= float64(span))
	fmt.Println("two workers no slower than one:", g.Predict(2) <= g.Predict(1))
	// Output:
	// 3 jobs; critical path ends at cull
	// parallelism >= 1: true
	// two workers no slower than one: true
}

// An event gates jobs on something outside the pool, here a loader
// goroutine: the jobs after it wait without holding a worker, and run once
// the loader triggers it.
func ExamplePool_Event() {
	pool, _ := jobs.New(jobs.Options{Workers: 2})
	defer pool.Close()
	var asset string
	loaded, _ := pool.Event(jobs.Label{Name: "asset loaded"})
	use, _ := pool.Schedule(jobs.Job{Run: func(*jobs.Ctx) { fmt.Println("using", asset) }}, loaded)
	go func() {
		asset = "tree.png"
		if err := pool.Trigger(loaded); err != nil {
			panic(err)
		}
	}()
	_ = pool.Wait(use)
	fmt.Println(pool.Trigger(loaded))
	// Output:
	// using tree.png
	// jobs: WEFT-J012 "asset loaded"[0]: the event was already triggered or cancelled; trigger each event once
}

// Cancel reports whether it came in time: before the job started.
func ExamplePool_Cancel() {
	pool, _ := jobs.New(jobs.Options{Workers: 0})
	defer pool.Close()
	first, _ := pool.Schedule(jobs.Job{Label: jobs.Label{Name: "first"}})
	late, _ := pool.Schedule(jobs.Job{Label: jobs.Label{Name: "late"}}, first)
	took, _ := pool.Cancel(late)
	fmt.Println(took, pool.Wait(late))
	took, _ = pool.Cancel(first)
	fmt.Println(took, pool.Wait(first))
	// Output:
	// true jobs: WEFT-J006 "late"[0]: cancelled before it started
	// false <nil>
}

// A plan is a frame's graph built once and run every frame: here a root,
// three jobs after it and a join after them. Each Run schedules the same
// jobs as Schedule would, and its handles serve Wait as Schedule's do.
func ExamplePlan() {
	pool, _ := jobs.New(jobs.Options{Workers: jobs.DefaultWorkers})
	defer pool.Close()
	var parts [3]int
	total := 0
	plan := pool.NewPlan()
	root, _ := plan.Add(jobs.Job{Label: jobs.Label{Name: "root"}, Run: func(*jobs.Ctx) { total = 0 }})
	var mids []jobs.PlanJob
	for i := range parts {
		m, _ := plan.Add(jobs.Job{Label: jobs.Label{Name: "part", Chunk: i}, Lo: i, Run: func(c *jobs.Ctx) {
			lo, _ := c.Range()
			parts[lo] = (lo + 1) * 10
		}}, root)
		mids = append(mids, m)
	}
	join, _ := plan.Add(jobs.Job{Label: jobs.Label{Name: "join"}, Run: func(*jobs.Ctx) {
		for _, x := range parts {
			total += x
		}
	}}, mids...)
	if err := plan.Build(); err != nil {
		panic(err)
	}
	for range 3 { // three frames
		run, err := pool.Run(plan)
		if err != nil {
			panic(err)
		}
		if err := pool.Wait(run.Handle(join)); err != nil {
			panic(err)
		}
		fmt.Println(total)
		if err := pool.Reset(); err != nil {
			panic(err)
		}
	}
	// Output:
	// 60
	// 60
	// 60
}
