package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/demo/internal/game"
	"github.com/weft-engine/weft/engine"
)

// pick takes the drawn body nearest a world point, as a living entity
// that World.Inspect describes; with nothing drawn it picks nothing.
func TestPick(t *testing.T) {
	g, err := game.New(game.Config{Entities: 200, Seed: 1})
	require.NoError(t, err)
	t.Cleanup(func() { assert.NoError(t, g.Close()) })
	for range 3 {
		require.NoError(t, g.Tick())
	}
	e := g.Engine()
	snap := e.Snapshot()
	require.NotEmpty(t, snap.Items)
	it := snap.Items[len(snap.Items)/2]
	ent, ok := pick(e.World(), snap, it.X+0.01, it.Y)
	require.True(t, ok)
	assert.Equal(t, it.Entity, uint64(ent.ID())<<32|uint64(ent.Gen()))
	in, err := e.World().Inspect(ent)
	require.NoError(t, err)
	assert.NotEmpty(t, in.Components)
	assert.NotEmpty(t, in.Systems)

	_, ok = pick(e.World(), &engine.Snapshot{}, 0, 0)
	assert.False(t, ok)
}
