package physics

import (
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
			eng.Add(engine.Update, s)
			require.NoError(t, eng.Build())
			require.NoError(t, eng.Tick())
			for _, c := range s.counts {
				require.Equal(t, make([]int32, len(c)), c, "the counters are 0 again after a step")
			}
			assert.Equal(t, tc.wrap, s.layout.wrap, "layout")

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
		a := node{x: r.Float32() * 10, y: r.Float32() * 10, r: float32(0.5 + r.Float64()*3), slot: 1}
		b := node{x: r.Float32() * 10, y: r.Float32() * 10, r: float32(0.5 + r.Float64()*3), slot: 2}
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
