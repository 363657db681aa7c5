package transform_test

import (
	"math/bits"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/systems/transform"
)

// forest spawns n entities with Local and World in trees of 256, tree t
// at most 1+t%8 links deep: node j of a tree hangs under node (j-1)/2,
// or the nearest ancestor of that node shallow enough.
func forest(tb testing.TB, w *ecs.World, n int) []ecs.Entity {
	lc, wc := ecs.NewComponent[transform.Local](w), ecs.NewComponent[transform.World](w)
	b := w.NewCommands()
	for i := range n {
		e := b.Spawn()
		lc.Add(b, e, transform.Local{X: float64(i%256) + 1, Y: float64(i / 256), Rot: 0.01 * float64(i%256), Scale: 1})
		wc.Add(b, e, transform.World{})
	}
	_, err := w.Apply(b)
	require.NoError(tb, err)
	all, err := w.Entities(lc)
	require.NoError(tb, err)
	ents := make([]ecs.Entity, 0, n)
	for e := range all {
		ents = append(ents, e)
	}
	depth := func(j int) int { return bits.Len(uint(j+1)) - 1 }
	for i, e := range ents {
		j, limit := i%256, 1+(i/256)%8
		if j == 0 {
			continue
		}
		p := (j - 1) / 2
		for depth(p)+1 > limit {
			p = (p - 1) / 2
		}
		require.NoError(tb, ecs.SetTarget[ecs.ChildOf](w, e, ents[i-j+p]))
	}
	return ents
}
