package ecs

import (
	"fmt"
	"math/rand/v2"
	"testing"

	ark "github.com/mlange-42/ark/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/weft-engine/weft/jobs"
	"github.com/weft-engine/weft/safety"
)

type target struct{ Of ark.Entity }
type seen struct {
	X  float64
	OK bool
}

// lookupScene is newScene plus a target per entity (alive in any table,
// dead, stale, zero) and a system "seek" that reads pos of its target
// through a lookup into seen, after integrate has moved everything.
type lookupScene struct {
	*scene
	seek  *Decl
	look  LookupReader[pos]
	qs    *Query2[target, seen]
	bodyS jobs.Func
	dead  []ark.Entity
}

func newLookupScene(t testing.TB, n int) *lookupScene {
	s := &lookupScene{scene: newScene(t, n, Options{})}
	w := s.w
	tc, sc := NewComponent[target](w), NewComponent[seen](w)
	var all []ark.Entity
	q := ark.NewFilter0(w.ark).Query()
	for q.Next() {
		all = append(all, q.Entity())
	}
	rng := rand.New(rand.NewPCG(1, 2))
	b := w.NewCommands()
	for _, e := range all[:n/10] { // dead; their slots are reused below: stale
		b.Despawn(e)
		s.dead = append(s.dead, e)
	}
	_, err := w.Apply(b)
	require.NoError(t, err)
	for range n / 20 {
		e := b.Spawn()
		s.velC.Add(b, e, vel{})
	}
	for _, e := range all[n/10:] {
		var to ark.Entity
		switch r := rng.IntN(10); {
		case r == 0:
			to = s.dead[rng.IntN(len(s.dead))]
		case r == 1: // zero
		default:
			to = all[n/10+rng.IntN(n-n/10)]
		}
		tc.Add(b, e, target{to})
		sc.Add(b, e, seen{})
	}
	_, err = w.Apply(b)
	require.NoError(t, err)

	s.seek = w.System("seek")
	s.look = ReadLookup[pos](s.seek)
	tr, sw := Read[target](s.seek), Write[seen](s.seek)
	s.qs = NewQuery2(s.seek, tr, sw)
	s.bodyS = s.qs.Job(func(c *Chunk) {
		ts, out := tr.Column(c), sw.Column(c)
		for i := range ts {
			p, ok := s.look.Get(ts[i].Of)
			out[i] = seen{X: p.X + p.Y, OK: ok}
			if ok != s.look.Has(ts[i].Of) {
				panic("Has and Get disagree")
			}
		}
	})
	require.NoError(t, s.seek.Err())
	return s
}

// model is what a serial reader finds: each target's pos, through Ark.
func (s *lookupScene) model() map[ark.Entity]seen {
	m := map[ark.Entity]seen{}
	pm, tm := ark.NewMap[pos](s.w.ark), ark.NewMap[target](s.w.ark)
	q := ark.NewFilter1[target](s.w.ark).Query()
	for q.Next() {
		to := tm.Get(q.Entity()).Of
		if !to.IsZero() && s.w.ark.Alive(to) && pm.Has(to) {
			p := pm.Get(to)
			m[q.Entity()] = seen{X: p.X + p.Y, OK: true}
		} else {
			m[q.Entity()] = seen{}
		}
	}
	return m
}

func (s *lookupScene) got() map[ark.Entity]seen {
	m := map[ark.Entity]seen{}
	sm := ark.NewMap[seen](s.w.ark)
	q := ark.NewFilter1[seen](s.w.ark).Query()
	for q.Next() {
		m[q.Entity()] = *sm.Get(q.Entity())
	}
	return m
}

// A lookup reads, from chunk jobs on any worker count and batch, what a
// serial reader finds after the systems ordered before it: integrate
// writes pos, seek looks it up, the tracker orders them by the lookup's
// declaration.
func TestLookupMatchesSerialModel(t *testing.T) {
	for _, workers := range []int{0, 1, 2, 4, 8} {
		for _, batch := range []int{1, 7, 64, 1024} {
			t.Run(fmt.Sprintf("W%d/batch%d", workers, batch), func(t *testing.T) {
				s := newLookupScene(t, 600)
				pool := newPool(t, workers)
				tr := safety.NewTracker(pool, s.w.Registry(), safety.Options{})
				for range 2 {
					require.NoError(t, s.w.BeginFrame())
					n, err := s.qi.Prepare(batch)
					require.NoError(t, err)
					_, err = tr.ParallelFor(jobs.Job{Label: jobs.Label{Name: "integrate"}, Run: s.bodyI}, &s.integrate.access, n, 1)
					require.NoError(t, err)
					n, err = s.qs.Prepare(batch)
					require.NoError(t, err)
					h, err := tr.ParallelFor(jobs.Job{Label: jobs.Label{Name: "seek"}, Run: s.bodyS}, &s.seek.access, n, 1)
					require.NoError(t, err, "the lookup's read of pos orders seek after integrate")
					require.NoError(t, pool.Wait(h))
					_, err = s.w.EndFrame()
					require.NoError(t, err)
					require.NoError(t, pool.Reset())
					tr.Reset()
					require.Equal(t, s.model(), s.got())
				}
			})
		}
	}
}

// A dead, stale or zero entity is "not found", never a panic; Has agrees.
func TestLookupDeadEntities(t *testing.T) {
	s := newLookupScene(t, 100)
	for _, e := range append(s.dead, ark.Entity{}) {
		p, ok := s.look.Get(e)
		assert.False(t, ok)
		assert.Zero(t, p)
		assert.False(t, s.look.Has(e))
	}
	q := ark.NewFilter1[vel](s.w.ark).Without(ark.C[pos]()).Query() // alive, no pos
	require.True(t, q.Next())
	_, ok := s.look.Get(q.Entity())
	assert.False(t, ok)
	q.Close()
}

// refused runs fn as the body of chunk jobs of query q (one job per chunk,
// or one in order) in a frame and returns the frame's error.
func refused(t *testing.T, w *World, q *Query1[pos], inOrder bool, fn func(c *Chunk)) error {
	pool := newPool(t, 2)
	require.NoError(t, w.BeginFrame())
	n, err := q.Prepare(16)
	require.NoError(t, err)
	var h jobs.Handle
	if inOrder {
		h, err = pool.ParallelFor(jobs.Job{Run: q.jobAll(fn, true)}, 1, 1)
	} else {
		h, err = pool.ParallelFor(jobs.Job{Run: q.Job(fn)}, n, 1)
	}
	require.NoError(t, err)
	_ = pool.Wait(h)
	_, err = w.EndFrame()
	return err
}

// Writes of what chunks share are refused where other chunk jobs may run
// at the same time, with the system, the component and the fix, and
// allowed from a pass that runs as one job in chunk order.
func TestRacyWritesAreRefused(t *testing.T) {
	type score struct{ N int }
	s := newScene(t, 100, Options{})
	require.NoError(t, AddResource(s.w, &score{}))
	d := s.w.System("reaper")
	res, look := WriteRes[score](d), WriteLookup[health](d)
	q := NewQuery1(d, Read[pos](d))
	other := s.w.System("other")
	q2 := NewQuery1(other, Read[pos](other))
	hp := s.hpC

	err := refused(t, s.w, q, false, func(c *Chunk) { res.Get().N++ })
	assert.ErrorIs(t, err, ErrRacyWrite)
	assert.ErrorContains(t, err, `system "reaper" called ResWriter[ecs.score].Get inside a frame`)
	err = refused(t, s.w, q, false, func(c *Chunk) { res.In(c).N++ })
	assert.ErrorIs(t, err, ErrRacyWrite)
	assert.ErrorContains(t, err, `system "reaper" wrote resource ecs.score from a chunk job that may run beside other chunk jobs; collect per-chunk values with ecs.NewReduction`)
	err = refused(t, s.w, q, false, func(c *Chunk) { look.Get(c, c.Entities()[0]) })
	assert.ErrorContains(t, err, `system "reaper" used its write lookup of health from a chunk job that may run beside other chunk jobs, which could write the same entity; run the pass as one job with engine Builder.ChunksInOrder`)
	err = refused(t, s.w, q2, true, func(c *Chunk) { res.In(c) })
	assert.ErrorContains(t, err, `system "other" used ResWriter[ecs.score] of system "reaper"`)
	assert.ErrorIs(t, err, ErrUndeclared)

	res.Get().N = 0
	err = refused(t, s.w, q, true, func(c *Chunk) {
		for _, e := range c.Entities() {
			res.In(c).N++
			if h, ok := look.Get(c, e); ok {
				h.HP--
			}
		}
	})
	require.NoError(t, err)
	assert.Equal(t, 100, res.Get().N, "outside a frame the owner writes through Get")
	n := 0
	for qh := ark.NewFilter1[health](s.w.ark).Query(); qh.Next(); {
		assert.Equal(t, 99, qh.Get().HP)
		n++
	}
	assert.Equal(t, 33, n)
	_ = hp
}

// A reduction sums per-chunk partials in chunk order: integer sums equal
// the serial sum for every worker count and batch; float sums for every
// worker count at one batch. Steady state allocates nothing.
func TestReductionMatchesSerialSum(t *testing.T) {
	type part struct {
		N int64
		X float64
	}
	var wantN int64
	wantX := map[int]float64{}
	for _, workers := range []int{0, 1, 2, 4, 8} {
		for _, batch := range []int{1, 7, 64, 1024} {
			s := newScene(t, 2000, Options{})
			d := s.w.System("sum")
			p := Read[pos](d)
			q := NewQuery1(d, p)
			r := NewReduction[part](q)
			body := q.Job(func(c *Chunk) {
				var acc part
				for _, v := range p.Column(c) {
					acc.N += int64(v.X)
					acc.X += v.X * 0.1
				}
				*r.Part(c) = acc
			})
			pool := newPool(t, workers)
			frame := func() part {
				require.NoError(t, s.w.BeginFrame())
				n, err := q.Prepare(batch)
				require.NoError(t, err)
				h, err := pool.ParallelFor(jobs.Job{Run: body}, n, 1)
				require.NoError(t, err)
				require.NoError(t, pool.Wait(h))
				_, err = s.w.EndFrame()
				require.NoError(t, err)
				require.NoError(t, pool.Reset())
				var sum part
				for _, v := range r.Parts() {
					sum.N += v.N
					sum.X += v.X
				}
				return sum
			}
			got := frame()
			if workers == 0 && batch == 1 {
				wantN = got.N
			}
			if workers == 0 {
				wantX[batch] = got.X
			}
			assert.Equal(t, wantN, got.N, "W%d batch %d", workers, batch)
			assert.Equal(t, wantX[batch], got.X, "W%d batch %d: bit for bit", workers, batch)
			if workers == 1 && batch == 64 {
				assert.Zero(t, testing.AllocsPerRun(20, func() { frame() }))
			}
		}
	}
	assert.Equal(t, int64(1999*2000/2), wantN)
}

func TestReductionOfAnotherQueryIsRefused(t *testing.T) {
	s := newScene(t, 50, Options{})
	d := s.w.System("sum")
	q := NewQuery1(d, Read[pos](d))
	r := NewReduction[int](s.qi)
	err := refused(t, s.w, q, false, func(c *Chunk) { *r.Part(c)++ })
	assert.ErrorIs(t, err, ErrBadArgument)
	assert.ErrorContains(t, err, `system "sum" asked a reduction for the partial of a chunk of another query (system "integrate")`)
}
