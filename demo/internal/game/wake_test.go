package game_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/demo/internal/game"
	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/systems"
)

// Every seeker that expires is counted and leaves a puff where it was,
// the same for every worker count and batch size.
func TestWake(t *testing.T) {
	run := func(t *testing.T, workers, batch int) (lost, puffs int, h uint64) {
		g := newGame(t, game.Config{Entities: 3000, Seed: 7, Workers: workers, Batch: batch})
		w := g.Engine().World()
		pos := ecs.NewComponent[systems.Position](w)
		for range 90 {
			require.NoError(t, g.Tick())
		}
		h, err := w.Hash(pos)
		require.NoError(t, err)
		return g.SeekersLost(), w.Count(ecs.NewComponent[game.Puff](w)), h
	}
	lost, puffs, want := run(t, 0, 64)
	assert.Positive(t, lost, "seekers expired in 1.5 s")
	assert.Positive(t, puffs, "their puffs are in the world")
	for _, c := range [][2]int{{1, 64}, {2, 1}, {2, 0}, {4, 64}} {
		t.Run(fmt.Sprintf("W%d/batch%d", c[0], c[1]), func(t *testing.T) {
			l, p, h := run(t, c[0], c[1])
			assert.Equal(t, []any{lost, puffs, want}, []any{l, p, h})
		})
	}
}
