package physics

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
	"github.com/weft-engine/weft/systems"
)

// The grid finds exactly the touching pairs a test of every pair finds,
// and sums exactly their pushes, in each bucket layout: one bucket per
// cell, a wrapping grid for an unbounded world, and a wrapping grid for a
// bounded world with too many cells. Crowds, coincident bodies and bodies
// outside the bounds are included.
func TestGridMatchesAllPairs(t *testing.T) {
	for _, tc := range []struct {
		name             string
		maxX, maxY, side float64
		wrap             bool
	}{
		{"cells", 300, 200, 300, false},
		{"unbounded", 0, 0, 400, true},
		{"huge bounds", 1e6, 1e6, 500, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const n = 3000
			w := ecs.NewWorld(ecs.Options{})
			pos, vel, body := ecs.NewComponent[systems.Position](w), ecs.NewComponent[systems.Velocity](w), ecs.NewComponent[systems.Body](w)
			r := rand.New(rand.NewPCG(7, uint64(len(tc.name))))
			setup := w.NewCommands()
			for i := range n {
				e := setup.Spawn()
				p := systems.Position{X: r.Float64() * tc.side, Y: r.Float64() * tc.side}
				switch i % 10 {
				case 0: // a crowd in one corner
					p = systems.Position{X: 5 + r.Float64()*20, Y: 5 + r.Float64()*20}
				case 1: // coincident pairs
					p = systems.Position{X: float64(i % 97), Y: 50}
				case 2: // outside the bounds
					p.X = -30 - r.Float64()*10
				}
				pos.Add(setup, e, p)
				vel.Add(setup, e, systems.Velocity{})
				body.Add(setup, e, systems.Body{Radius: 0.5 + r.Float64()*3})
			}
			_, err := w.Apply(setup)
			require.NoError(t, err)
			eng, err := engine.New(w, engine.Config{Workers: 1, Batch: 128})
			require.NoError(t, err)
			defer eng.Close()
			s := New(Config{CellSize: 7, MaxX: tc.maxX, MaxY: tc.maxY})
			require.NoError(t, eng.Add(engine.Update, s))
			require.NoError(t, eng.Build())
			require.NoError(t, eng.Tick())
			for _, c := range s.counts {
				require.Equal(t, make([]int32, len(c)), c, "the counters are 0 again after a step")
			}
			assert.Equal(t, tc.wrap, s.layout.wrap, "layout")
			cols := s.layout.cw + 2
			for b := range int32(len(s.start) - 1) { // each body in its bucket, every bucket in order
				require.LessOrEqual(t, s.start[b], s.start[b+1], "bucket %d", b)
				for _, nd := range s.sorted[s.start[b]:s.start[b+1]] {
					require.Equal(t, b, s.layout.rowOf(nd.y)*cols+s.layout.colOf(nd.x), "bucket of %v", nd)
				}
			}
			assert.Equal(t, int32(n), s.start[len(s.start)-1])

			// One archetype: the n bodies are sorted[:n]. Every pair once:
			want, contacts := make([]push, n), 0
			for j := range int32(n) {
				contacts += int(pairs(s.sorted, want, j, [][2]int32{{j + 1, n}}))
			}
			assert.Greater(t, contacts, n/2, "the scene has contacts")
			assert.Equal(t, contacts, s.Contacts)
			assert.Equal(t, want, s.acc[:n])
		})
	}
}

// A pair's push does not depend on which of the two bodies finds it: the
// pushes are exactly opposite, so the grid may find a pair from either
// side (the layout decides) and the sums agree to the bit.
func TestPairFromEitherSide(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for i := range 10000 {
		a := node{x: r.Float64() * 10, y: r.Float64() * 10, r: float32(0.5 + r.Float64()*3), order: 1}
		b := node{x: r.Float64() * 10, y: r.Float64() * 10, r: float32(0.5 + r.Float64()*3), order: 2}
		if i%10 == 0 {
			b.x, b.y = a.x, a.y
		}
		one, other := make([]push, 2), make([]push, 2)
		n1 := pairs([]node{a, b}, one, 0, [][2]int32{{1, 2}})
		n2 := pairs([]node{b, a}, other, 0, [][2]int32{{1, 2}})
		require.Equal(t, n1, n2)
		require.Equal(t, one[0], other[1], "pair %d", i)
		require.Equal(t, one[1], other[0], "pair %d", i)
		require.Equal(t, push{-one[0].x, -one[0].y}, one[1])
	}
}

// newBodies makes a world of the given bodies (radius r each) and physics
// with cfg on an engine of w workers and batch b.
func newBodies(t *testing.T, at []systems.Position, r float64, cfg Config, w, b int) (*engine.Engine, *System, *ecs.World) {
	t.Helper()
	world := ecs.NewWorld(ecs.Options{})
	pos, vel, body := ecs.NewComponent[systems.Position](world), ecs.NewComponent[systems.Velocity](world), ecs.NewComponent[systems.Body](world)
	setup := world.NewCommands()
	for _, p := range at {
		e := setup.Spawn()
		pos.Add(setup, e, p)
		vel.Add(setup, e, systems.Velocity{})
		body.Add(setup, e, systems.Body{Radius: r})
	}
	_, err := world.Apply(setup)
	require.NoError(t, err)
	eng, err := engine.New(world, engine.Config{Workers: w, Serial: w == 0, Batch: b})
	require.NoError(t, err)
	t.Cleanup(func() { eng.Close() })
	s := New(cfg)
	require.NoError(t, eng.Add(engine.Update, s))
	require.NoError(t, eng.Build())
	return eng, s, world
}

// A body at NaN touches nothing, and the others move the same for every
// worker count and batch size (the bucket layout follows the body count,
// not the slots).
func TestNaNBodyTouchesNothing(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 9))
	at := make([]systems.Position, 300)
	for i := range at {
		at[i] = systems.Position{X: r.Float64() * 60, Y: r.Float64() * 60}
	}
	at[17] = systems.Position{X: math.NaN(), Y: 30}
	var want []systems.Position
	wantContacts := -1
	for _, w := range []int{0, 2} {
		for _, b := range []int{1, 7, 64, 1024} {
			eng, s, world := newBodies(t, at, 1.5, Config{CellSize: 4}, w, b)
			for range 3 {
				require.NoError(t, eng.Tick())
			}
			var got []systems.Position
			bodies, err := world.Entities(ecs.NewComponent[systems.Position](world))
			require.NoError(t, err)
			for e := range bodies {
				if p, err := ecs.Get[systems.Position](world, e); err == nil && !math.IsNaN(p.X) {
					got = append(got, p)
				}
			}
			require.Len(t, got, len(at)-1)
			for _, p := range got { // started in [0, 60]², at rest: pushes are small
				require.True(t, p.X > -10 && p.X < 70 && p.Y > -10 && p.Y < 70, "a body flew to %v", p)
			}
			if want == nil {
				want, wantContacts = got, s.Contacts
				require.Positive(t, wantContacts)
				continue
			}
			assert.Equal(t, want, got, "workers %d, batch %d", w, b)
			assert.Equal(t, wantContacts, s.Contacts, "workers %d, batch %d", w, b)
		}
	}
}

// Bodies far from the origin touch as they do near it: the snapshot keeps
// float64 positions.
func TestContactFarFromOrigin(t *testing.T) {
	for _, x0 := range []float64{0, 1e6, -3e7} {
		eng, s, _ := newBodies(t, []systems.Position{{X: x0 + 0.03, Y: 5}, {X: x0 + 0.99, Y: 5}}, 0.5, Config{CellSize: 2}, 1, 64)
		require.NoError(t, eng.Tick())
		assert.Equal(t, 2, s.Contacts, "at %g", x0)
	}
}

// A body too large for the grid is reported, with what to change; the step
// still runs.
func TestOversizedBodyIsReported(t *testing.T) {
	eng, s, _ := newBodies(t, []systems.Position{{X: 5, Y: 5}, {X: 20, Y: 5}}, 2.5, Config{CellSize: 4}, 1, 64)
	err := eng.Tick()
	require.ErrorIs(t, err, engine.ErrMerge)
	assert.ErrorContains(t, err, "a radius above half of Config.CellSize (4) in 2 of the bodies: some of their contacts are missed; make CellSize at least twice the largest radius")
	assert.Equal(t, uint64(1), eng.Time().Step, "the step ran")
	assert.Zero(t, s.Contacts)

	eng, _, _ = newBodies(t, []systems.Position{{X: 5, Y: 5}}, 2, Config{CellSize: 4}, 1, 64)
	assert.NoError(t, eng.Tick(), "a radius of exactly half a cell is fine")
}

// A crowd born at one point (a burst) spreads as a disc of a few radii in
// its first step, for any crowd size: the coincident pushes on a body add
// up to a bounded sum (a fixed direction threw them into a line of n
// overlaps).
func TestCoincidentPushBounded(t *testing.T) {
	const r = 2.0
	for _, n := range []int{2, 50, 200, 1000} {
		at := make([]systems.Position, n)
		for i := range at {
			at[i] = systems.Position{X: 500, Y: 500}
		}
		eng, _, world := newBodies(t, at, r, Config{CellSize: 8}, 0, 256)
		require.NoError(t, eng.Tick())
		far, spreadY := 0.0, false
		bodies, err := world.Entities(ecs.NewComponent[systems.Position](world))
		require.NoError(t, err)
		for e := range bodies {
			p, err := ecs.Get[systems.Position](world, e)
			require.NoError(t, err)
			far = max(far, math.Hypot(p.X-500, p.Y-500))
			spreadY = spreadY || math.Abs(p.Y-500) > 0.1
		}
		t.Logf("%d bodies: the farthest moved %.2f", n, far)
		assert.Less(t, far, 6*r, "%d bodies: bounded", n)
		assert.True(t, spreadY || n == 2, "%d bodies: a disc, not a line", n)
	}
}

type otherTable struct{}

// Coincident bodies part by their rank in query order, not by their slot
// (chunk·batch + row): a slot counts the empty rows of a table's last
// chunk, so with bodies in several tables it depends on the batch, and
// the world would too.
func TestCoincidentAcrossTablesAnyBatch(t *testing.T) {
	run := func(batch int) uint64 {
		world := ecs.NewWorld(ecs.Options{})
		pos, vel, body := ecs.NewComponent[systems.Position](world), ecs.NewComponent[systems.Velocity](world), ecs.NewComponent[systems.Body](world)
		other := ecs.NewComponent[otherTable](world)
		setup := world.NewCommands()
		for i := range 23 {
			e := setup.Spawn()
			pos.Add(setup, e, systems.Position{X: 100 + float64(i%4)*50, Y: 100})
			vel.Add(setup, e, systems.Velocity{})
			body.Add(setup, e, systems.Body{Radius: 2})
			if i%3 == 0 {
				other.Add(setup, e, otherTable{})
			}
		}
		_, err := world.Apply(setup)
		require.NoError(t, err)
		eng, err := engine.New(world, engine.Config{Serial: true, Batch: batch})
		require.NoError(t, err)
		defer eng.Close()
		require.NoError(t, eng.Add(engine.Update, New(Config{CellSize: 8})))
		require.NoError(t, eng.Build())
		for range 3 {
			require.NoError(t, eng.Tick())
		}
		h, err := world.Hash(pos, vel)
		require.NoError(t, err)
		return h
	}
	want := run(1)
	for _, batch := range []int{2, 3, 5, 7, 64} {
		assert.Equal(t, want, run(batch), "batch %d", batch)
	}
}
