package ecs

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ChildOf's policy is DespawnChildren, the hierarchy the guide describes:
// declaring it with Detach is refused, so a root's despawn still takes
// its descendants.
func TestChildOfDetachRefused(t *testing.T) {
	w := NewWorld(Options{})
	err := NewRelation[ChildOf](w, Detach)
	require.ErrorIs(t, err, ErrBadArgument)
	assert.Contains(t, err.Error(), "declare a relation type of your own for Detach")
	pc := NewComponent[pos](w)
	b := w.NewCommands()
	root, kid := b.Spawn(), b.Spawn()
	pc.Add(b, root, pos{})
	pc.Add(b, kid, pos{})
	require.NoError(t, Relate[ChildOf](b, kid, root))
	_, err = w.Apply(b)
	require.NoError(t, err)
	roots, _ := w.Entities(pc)
	for e := range roots {
		if _, ok, _ := TargetOf[ChildOf](w, e); !ok {
			b.Despawn(e)
		}
	}
	_, err = w.Apply(b)
	require.NoError(t, err)
	assert.Equal(t, 0, w.Count())
}

// Relation tokens' errors name them as a user writes them: the kind as
// the type argument, RelationWriter[ChildOf] and
// ecs.WriteRelation[ChildOf](b.Decl()) (TestRelationMisuse: a foreign
// token's).
func TestRelationTokenTexts(t *testing.T) {
	fm := newFamily(t)
	w := fm.w
	var zw RelationWriter[ChildOf]
	err := catch(func() { zw.Remove(w.NewCommands(), fm.a) })
	require.ErrorIs(t, err, ErrBadArgument)
	assert.Equal(t, "ecs: WEFT-E007: the zero RelationWriter[ChildOf], a token that was never made, was used; make it in the system's Build with ecs.WriteRelation[ChildOf](b.Decl()) and keep that value", err.Error())
	var zr RelationReader[follows]
	err = catch(func() { zr.Depths() })
	assert.Contains(t, err.Error(), "the zero RelationReader[follows],")
	assert.Contains(t, err.Error(), "ecs.ReadRelation[follows](b.Decl())")

}
