package ecs

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Inspect lists an entity's components with their values and the systems
// whose queries match it, with the columns each reads or writes; a Without
// filter excludes, a lookup reaches any entity.
func TestInspect(t *testing.T) {
	s := newScene(t, 3, Options{})
	w := s.w
	untagged := w.System("untagged")
	NewQuery1(untagged, Read[vel](untagged), Without[tag]())
	seeker := w.System("seeker")
	WriteLookup[health](seeker)

	var ents []Entity
	seq, err := w.Entities()
	require.NoError(t, err)
	for e := range seq {
		ents = append(ents, e)
	}
	require.Len(t, ents, 3)
	var hurt, tagged Entity // spawned 2nd (tag) and 3rd (health)
	for _, e := range ents {
		if _, err := Get[tag](w, e); err == nil {
			tagged = e
		}
		if _, err := Get[health](w, e); err == nil {
			hurt = e
		}
	}

	in, err := w.Inspect(hurt)
	require.NoError(t, err)
	assert.Equal(t, []ComponentValue{{Name: "pos", Value: "{X:2 Y:0}"}, {Name: "vel", Value: "{DX:-1 DY:1}"}, {Name: "health", Value: "{HP:100}"}}, in.Components)
	assert.Equal(t, []SystemTouch{
		{System: "integrate", Reads: []string{"vel"}, Writes: []string{"pos"}},
		{System: "damage", Reads: []string{"pos"}, Writes: []string{"health"}},
		{System: "untagged", Reads: []string{"vel"}},
		{System: "seeker", Writes: []string{"health (lookup)"}},
	}, in.Systems)
	assert.Equal(t, []string{
		"entity 4 (generation 0)",
		"  pos {X:2 Y:0}",
		"  vel {DX:-1 DY:1}",
		"  health {HP:100}",
		"systems that read or write it:",
		"  integrate: writes pos; reads vel",
		"  damage: writes health; reads pos",
		"  untagged: reads vel",
		"  seeker: writes health (lookup)",
	}, in.Lines())

	in, err = w.Inspect(tagged)
	require.NoError(t, err)
	assert.Equal(t, []SystemTouch{{System: "integrate", Reads: []string{"vel"}, Writes: []string{"pos"}}}, in.Systems)

	require.NoError(t, w.BeginFrame())
	_, err = w.Inspect(hurt)
	assert.ErrorIs(t, err, ErrLocked)
	_, err = w.EndFrame()
	require.NoError(t, err)
	b := w.NewCommands()
	b.Despawn(hurt)
	_, err = w.Apply(b)
	require.NoError(t, err)
	_, err = w.Inspect(hurt)
	assert.ErrorIs(t, err, ErrNotFound)
}

// Matching gives the entities a system's queries match, filters
// included, in the order of their ids; QuerySystems names the systems
// that have a query.
func TestMatching(t *testing.T) {
	s := newScene(t, 30, Options{})
	w := s.w
	untagged := w.System("untagged")
	NewQuery1(untagged, Read[vel](untagged), Without[tag]())
	lookup := w.System("lookup")
	WriteLookup[health](lookup)
	got, err := w.Matching("untagged", nil)
	require.NoError(t, err)
	var want []Entity
	for _, e := range entities(w) {
		if w.unsafe.Has(e, s.velC.id) && !w.unsafe.Has(e, s.tagC.id) {
			want = append(want, e)
		}
	}
	require.Equal(t, want, got)
	got, err = w.Matching("lookup", got[:0])
	require.NoError(t, err)
	require.Empty(t, got, "a system without a query matches nothing")
	_, err = w.Matching("none", nil)
	requireCode(t, ErrBadArgument, err)
	require.Equal(t, []string{"integrate", "damage", "untagged"}, w.QuerySystems())
}

// An enableable component switched off is shown so: Off in its value,
// "(off)" in the text; one switched on, or a plain component, is not.
func TestInspectSwitchedOff(t *testing.T) {
	w := NewWorld(Options{})
	pc, hc := NewComponent[pos](w), NewComponent[health](w)
	b := w.NewCommands()
	e := b.Spawn()
	pc.Add(b, e, pos{X: 1})
	hc.Add(b, e, health{HP: 2})
	_, err := w.Apply(b)
	require.NoError(t, err)
	seq, err := w.Entities()
	require.NoError(t, err)
	for x := range seq {
		e = x
	}
	require.NoError(t, SetEnabled[health](w, e, false))
	in, err := w.Inspect(e)
	require.NoError(t, err)
	assert.Equal(t, []ComponentValue{{Name: "pos", Value: "{X:1 Y:0}"}, {Name: "health", Value: "{HP:2}", Off: true}}, in.Components)
	assert.Equal(t, []string{"entity 2 (generation 0)", "  pos {X:1 Y:0}", "  health {HP:2} (off)", "no system reads or writes it"}, in.Lines())
	require.NoError(t, SetEnabled[health](w, e, true))
	in, err = w.Inspect(e)
	require.NoError(t, err)
	assert.Equal(t, "  health {HP:2}", in.Lines()[2])
}
