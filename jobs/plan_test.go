package jobs

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// planOf builds spec g as a Plan on p the way runGraph schedules it: a
// gate job first, every node after it and its prerequisites, a
// ParallelFor where g has one. The gate waits for *release to close; with
// release nil there is no gate, and node i is PlanJob i. It returns the
// plan, the gate's job and the nodes' data (whose outputs go to out).
// Nothing here depends on timing.
func planOf(t testing.TB, p *Pool, g *graphSpec, release *chan struct{}, out []uint64) (*Plan, PlanJob, []*nodeData) {
	n := len(g.deps)
	pl := p.NewPlan()
	gateJ, gated := PlanJob(-1), release != nil
	var err error
	if gated {
		gateJ, err = pl.Add(Job{Label: Label{Name: "gate"}, Run: func(*Ctx) { <-*release }})
		require.NoError(t, err)
	}
	nodes := make([]PlanJob, n)
	datas := make([]*nodeData, n)
	for i := range n {
		var deps []PlanJob
		if gated {
			deps = append(deps, gateJ)
		}
		for _, d := range g.deps[i] {
			deps = append(deps, nodes[d])
		}
		data := &nodeData{g: g, i: i, out: out}
		if m := g.parallel[i]; m > 0 {
			data.items = make([]uint64, m)
			nodes[i], err = pl.ParallelFor(Job{Label: Label{Name: "pf"}, Data: data, Run: pfBody}, m, 1+i%17, deps...)
		} else {
			nodes[i], err = pl.Add(Job{Label: Label{Name: "node", Chunk: i}, Data: data, Run: nodeBody}, deps...)
		}
		require.NoError(t, err)
		require.Equal(t, PlanJob(i+int(gateJ+1)), nodes[i])
		datas[i] = data
	}
	require.NoError(t, pl.Build())
	return pl, gateJ, datas
}

// runPlan is runGraph through a Plan: the run's handles, its cancels
// behind the gate, then the same Combine, Wait, outcomes and Reset.
// frames runs it that many times across Resets, each checked equal to
// the first.
func runPlan(t *testing.T, p *Pool, g *graphSpec, frames int) graphResult {
	n := len(g.deps)
	var first graphResult
	release := new(chan struct{})
	out := make([]uint64, n)
	pl, _, datas := planOf(t, p, g, release, out)
	for f := range frames {
		*release = make(chan struct{}) // before Run, which publishes the gate
		clear(out)
		res := graphResult{outcome: make([]Outcome, n), out: out}
		run, err := p.Run(pl)
		require.NoError(t, err)
		hs := make([]Handle, n)
		for i := range n {
			hs[i] = run.Handle(PlanJob(i + 1))
			if g.cancel[i] {
				took, err := p.Cancel(hs[i])
				require.NoError(t, err)
				require.True(t, took, "behind the gate, the job has not started")
			}
		}
		close(*release)
		all, err := p.Combine(hs...)
		require.NoError(t, err)
		_ = p.Wait(all)
		for i, h := range hs {
			res.outcome[i], err = p.Outcome(h)
			require.NoError(t, err)
			require.True(t, res.outcome[i].Done())
			if res.outcome[i] == Succeeded && g.parallel[i] > 0 {
				for _, x := range datas[i].items {
					res.out[i] = mix(res.out[i], x)
				}
			}
		}
		require.NoError(t, p.Reset())
		requireCode(t, p.Wait(hs[0]), ErrStaleHandle)
		res.out = append([]uint64(nil), out...)
		if f == 0 {
			first = res
			continue
		}
		require.Equal(t, first, res, "frame %d of the same plan", f)
	}
	return first
}

// A plan's run gives what scheduling the same jobs one by one gives (the
// serial executor's run of runGraph is the oracle): outcomes, outputs,
// failures, cancellations and the Blocked jobs after them, on every pool
// size, frame after frame across Resets.
func TestPlanMatchesScheduling(t *testing.T) {
	seeds, frames := 8, 4
	if testing.Short() {
		seeds, frames = 3, 2
	}
	for _, w := range workerCounts {
		p, err := New(Options{Workers: w, MaxJobs: 1 << 14})
		require.NoError(t, err)
		for seed := range seeds {
			rng := rand.New(rand.NewPCG(uint64(seed), 11))
			g := randomGraph(rng, 20+rng.IntN(150))
			oracle := runGraph(t, p, &g)
			got := runPlan(t, p, &g, frames)
			require.Equal(t, oracle.outcome, got.outcome, "seed %d W=%d: outcomes", seed, w)
			require.Equal(t, oracle.out, got.out, "seed %d W=%d: outputs", seed, w)
		}
		require.NoError(t, p.Close())
	}
}

// step is what the serial executor's trace says of one event, without
// its times.
type step struct {
	kind      EventKind
	job, from int
	label     Label
}

func traceSteps(t *testing.T, p *Pool) []step {
	evs, lost := p.ReadTrace(nil)
	require.Zero(t, lost)
	var s []step
	for _, e := range evs {
		from := -1
		if e.Kind != KindJob {
			from = e.From.Index()
		}
		s = append(s, step{e.Kind, e.Job.Index(), from, e.Label})
	}
	return s
}

// On the serial executor a plan's run is scheduling its jobs one by one:
// the same jobs at the same arena indices, run in the same order, with the
// same edges in the trace, and the same error from Wait.
func TestPlanSerialOrderIsScheduling(t *testing.T) {
	for seed := range 6 {
		rng := rand.New(rand.NewPCG(uint64(seed), 5))
		g := randomGraph(rng, 10+rng.IntN(80))
		requirePlanIsScheduling(t, &g, fmt.Sprintf("seed %d", seed))
	}
}

// FuzzPlanSerialOrder is TestPlanSerialOrderIsScheduling on graphs made
// from bytes, two a job: prerequisites (none, the job before, one
// earlier, two earlier), a failure, a ParallelFor or children forked.
func FuzzPlanSerialOrder(f *testing.F) {
	f.Add([]byte{0, 0, 1, 0, 2, 0, 3, 1, 0x21, 7, 0x12, 1, 0x43, 2, 1, 5})
	f.Add([]byte{0x20, 9, 0x61, 3, 0x13, 0, 2, 1, 0x22, 40, 3, 2})
	f.Fuzz(func(t *testing.T, ops []byte) {
		n := min(len(ops)/2, 64)
		g := graphSpec{deps: make([][]int, n), fail: make([]bool, n), cancel: make([]bool, n), fork: make([]int, n), parallel: make([]int, n)}
		for i := range n {
			b0, b1 := ops[2*i], int(ops[2*i+1])
			switch {
			case i == 0 || b0%4 == 0:
			case b0%4 == 1:
				g.deps[i] = []int{i - 1}
			case b0%4 == 2:
				g.deps[i] = []int{b1 % i}
			default:
				g.deps[i] = []int{b1 % i, (b1 / 7) % i}
			}
			g.fail[i] = b0&0x10 != 0
			if b0&0x20 != 0 {
				g.parallel[i] = b1 % 50
			} else if b0&0x40 != 0 {
				g.fork[i] = 1 + b1%3
			}
		}
		requirePlanIsScheduling(t, &g, "")
	})
}

// requirePlanIsScheduling runs g on a new serial executor scheduled one
// by one, then as a Plan, and requires the same indices, Wait error,
// trace and outputs. what names g in failures.
func requirePlanIsScheduling(t *testing.T, g *graphSpec, what string) {
	p, err := New(Options{Workers: 0, MaxJobs: 1 << 14})
	require.NoError(t, err)
	defer p.Close()
	p.SetTracing(true)

	out := make([]uint64, len(g.deps))
	pl, _, _ := planOf(t, p, g, nil, out)
	// Scheduled one by one, in Add order, from the plan's own nodes.
	hs := make([]Handle, len(pl.nodes))
	for i, nd := range pl.nodes {
		deps := make([]Handle, len(nd.deps))
		for k, d := range nd.deps {
			deps[k] = hs[d]
		}
		if nd.pfor {
			hs[i], err = p.ParallelFor(nd.job, nd.n, nd.batch, deps...)
		} else {
			hs[i], err = p.Schedule(nd.job, deps...)
		}
		require.NoError(t, err)
	}
	all, err := p.Combine(hs...)
	require.NoError(t, err)
	wantErr := fmt.Sprint(p.Wait(all))
	want := traceSteps(t, p)
	wantOut := slices.Clone(out)
	require.NoError(t, p.Reset())

	clear(out)
	run, err := p.Run(pl)
	require.NoError(t, err)
	for i := range hs {
		assert.Equal(t, hs[i].Index(), run.Handle(PlanJob(i)).Index(), "%s: job %d's index", what, i)
		hs[i] = run.Handle(PlanJob(i))
	}
	all, err = p.Combine(hs...)
	require.NoError(t, err)
	assert.Equal(t, wantErr, fmt.Sprint(p.Wait(all)), "%s: Wait's error", what)
	assert.Equal(t, want, traceSteps(t, p), "%s: trace", what)
	assert.Equal(t, wantOut, out, "%s: outputs", what)
	require.NoError(t, p.Reset())
}

// A failure in a plan blocks its dependents with that failure as the
// cause, as Schedule's jobs are; a ParallelFor job of a plan reports its
// first failed chunk; a cancelled plan job blocks its dependents.
func TestPlanFailureAndCancel(t *testing.T) {
	eachPool(t, func(t *testing.T, p *Pool) {
		release := make(chan struct{})
		pl := p.NewPlan()
		gateJ, _ := pl.Add(Job{Label: Label{Name: "gate"}, Run: func(*Ctx) { <-release }})
		bad, _ := pl.Add(Job{Label: Label{Name: "physics"}, Run: func(*Ctx) { panic("NaN") }}, gateJ)
		after, _ := pl.Add(Job{Label: Label{Name: "cull"}}, bad)
		pf, err := pl.ParallelFor(Job{Label: Label{Name: "pf"}, Run: func(c *Ctx) {
			if lo, _ := c.Range(); lo == 30 {
				panic("chunk")
			}
		}}, 100, 10, gateJ)
		require.NoError(t, err)
		cancelled, _ := pl.Add(Job{Label: Label{Name: "cancelled"}}, gateJ)
		behind, _ := pl.Add(Job{Label: Label{Name: "behind"}}, cancelled, pf)
		require.NoError(t, pl.Build())

		run, err := p.Run(pl)
		require.NoError(t, err)
		requireCancel(t, p, run.Handle(cancelled), true)
		close(release)
		err = p.Wait(run.Handle(after))
		requireCode(t, err, ErrBlocked)
		assert.ErrorIs(t, err, ErrFailed)
		assert.Contains(t, err.Error(), `prerequisite "physics"[0] did not succeed`)
		err = p.Wait(run.Handle(pf))
		requireCode(t, err, ErrBlocked)
		assert.Contains(t, err.Error(), `"pf"[3]: panic: chunk`)
		requireCode(t, p.Wait(run.Handle(cancelled)), ErrCancelled)
		err = p.Wait(run.Handle(behind))
		requireCode(t, err, ErrBlocked)
		assert.ErrorIs(t, err, ErrFailed, "a failure dominates the cancellation")
		require.NoError(t, p.Wait(run.Handle(gateJ)))
		require.NoError(t, p.Reset())
	})
}

// A plan may run several times in one frame, each run its own jobs, and
// from inside a job; an empty plan runs nothing.
func TestPlanRunsTwiceAndFromAJob(t *testing.T) {
	eachPool(t, func(t *testing.T, p *Pool) {
		var n atomic.Int64
		pl := p.NewPlan()
		a, _ := pl.Add(Job{Run: func(*Ctx) { n.Add(1) }})
		_, err := pl.ParallelFor(Job{Run: func(c *Ctx) { lo, hi := c.Range(); n.Add(int64(hi - lo)) }}, 50, 7, a)
		require.NoError(t, err)
		empty, err := pl.ParallelFor(Job{Label: Label{Name: "none"}, Run: func(*Ctx) {}}, 0, 4, a)
		require.NoError(t, err)
		require.NoError(t, pl.Build())
		require.NoError(t, pl.Build(), "a second Build does nothing")
		for range 3 {
			r1, err := p.Run(pl)
			require.NoError(t, err)
			r2, err := p.Run(pl)
			require.NoError(t, err)
			assert.NotEqual(t, r1.Handle(a), r2.Handle(a))
			outer := mustSchedule(t, p, Job{Run: func(c *Ctx) {
				r3, err := p.Run(pl)
				if err != nil {
					panic(err)
				}
				if err := c.Wait(r3.Handle(empty)); err != nil {
					panic(err)
				}
			}})
			all, err := p.Combine(r1.Handle(1), r2.Handle(1), r1.Handle(empty), outer)
			require.NoError(t, err)
			require.NoError(t, p.Wait(all))
			require.NoError(t, p.Reset())
			assert.Equal(t, int64(3*51), n.Swap(0))
		}
		e, err := p.Run(builtPlan(p.NewPlan()))
		require.NoError(t, err)
		assert.Equal(t, Handle{}, e.Handle(0))
		require.NoError(t, p.Reset())
	})
}

// builtPlan builds pl for a test's one-liner.
func builtPlan(pl *Plan) *Plan { _ = pl.Build(); return pl }

// Misuse gives typed errors and schedules nothing: another pool's plan, a
// plan not built, changed after Build, a prerequisite not of the plan, a
// job Schedule refuses, a closed pool, a frame without room.
func TestPlanMisuse(t *testing.T) {
	p, err := New(Options{Workers: 1, MaxJobs: 8})
	require.NoError(t, err)
	other, err := New(Options{Workers: 0})
	require.NoError(t, err)
	defer other.Close()

	pl := p.NewPlan()
	a, err := pl.Add(Job{Label: Label{Name: "a"}})
	require.NoError(t, err)
	_, err = pl.Add(Job{Label: Label{Name: "b"}}, a+1)
	requireCode(t, err, ErrBadArgument)
	_, err = pl.Add(Job{Label: Label{Name: "b"}}, -1)
	requireCode(t, err, ErrBadArgument)
	_, err = pl.Add(Job{Label: Label{Name: "hi"}, Priority: 7})
	requireCode(t, err, ErrBadArgument)
	_, err = pl.Add(Job{Label: Label{Name: "pipe"}, Pipe: other.NewPipe("io")})
	requireCode(t, err, ErrBadArgument)
	_, err = pl.ParallelFor(Job{Label: Label{Name: "pf"}, Run: func(*Ctx) {}}, 10, 0)
	requireCode(t, err, ErrBadArgument)

	_, err = p.Run(pl)
	e := requireCode(t, err, ErrBadArgument)
	assert.Contains(t, e.Msg, "not built")
	require.NoError(t, pl.Build())
	_, err = pl.Add(Job{Label: Label{Name: "late"}}, a)
	e = requireCode(t, err, ErrBadArgument)
	assert.Contains(t, e.Msg, "cannot change")
	assert.Equal(t, 1, pl.Len())

	_, err = other.Run(pl)
	requireCode(t, err, ErrBadArgument)
	_, err = p.Run(nil)
	requireCode(t, err, ErrBadArgument)

	big := p.NewPlan()
	prev, _ := big.Add(Job{})
	for range 8 {
		prev, _ = big.Add(Job{}, prev)
	}
	require.NoError(t, big.Build())
	_, err = p.Run(big)
	requireCode(t, err, ErrArenaFull)
	assert.Equal(t, Snapshot{}, p.Snapshot(), "a refused run schedules nothing")
	run, err := p.Run(pl)
	require.NoError(t, err)
	require.NoError(t, p.Wait(run.Handle(a)))
	requireCode(t, p.Wait(run.Handle(5)), ErrForeignHandle)
	require.NoError(t, p.Reset(), "a refused run leaves nothing to wait for")

	require.NoError(t, p.Close())
	_, err = p.Run(pl)
	requireCode(t, err, ErrClosed)
}

// A steady frame loop of a plan's runs allocates nothing, traced.
func TestPlanRunAllocatesNothing(t *testing.T) {
	if testing.CoverMode() != "" {
		t.Skip("coverage counters allocate")
	}
	for _, w := range []int{0, 1, 2} {
		p, err := New(Options{Workers: w})
		require.NoError(t, err)
		pl := p.NewPlan()
		root, _ := pl.Add(Job{Run: empty})
		mids := make([]PlanJob, 100)
		for i := range mids {
			mids[i], _ = pl.Add(Job{Run: empty, Lo: i}, root)
		}
		pf, _ := pl.ParallelFor(Job{Run: empty}, 1000, 16, root)
		join, _ := pl.Add(Job{Run: empty}, append(mids, pf)...)
		require.NoError(t, pl.Build())
		var events []Event
		frame := func() {
			run, err := p.Run(pl)
			if err != nil {
				t.Fatal(err)
			}
			if err := p.Wait(run.Handle(join)); err != nil {
				t.Fatal(err)
			}
			if err := p.Reset(); err != nil {
				t.Fatal(err)
			}
			events, _ = p.ReadTrace(events[:0])
		}
		p.SetTracing(true)
		for range 50 {
			frame()
		}
		assert.Zero(t, testing.AllocsPerRun(200, frame), "W=%d", w)
		require.NoError(t, p.Close())
	}
}

// The owner's jobs keep increasing indices with plan runs among its
// Schedules, dense while only it schedules; where a guest reserved a slot
// in between, the owner's slots reserved ahead are dropped, counted, and
// Reset still finds the frame idle.
func TestPlanRunIndicesIncrease(t *testing.T) {
	for _, guest := range []bool{false, true} {
		p, err := New(Options{Workers: 1})
		require.NoError(t, err)
		pl := p.NewPlan()
		a, _ := pl.Add(Job{})
		_, _ = pl.ParallelFor(Job{Run: empty}, 100, 1, a)
		for range 98 {
			_, _ = pl.Add(Job{}, a)
		}
		require.NoError(t, pl.Build())
		for range 3 {
			var idx []int
			h := mustSchedule(t, p, Job{})
			idx = append(idx, h.Index())
			if guest { // as a guest's Schedule while another call holds the owner deque
				g, err := p.schedule(nil, Job{}, nil)
				require.NoError(t, err)
				assert.Equal(t, ownerSlots, g.Index(), "after the owner's slots reserved ahead")
			}
			run, err := p.Run(pl)
			require.NoError(t, err)
			idx = append(idx, run.Handle(0).Index(), run.Handle(99).Index())
			idx = append(idx, mustSchedule(t, p, Job{}).Index())
			assert.True(t, slices.IsSorted(idx), "guest %v: %v", guest, idx)
			if !guest {
				assert.Equal(t, []int{0, 1, 101, 102}, idx, "dense")
			} else {
				assert.Equal(t, []int{0, ownerSlots + 1, ownerSlots + 101, ownerSlots + 102}, idx)
				assert.Equal(t, uint32(ownerSlots-1), p.parts[0].dropped)
			}
			require.NoError(t, p.Reset())
		}
		require.NoError(t, p.Close())
	}
}
