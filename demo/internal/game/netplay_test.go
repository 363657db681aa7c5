package game_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/demo/internal/game"
	"github.com/weft-engine/weft/netplay"
)

// The demo's scene passes netplay's sync test on every worker count: each
// step rolled back by 2 and run again gives the same digest, system by
// system (issue 37, item 2).
func TestSyncTestScene(t *testing.T) {
	steps := 120
	if raceOn || testing.Short() {
		steps = 30
	}
	for _, workers := range []int{0, 1, 2, 4} {
		g, err := game.New(game.Config{Entities: 2000, Workers: workers, Seed: 5})
		require.NoError(t, err)
		n, err := netplay.SyncTest(g, netplay.SyncTestConfig{Steps: steps, Check: 2})
		require.NoError(t, err, "workers %d", workers)
		require.Equal(t, steps, n)
		require.NoError(t, g.Close())
	}
}
