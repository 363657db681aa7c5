package ecs

import (
	"bytes"
	"testing"

	ark "github.com/mlange-42/ark/ecs"
	"github.com/stretchr/testify/require"
)

// link refers to other entities, directly and inside an array.
type link struct {
	Target Entity
	Pair   [2]Entity
}

// focus is a resource that refers to an entity.
type focus struct{ On Entity }

// Save keeps entity ids and generations and Load puts the file's whole
// entity pool back, so every reference the saved world held names, after
// the load, what it named when saved: a live entity the same entity with
// the same components, a despawned one (a stale reference, its id maybe
// reused since) an entity that is not alive, the zero entity nothing;
// and so do the ids the game kept in its own variables. This holds when
// the world loaded into has other entities, with other ids and
// generations: Load replaces them all, so no id of the file meets one of
// the world's. Remapping the ids to fresh entities, as Bevy scenes do
// when they add a scene to a world, would break the ids held outside the
// world and could not tell a stale reference from a live one.
func TestLoadKeepsEveryReference(t *testing.T) {
	a := NewWorld(Options{})
	posA, linkA := NewComponent[pos](a), NewComponent[link](a)
	res := &focus{}
	require.NoError(t, AddResource(a, res))
	b := a.NewCommands()
	for i := range 20 {
		posA.Add(b, b.Spawn(), pos{X: float64(i)})
	}
	_, err := a.Apply(b)
	require.NoError(t, err)
	ents := entities(a)
	stale := ents[3]
	b.Despawn(stale)
	_, err = a.Apply(b)
	require.NoError(t, err)
	posA.Add(b, b.Spawn(), pos{X: 100}) // reuses stale's id, with another generation
	_, err = a.Apply(b)
	require.NoError(t, err)
	reused := Entity{}
	for _, e := range entities(a) {
		if e.ID() == stale.ID() {
			reused = e
		}
	}
	require.NotEqual(t, Entity{}, reused)
	kept := []link{ // what the game also keeps in its own variables
		{Target: ents[5], Pair: [2]Entity{stale, {}}},
		{Target: reused, Pair: [2]Entity{ents[7], ents[5]}},
	}
	for _, l := range kept {
		linkA.Add(b, b.Spawn(), l)
	}
	_, err = a.Apply(b)
	require.NoError(t, err)
	res.On = ents[9]
	var file bytes.Buffer
	require.NoError(t, a.Save(&file))

	// A running world with other entities, ids and generations, its
	// components registered in another order.
	c := NewWorld(Options{})
	linkC, posC := NewComponent[link](c), NewComponent[pos](c)
	resC := &focus{}
	require.NoError(t, AddResource(c, resC))
	bc := c.NewCommands()
	for i := range 50 {
		posC.Add(bc, bc.Spawn(), pos{Y: float64(i)})
	}
	_, err = c.Apply(bc)
	require.NoError(t, err)
	for i, e := range entities(c) {
		if i%3 == 0 {
			bc.Despawn(e)
		}
	}
	_, err = c.Apply(bc)
	require.NoError(t, err)
	linkC.Add(bc, bc.Spawn(), link{Target: entities(c)[0]})
	_, err = c.Apply(bc)
	require.NoError(t, err)

	require.NoError(t, c.Load(&file))
	require.Equal(t, entities(a), entities(c), "the saved entities, with their ids and generations, and no other")
	pa, pc := ark.NewMap[pos](a.ark), ark.NewMap[pos](c.ark)
	named := func(e Entity) string { // what a reference names in a world
		switch {
		case e == (Entity{}):
			return "nothing"
		case !a.ark.Alive(e) || !c.ark.Alive(e):
			require.Equal(t, a.ark.Alive(e), c.ark.Alive(e), "%v alive in one world only", e)
			return "a dead entity"
		}
		require.Equal(t, *pa.Get(e), *pc.Get(e), "%v has the same position", e)
		return "a live entity"
	}
	var seen []string
	for q := ark.NewFilter1[link](c.ark).Query(); q.Next(); {
		l := *q.Get()
		require.Contains(t, kept, l, "a link as saved")
		for _, e := range []Entity{l.Target, l.Pair[0], l.Pair[1]} {
			seen = append(seen, named(e))
		}
	}
	require.ElementsMatch(t, []string{"a live entity", "a dead entity", "nothing", "a live entity", "a live entity", "a live entity"}, seen)
	require.Equal(t, ents[9], resC.On)
	require.Equal(t, "a live entity", named(resC.On), "the resource's reference")
	for _, l := range kept { // the game's own ids
		require.Equal(t, a.ark.Alive(l.Target), c.ark.Alive(l.Target))
	}
}
