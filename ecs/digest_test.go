package ecs

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Digest sees every leaf of a component (dense 8-byte ones word by word,
// others leaf by leaf), the same contents give the same digest, and a
// component it cannot see through is refused, as by Hash.
func TestDigestFields(t *testing.T) {
	type plain struct {
		B bool
		F float32
		S string
		E Entity
	}
	type dense struct{ X, Y float64 }
	type opaque struct{ Xs []int }
	w := NewWorld(Options{})
	pc, dc, oc := NewComponent[plain](w), NewComponent[dense](w), NewComponent[opaque](w)
	assert.Equal(t, 2, w.layouts[dc.id.Index()].words, "dense: hashed word by word")
	assert.Zero(t, w.layouts[pc.id.Index()].words)
	b := w.NewCommands()
	ph := b.Spawn()
	pc.Add(b, ph, plain{S: "a"})
	dc.Add(b, ph, dense{})
	oc.Add(b, ph, opaque{})
	_, err := w.Apply(b)
	require.NoError(t, err)
	all, err := w.Entities()
	require.NoError(t, err)
	var e Entity
	for e = range all {
	}
	d0, err := w.Digest(pc, dc)
	require.NoError(t, err)
	again, err := w.Digest(pc, dc)
	require.NoError(t, err)
	assert.Equal(t, d0, again)
	set := func(p plain, d dense) uint64 {
		pc.Set(b, e, p)
		dc.Set(b, e, d)
		_, err := w.Apply(b)
		require.NoError(t, err)
		h, err := w.Digest(pc, dc)
		require.NoError(t, err)
		return h
	}
	for i, v := range []plain{{B: true, S: "a"}, {F: 1, S: "a"}, {S: "b"}, {S: "ab"}, {E: e, S: "a"}} {
		assert.NotEqual(t, d0, set(v, dense{}), "plain field %d", i)
	}
	assert.NotEqual(t, d0, set(plain{S: "a"}, dense{Y: 1}))
	assert.Equal(t, d0, set(plain{S: "a"}, dense{}), "back to the same contents")
	_, err = w.Digest(pc, oc)
	assert.ErrorIs(t, err, ErrBadArgument)
	require.NoError(t, w.BeginFrame())
	_, err = w.Digest(pc)
	assert.ErrorIs(t, err, ErrLocked)
	_, err = w.EndFrame()
	require.NoError(t, err)
}
