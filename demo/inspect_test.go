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

// toScreen is Camera.ToWorld's inverse: the ring drawn around the
// inspected body sits where the body is drawn.
func TestToScreen(t *testing.T) {
	for _, cam := range []engine.Camera{{X: 500, Y: 300, W: 1280, H: 720, Zoom: 2}, {X: 10, Y: -40, W: 800, H: 600, Zoom: 0.5}} {
		for _, p := range [][2]float64{{0, 0}, {640, 360}, {1279, 719}} {
			x, y := cam.ToWorld(p[0], p[1])
			sx, sy := toScreen(cam, x, y)
			assert.InDelta(t, p[0], sx, 1e-9)
			assert.InDelta(t, p[1], sy, 1e-9)
		}
	}
}
