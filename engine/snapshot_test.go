package engine_test

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
)

// A restore gives the events of the steps before the snapshot back: a
// reader then sees, step by step, what it saw the first time: the owner
// events emitted in Merge before the snapshot (pending) and a later
// stage's events of the step before it.
func TestRestoreKeepsUnreadEvents(t *testing.T) {
	for _, workers := range []int{0, 2} {
		var got []ping
		var bad bool
		e := newEngine(t, world(t, 200), engine.Config{Workers: workers, Serial: workers == 0, Batch: 16})
		require.NoError(t, e.Add(engine.Update, emitter("b", 2)))
		require.NoError(t, e.Add(engine.Update, reader("r", &got, &bad)))
		require.NoError(t, e.Add(engine.PostUpdate, emitter("z", 3)))
		require.NoError(t, e.Build())
		for range 4 {
			require.NoError(t, e.Tick())
		}
		var snap ecs.Snapshot
		require.NoError(t, e.World().Snapshot(&snap))
		var first [][]ping
		for range 4 {
			require.NoError(t, e.Tick())
			first = append(first, slices.Clone(got))
		}
		require.NoError(t, e.Restore(&snap))
		for i := range 4 {
			require.NoError(t, e.Tick())
			require.Equal(t, first[i], got, "W%d, step %d after the restore", workers, i+1)
		}
		require.False(t, bad)
	}
}
