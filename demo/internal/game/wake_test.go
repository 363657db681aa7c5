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

// Every seeker that expires is counted and leaves a puff where it was
// (an observer of despawns), and every hard landing is counted and
// raises a cloud of dust (an observer of the Landed events): the same
// for every worker count and batch size.
func TestWake(t *testing.T) {
	run := func(t *testing.T, workers, batch int) []any {
		g := newGame(t, game.Config{Entities: 3000, Seed: 7, Workers: workers, Batch: batch})
		w := g.Engine().World()
		pos, dusts := ecs.NewComponent[systems.Position](w), ecs.NewComponent[game.Dust](w)
		dust := 0
		for range 90 {
			require.NoError(t, g.Tick())
			dust += w.Count(dusts)
		}
		h, err := w.Hash(pos)
		require.NoError(t, err)
		return []any{g.SeekersLost(), w.Count(ecs.NewComponent[game.Puff](w)), g.HardLandings(), dust, h}
	}
	want := run(t, 0, 64)
	assert.Positive(t, want[0], "seekers expired in 1.5 s")
	assert.Positive(t, want[1], "their puffs are in the world")
	assert.Positive(t, want[2], "bodies landed hard")
	assert.Positive(t, want[3], "their dust was in the world")
	for _, c := range [][2]int{{1, 64}, {2, 1}, {2, 0}, {4, 64}} {
		t.Run(fmt.Sprintf("W%d/batch%d", c[0], c[1]), func(t *testing.T) {
			assert.Equal(t, want, run(t, c[0], c[1]))
		})
	}
}
