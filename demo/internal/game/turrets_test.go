package game

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/systems"
	"github.com/weft-engine/weft/systems/transform"
)

// turretState steps a game of 3,000 bodies 40 times and returns every
// turret's position with its ship's, in turret order.
func turretState(t *testing.T, workers, batch int) (*Game, [][2]systems.Position) {
	g, err := New(Config{Entities: 3000, Workers: workers, Batch: batch, Seed: 7})
	require.NoError(t, err)
	t.Cleanup(func() { g.Close() })
	for range 40 {
		require.NoError(t, g.Tick())
	}
	turrets, err := g.w.Entities(ecs.NewComponent[Turret](g.w))
	require.NoError(t, err)
	var out [][2]systems.Position
	for tu := range turrets {
		ship, ok, err := ecs.TargetOf[ecs.ChildOf](g.w, tu)
		require.NoError(t, err)
		require.True(t, ok, "a turret always has a live ship")
		tp, _ := ecs.Get[systems.Position](g.w, tu)
		sp, _ := ecs.Get[systems.Position](g.w, ship)
		out = append(out, [2]systems.Position{tp, sp})
	}
	return g, out
}

// Turrets sit at their offset from their ship, the same on every worker
// count and batch size, and go when their ship's life ends.
func TestTurretsFollowShips(t *testing.T) {
	g, want := turretState(t, 0, 64)
	require.NotEmpty(t, want)
	off := math.Hypot(turretOffsets[0].X, turretOffsets[0].Y)
	for _, p := range want {
		assert.InDelta(t, off, math.Hypot(p[0].X-p[1].X, p[0].Y-p[1].Y), 1e-9)
	}
	for _, c := range [][2]int{{1, 1}, {2, 0}, {4, 64}} {
		_, got := turretState(t, c[0], c[1])
		assert.Equal(t, want, got, "workers %d, batch %d", c[0], c[1])
	}
	ships, _ := g.w.Entities(ecs.NewComponent[transform.Local](g.w), g.comps.vel)
	var ship ecs.Entity
	for s := range ships {
		ship = s
		break
	}
	kids, err := ecs.ChildrenOf[ecs.ChildOf](g.w, ship, nil)
	require.NoError(t, err)
	require.Len(t, kids, len(turretOffsets))
	in, err := g.Engine().Inspect(kids[0]) // what the overlay's inspector and headless -inspect show
	require.NoError(t, err)
	assert.Contains(t, strings.Join(in.Lines(), "\n"), fmt.Sprintf("ChildOf target: entity %d", ship.ID()))
	in, err = g.Engine().Inspect(ship)
	require.NoError(t, err)
	assert.Contains(t, strings.Join(in.Lines(), "\n"), fmt.Sprintf("ChildOf children: %d, %d", kids[0].ID(), kids[1].ID()))
	b := g.w.NewCommands()
	b.Despawn(ship)
	_, err = g.w.Apply(b)
	require.NoError(t, err)
	for _, k := range kids {
		_, err := ecs.Get[Turret](g.w, k)
		require.ErrorIs(t, err, ecs.ErrNotFound, "a ship's turrets go with it")
	}
}
