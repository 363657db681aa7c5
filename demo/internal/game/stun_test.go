package game

import (
	"fmt"
	"hash/fnv"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/systems"
)

// stunRun steps a game of 2,000 bodies for 150 steps and returns how
// many seekers were stunned at some step, and a hash of every seeker's
// state (Alert on or off, its count, its velocity) after each step.
func stunRun(t *testing.T, workers, batch int) (int, uint64) {
	g, err := New(Config{Entities: 2000, Workers: workers, Batch: batch, Seed: 3})
	require.NoError(t, err)
	defer g.Close()
	h := fnv.New64a()
	most := 0
	for range 150 {
		require.NoError(t, g.Tick())
		n, err := g.Stunned()
		require.NoError(t, err)
		most = max(most, n)
		seekers, err := g.w.Entities(ecs.NewComponent[Alert](g.w))
		require.NoError(t, err)
		for e := range seekers {
			on, err := ecs.IsEnabled[Alert](g.w, e)
			require.NoError(t, err)
			a, _ := ecs.Get[Alert](g.w, e)
			v, _ := ecs.Get[systems.Velocity](g.w, e)
			l, _ := ecs.Get[systems.Look](g.w, e)
			if !on {
				// held at rest before physics: what one step adds (gravity, a push) is all
				require.Less(t, math.Hypot(v.X, v.Y), 5.0, "a stunned seeker does not move")
				require.Equal(t, stunnedColor, l.Color)
			}
			fmt.Fprint(h, e, on, a, v)
		}
	}
	return most, h.Sum64()
}

// Seekers near a landing are stunned for a while, drawn in the stunned
// colour and held still, and the same ones at the same steps for every
// worker count and batch size (0: adaptive) as the serial executor.
func TestStunDeterminism(t *testing.T) {
	most, want := stunRun(t, 0, 64)
	require.Positive(t, most, "some seekers were stunned")
	t.Log("most stunned at once:", most)
	for _, w := range []int{0, 1, 2, 4} {
		for _, b := range []int{1, 64, 0} {
			// Under -race one parallel run finds the races; the nonrace
			// step of make test runs the whole matrix.
			if raceOn && (w != 2 || b != 64) {
				continue
			}
			_, got := stunRun(t, w, b)
			assert.Equal(t, want, got, "W=%d batch=%d", w, b)
		}
	}
}
