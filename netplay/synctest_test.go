package netplay_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
	"github.com/weft-engine/weft/netplay"
)

// A system of its own global: each run of a step sees another count.
var globalRuns int

type counted struct {
	body ecs.Writer[Body]
	pass *engine.Pass
}

func (s *counted) Name() string { return "counted" }
func (s *counted) Build(b *engine.Builder) error {
	d := b.Decl()
	s.body = ecs.Write[Body](d)
	s.pass = b.Chunks("drift", ecs.NewQuery1(d, s.body), s.chunk)
	return nil
}
func (s *counted) Schedule(f *engine.Frame) error { globalRuns++; return f.Run(s.pass) }
func (s *counted) chunk(c *ecs.Chunk) {
	bs, es := s.body.Column(c), c.Entities()
	for i := range bs {
		if es[i].ID() == 5 {
			bs[i].VX += float64(globalRuns%3) * 0.001 // the count leaks into one body
		}
	}
}

// A system that sums a map in its iteration order, which Go varies:
// floats of very different sizes sum to another value in another order.
type mapSum struct {
	body ecs.Writer[Body]
	pass *engine.Pass
	m    map[int]float64
}

func (s *mapSum) Name() string { return "mapsum" }
func (s *mapSum) Build(b *engine.Builder) error {
	d := b.Decl()
	s.body = ecs.Write[Body](d)
	s.pass = b.ChunksInOrder("nudge", ecs.NewQuery1(d, s.body), s.chunk)
	s.m = map[int]float64{}
	for k := range 32 {
		s.m[k] = 1.5 + float64(k)
		if k%2 == 0 {
			s.m[k] = 1e16 * float64(k+1) * float64(1-k%4)
		}
	}
	return nil
}
func (s *mapSum) Schedule(f *engine.Frame) error { return f.Run(s.pass) }
func (s *mapSum) chunk(c *ecs.Chunk) {
	sum := 0.0
	for _, v := range s.m {
		sum += v
	}
	bs := s.body.Column(c)
	for i := range bs {
		bs[i].X += sum * 1e-20
	}
}

func pads(g *testGame) func(f int) error {
	return func(f int) error {
		for p := range 2 {
			g.in.In[p], g.in.Status[p] = padFor(3, p, f), netplay.Playing
		}
		return nil
	}
}

func TestSyncTestPasses(t *testing.T) {
	for _, workers := range []int{0, 1, 2, 4} {
		g := newTestGame(t, 200, workers)
		n, err := netplay.SyncTest(g, netplay.SyncTestConfig{Steps: 120, Check: 3, Before: pads(g)})
		require.NoError(t, err, "workers %d", workers)
		assert.Equal(t, 120, n)
	}
}

func TestSyncTestNamesGlobal(t *testing.T) {
	g := newTestGame(t, 50, 1, &counted{})
	_, err := netplay.SyncTest(g, netplay.SyncTestConfig{Steps: 60, Check: 2, Before: pads(g)})
	var e *netplay.Error
	require.True(t, errors.As(err, &e), "%v", err)
	assert.Equal(t, netplay.ErrDiverged, e.Code)
	r := e.Detail
	assert.Equal(t, "counted", r.System)
	assert.Equal(t, uint32(5), r.Entity.ID())
	assert.Contains(t, r.Component, "Body")
	assert.NotEqual(t, r.Local, r.Remote)
	t.Log(err)
}

func TestSyncTestNamesMapOrder(t *testing.T) {
	g := newTestGame(t, 50, 0, &mapSum{})
	_, err := netplay.SyncTest(g, netplay.SyncTestConfig{Steps: 300, Check: 4, Before: pads(g)})
	require.ErrorIs(t, err, netplay.ErrDiverged)
	var e *netplay.Error
	require.True(t, errors.As(err, &e))
	assert.Equal(t, "mapsum", e.Detail.System)
	t.Log(err)
}
