package game_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/demo/internal/game"
	"github.com/weft-engine/weft/ecs"
)

// steps runs n steps of the demo with a burst every 25 and returns the
// world hash after each.
func steps(t *testing.T, g *game.Game, n int) []uint64 {
	var hs []uint64
	for i := range n {
		if i%25 == 3 {
			g.SpawnBurst(g.Width*float64(i%7)/7, g.Height/3, 40)
		}
		require.NoError(t, g.Tick())
		h, err := g.Hash()
		require.NoError(t, err)
		hs = append(hs, h)
	}
	return hs
}

// A restore makes the next steps repeat the first run bit for bit:
// bursts (the owner's RNG is a resource), expiry and respawn (despawned
// entities come back with their ids, spawned ones go), sparks from
// landing events, on every worker count.
func TestSnapshotRestoreRepeats(t *testing.T) {
	for _, workers := range []int{0, 2} {
		g := newGame(t, game.Config{Entities: 3000, Seed: 3, Workers: workers})
		steps(t, g, 40)
		w := g.Engine().World()
		var s ecs.Snapshot
		require.NoError(t, w.Snapshot(&s))
		first := steps(t, g, 80)
		for round := range 3 {
			require.NoError(t, w.Restore(&s))
			require.Equal(t, first, steps(t, g, 80), "workers %d, round %d", workers, round)
		}
	}
}
