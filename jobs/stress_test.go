package jobs

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// graphSpec is a random job graph: fan-in, fan-out, chains, failures,
// cancellations, nested fork-join and ParallelFor, built identically on
// every pool so that the serial executor's results are the oracle.
type graphSpec struct {
	deps     [][]int // prerequisites of node i, all < i
	fail     []bool  // node panics
	cancel   []bool  // node is cancelled before the gate opens
	fork     []int   // node forks this many children and waits for them
	parallel []int   // node is a ParallelFor over this many items (if > 0)
}

func randomGraph(rng *rand.Rand, n int) graphSpec {
	g := graphSpec{deps: make([][]int, n), fail: make([]bool, n), cancel: make([]bool, n), fork: make([]int, n), parallel: make([]int, n)}
	for i := range n {
		switch shape := rng.IntN(10); {
		case i == 0:
		case shape < 2: // chain
			g.deps[i] = []int{i - 1}
		case shape < 5: // fan-in
			for range rng.IntN(4) + 1 {
				g.deps[i] = append(g.deps[i], rng.IntN(i))
			}
		case shape < 7: // fan-out from an early node
			g.deps[i] = []int{rng.IntN(min(i, 3))}
		}
		g.fail[i] = rng.IntN(40) == 0
		g.cancel[i] = rng.IntN(40) == 0
		if rng.IntN(8) == 0 {
			g.fork[i] = rng.IntN(4) + 1
		}
		if rng.IntN(10) == 0 {
			g.parallel[i] = rng.IntN(200)
		}
	}
	return g
}

// graphResult is what a run of a graph produced: each node's outcome and
// output value.
type graphResult struct {
	outcome []Outcome
	out     []uint64
}

type nodeData struct {
	g     *graphSpec
	i     int
	out   []uint64
	items []uint64
}

func mix(a, b uint64) uint64 { return (a ^ b) * 0x100000001b3 }

func nodeBody(c *Ctx) {
	d := c.Data().(*nodeData)
	g, i := d.g, d.i
	v := uint64(i + 1)
	for _, dep := range g.deps[i] {
		v = mix(v, d.out[dep]) // prerequisites finished: their outputs are final
	}
	if g.fork[i] > 0 {
		kids := make([]uint64, g.fork[i])
		hs := make([]Handle, g.fork[i])
		for k := range kids {
			h, err := c.Schedule(Job{Label: Label{Name: "kid", Chunk: k}, Run: func(*Ctx) { kids[k] = mix(v, uint64(k)) }})
			if err != nil {
				panic(err)
			}
			hs[k] = h
		}
		for _, h := range hs {
			if err := c.Wait(h); err != nil {
				panic(err)
			}
		}
		for _, k := range kids {
			v = mix(v, k)
		}
	}
	if g.fail[i] {
		panic(fmt.Sprintf("node %d fails", i))
	}
	d.out[i] = v
}

// pfBody is a graphSpec ParallelFor's chunk: it fills its items.
func pfBody(c *Ctx) {
	d := c.Data().(*nodeData)
	lo, hi := c.Range()
	for k := lo; k < hi; k++ {
		d.items[k] = mix(uint64(d.i), uint64(k))
	}
}

func runGraph(t testing.TB, p *Pool, g *graphSpec) graphResult {
	n := len(g.deps)
	res := graphResult{outcome: make([]Outcome, n), out: make([]uint64, n)}
	release := make(chan struct{})
	gateH, err := p.Schedule(Job{Label: Label{Name: "gate"}, Run: func(*Ctx) { <-release }})
	require.NoError(t, err)
	hs := make([]Handle, n)
	datas := make([]*nodeData, n)
	for i := range n {
		deps := []Handle{gateH}
		for _, d := range g.deps[i] {
			deps = append(deps, hs[d])
		}
		data := &nodeData{g: g, i: i, out: res.out}
		if m := g.parallel[i]; m > 0 {
			data.items = make([]uint64, m)
			hs[i], err = p.ParallelFor(Job{Label: Label{Name: "pf"}, Data: data, Run: pfBody}, m, 1+i%17, deps...)
		} else {
			hs[i], err = p.Schedule(Job{Label: Label{Name: "node", Chunk: i}, Data: data, Run: nodeBody}, deps...)
		}
		require.NoError(t, err)
		if g.cancel[i] {
			took, err := p.Cancel(hs[i])
			require.NoError(t, err)
			require.True(t, took, "behind the gate, the job has not started")
		}
		datas[i] = data
	}
	close(release)
	all, err := p.Combine(hs...)
	require.NoError(t, err)
	_ = p.Wait(all) // the graph has failures: the combined error is expected
	for i, h := range hs {
		res.outcome[i], err = p.Outcome(h)
		require.NoError(t, err)
		require.True(t, res.outcome[i].Done())
		if res.outcome[i] == Succeeded && g.parallel[i] > 0 { // fold a ParallelFor's items into its output
			for _, x := range datas[i].items {
				res.out[i] = mix(res.out[i], x)
			}
		}
	}
	require.NoError(t, p.Reset())
	return res
}

func TestStressRandomGraphsMatchSerialOracle(t *testing.T) {
	seeds, frames := 12, 40
	if testing.Short() {
		seeds, frames = 4, 10
	}
	pools := map[int]*Pool{}
	for _, w := range workerCounts {
		p, err := New(Options{Workers: w, MaxJobs: 1 << 14})
		require.NoError(t, err)
		pools[w] = p
		defer p.Close()
	}
	for seed := range seeds {
		rng := rand.New(rand.NewPCG(uint64(seed), 7))
		g := randomGraph(rng, 20+rng.IntN(150))
		oracle := runGraph(t, pools[0], &g)
		for _, w := range workerCounts[1:] {
			for f := range frames / 4 {
				got := runGraph(t, pools[w], &g)
				require.Equal(t, oracle.outcome, got.outcome, "seed %d W=%d frame %d: outcomes", seed, w, f)
				require.Equal(t, oracle.out, got.out, "seed %d W=%d frame %d: outputs", seed, w, f)
			}
		}
	}
}

// TestArenaReuseAcrossFrames runs thousands of small frames on each pool,
// so that every slot is reused many times with fresh generations.
func TestArenaReuseAcrossFrames(t *testing.T) {
	frames := 3000
	if testing.Short() {
		frames = 300
	}
	for _, w := range workerCounts {
		p, err := New(Options{Workers: w, MaxJobs: 64})
		require.NoError(t, err)
		var prev Handle
		sum := 0
		for f := range frames {
			a := mustSchedule(t, p, Job{Run: func(*Ctx) { sum++ }})
			b := mustSchedule(t, p, Job{Run: func(*Ctx) { sum++ }}, a)
			pf, err := p.ParallelFor(Job{Run: func(*Ctx) {}}, 40, 3, b)
			require.NoError(t, err)
			require.NoError(t, p.Wait(pf))
			if f > 0 {
				requireCode(t, p.Wait(prev), ErrStaleHandle)
			}
			prev = b
			require.NoError(t, p.Reset())
		}
		require.Equal(t, 2*frames, sum)
		require.NoError(t, p.Close())
	}
}
