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
			assert.Equal(t, tc.wrap, s.layout.wrap, "layout")

			// One archetype: slots 0..n-1 are the bodies. Every body
			// against every other:
			want, contacts := make([]push, n), 0
			for j := range s.sorted[:n] {
				me := &s.sorted[j]
				ax, ay, c := pushOf(me, s.sorted, [][2]int32{{0, n}})
				want[me.slot] = push{ax, ay}
				contacts += int(c)
			}
			assert.Greater(t, contacts, n/2, "the scene has contacts")
			assert.Equal(t, contacts, s.Contacts)
			assert.Equal(t, want, s.push[:n])
		})
	}
}
