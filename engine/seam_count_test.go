package engine

import (
	"reflect"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/internal/seam"
	"github.com/weft-engine/weft/jobs"
)

// countingSeam counts the engine's calls into its world's seam by name.
type countingSeam struct {
	in    ecsSeam
	calls map[string]int
}

func (c *countingSeam) SetOwner(o seam.Owner[*ecs.Decl]) { c.calls["SetOwner"]++; c.in.SetOwner(o) }
func (c *countingSeam) System(d *ecs.Decl) seam.System   { c.calls["System"]++; return c.in.System(d) }
func (c *countingSeam) Query(q ecs.AnyQuery) seam.Query  { c.calls["Query"]++; return c.in.Query(q) }
func (c *countingSeam) Body(q ecs.AnyQuery, fn func(*ecs.Chunk), inOrder bool, rows *atomic.Int64) (jobs.Func, jobs.Func) {
	c.calls["Body"]++
	return c.in.Body(q, fn, inOrder, rows)
}
func (c *countingSeam) RangeBody(d *ecs.Decl, fn func(worker, lo, hi int)) jobs.Func {
	c.calls["RangeBody"]++
	return c.in.RangeBody(d, fn)
}
func (c *countingSeam) Place(d *ecs.Decl, order, seg int) {
	c.calls["Place"]++
	c.in.Place(d, order, seg)
}
func (c *countingSeam) StartStep() { c.calls["StartStep"]++; c.in.StartStep() }
func (c *countingSeam) BeginFrame(seg, n int) error {
	c.calls["BeginFrame"]++
	return c.in.BeginFrame(seg, n)
}
func (c *countingSeam) Prepare(q, batch int) ([]int32, error) {
	c.calls["Prepare"]++
	return c.in.Prepare(q, batch)
}
func (c *countingSeam) Aligned(a, b int) bool    { c.calls["Aligned"]++; return c.in.Aligned(a, b) }
func (c *countingSeam) SetDigests(m uint8) error { c.calls["SetDigests"]++; return c.in.SetDigests(m) }
func (c *countingSeam) TakeDigest(d *ecs.Decl) (uint64, []ecs.Written) {
	c.calls["TakeDigest"]++
	return c.in.TakeDigest(d)
}
func (c *countingSeam) DigestMerged(d *ecs.Decl) { c.calls["DigestMerged"]++; c.in.DigestMerged(d) }
func (c *countingSeam) DigestAll() (uint64, []ecs.Written) {
	c.calls["DigestAll"]++
	return c.in.DigestAll()
}
func (c *countingSeam) Components() []reflect.Type { c.calls["Components"]++; return c.in.Components() }

// countingOwner counts ecs's calls into the engine (seam.Owner).
type countingOwner struct {
	in    owner
	calls *atomic.Int64
}

func (o countingOwner) InJob() bool        { o.calls.Add(1); return o.in.InJob() }
func (o countingOwner) Participant() int   { o.calls.Add(1); return o.in.Participant() }
func (o countingOwner) Running() *ecs.Decl { o.calls.Add(1); return o.in.Running() }
func (o countingOwner) Settle()            { o.calls.Add(1); o.in.Settle() }
func (o countingOwner) Deciding() bool     { o.calls.Add(1); return o.in.Deciding() }

type crossPos struct{ X float64 }

// One step of one system with one pass crosses the seam three times
// (StartStep, BeginFrame, Prepare), and ecs calls nothing of the engine;
// with World.EndFrame and Report.Unresolved, the public calls the step
// also makes, engine and ecs meet five times (issue 35, item 3: at most 6).
func TestSeamCrossingsPerStep(t *testing.T) {
	w := ecs.NewWorld(ecs.Options{})
	sp := ecs.NewSpawner1[crossPos](w)
	b := w.NewCommands()
	for range 10 {
		sp.Spawn(b, crossPos{})
	}
	_, err := w.Apply(b)
	require.NoError(t, err)
	e, err := New(w, Config{Workers: 0, Batch: 64})
	require.NoError(t, err)
	defer e.Close()
	cs := &countingSeam{in: e.inside, calls: map[string]int{}}
	var back atomic.Int64
	e.inside = cs
	cs.in.SetOwner(countingOwner{owner{e}, &back})
	sys := &settleSys{name: "move", q: func(d *ecs.Decl) Query {
		p := ecs.Write[crossPos](d)
		return ecs.NewQuery1(d, p)
	}}
	require.NoError(t, e.Add(Update, sys))
	require.NoError(t, e.Build())
	_, err = e.Step(e.cfg.FixedStep) // warm: the pool starts
	require.NoError(t, err)
	clear(cs.calls)
	back.Store(0)
	n, err := e.Step(e.cfg.FixedStep)
	require.NoError(t, err)
	require.Equal(t, 1, n)
	assert.Equal(t, map[string]int{"StartStep": 1, "BeginFrame": 1, "Prepare": 1}, cs.calls)
	assert.Zero(t, back.Load(), "ecs calls nothing of the engine")
}
