package ecs

import (
	"testing"

	ark "github.com/mlange-42/ark/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type mass struct{ M float32 }

// Spawns of spawners and plain spawns keep their order, and later commands
// may use their placeholders.
func TestSpawners(t *testing.T) {
	w := NewWorld(Options{})
	s1 := NewSpawner1[pos](w)
	s2 := NewSpawner2[pos, vel](w)
	s3 := NewSpawner3[pos, vel, health](w)
	s4 := NewSpawner4[pos, vel, health, mass](w)
	hc := NewComponent[health](w)
	b := w.NewCommands()
	e0 := s2.Spawn(b, pos{X: 0}, vel{DX: 0})
	e1 := s2.Spawn(b, pos{X: 1}, vel{DX: 1})
	e2 := s1.Spawn(b, pos{X: 2})
	e3 := s3.Spawn(b, pos{X: 3}, vel{}, health{HP: 3})
	e4 := s4.Spawn(b, pos{X: 4}, vel{}, health{HP: 4}, mass{M: 4})
	e5 := b.Spawn()
	hc.Add(b, e5, health{HP: 5})
	e6 := s2.Spawn(b, pos{X: 6}, vel{DX: 6})
	hc.Add(b, e1, health{HP: 1}) // on a batch-spawned placeholder
	b.Despawn(e0)
	r, err := w.Apply(b)
	require.NoError(t, err)
	require.Empty(t, r.Problems)
	assert.Zero(t, b.Len(), "played buffers are reset")
	assert.Equal(t, 10, r.Applied)
	ents := append([]ark.Entity(nil), w.pb.spawned...)
	require.Len(t, ents, 7)
	for i, e := range []ark.Entity{e0, e1, e2, e3, e4, e5, e6} {
		assert.Equal(t, uint32(i), e.Gen()&(maxSpawns-1), "placeholders count spawns in order")
	}
	pm, hm, mm := ark.NewMap[pos](w.ark), ark.NewMap[health](w.ark), ark.NewMap[mass](w.ark)
	assert.False(t, w.ark.Alive(ents[0]))
	for _, i := range []int{1, 2, 3, 4, 6} {
		assert.Equal(t, float64(i), pm.Get(ents[i]).X)
	}
	assert.Equal(t, 1, hm.Get(ents[1]).HP)
	assert.Equal(t, 5, hm.Get(ents[5]).HP)
	assert.Nil(t, pm.Get(ents[5]))
	assert.Equal(t, float32(4), mm.Get(ents[4]).M)
}

// Queries of every arity see their columns.
func TestQueryArities(t *testing.T) {
	w := NewWorld(Options{})
	s4 := NewSpawner4[pos, vel, health, mass](w)
	b := w.NewCommands()
	for i := range 10 {
		s4.Spawn(b, pos{X: float64(i)}, vel{DX: 1}, health{HP: i}, mass{M: 2})
	}
	_, err := w.Apply(b)
	require.NoError(t, err)
	d := w.System("all")
	p, v, h, m := Write[pos](d), Read[vel](d), Read[health](d), Read[mass](d)
	q1, q3, q4 := NewQuery1(d, p), NewQuery3(d, p, v, h), NewQuery4(d, p, v, h, m)
	require.NoError(t, d.Err())
	require.NoError(t, w.BeginFrame())
	for _, prep := range []func(int) (int, error){q1.Prepare, q3.Prepare, q4.Prepare} {
		n, err := prep(4)
		require.NoError(t, err)
		assert.Equal(t, 3, n)
	}
	c := &q4.chunks[2]
	assert.Equal(t, []mass{{2}, {2}}, m.Column(c))
	assert.Equal(t, []health{{8}, {9}}, h.Column(c))
	assert.Equal(t, pos{X: 8}, p.Column(&q3.chunks[2])[0])
	_, err = w.EndFrame()
	require.NoError(t, err)
}
