package ecs

import (
	"bytes"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
)

// freshSaved is a save of a world that spawned n entities and despawned
// every k-th, so the file's pool has more ids than it has entities.
func freshSaved(t *testing.T, n, k int) ([]byte, *World) {
	w := NewWorld(Options{})
	posC := NewComponent[pos](w)
	b := w.NewCommands()
	for i := range n {
		posC.Add(b, b.Spawn(), pos{X: float64(i)})
	}
	_, err := w.Apply(b)
	require.NoError(t, err)
	for i, e := range entities(w) {
		if i%k == 0 {
			b.Despawn(e)
		}
	}
	_, err = w.Apply(b)
	require.NoError(t, err)
	var file bytes.Buffer
	require.NoError(t, w.Save(&file))
	return file.Bytes(), w
}

// Load into a world that never spawned gives the saved world: the file's
// pool has ids that the fresh world's entity index does not cover yet.
func TestLoadIntoFreshWorld(t *testing.T) {
	for _, c := range []struct{ n, k int }{{10, 9}, {10, 1000}, {1, 1000}, {200, 3}, {5, 1}} {
		file, saved := freshSaved(t, c.n, c.k)
		fresh := NewWorld(Options{})
		posC := NewComponent[pos](fresh)
		require.NoError(t, fresh.Load(bytes.NewReader(file)), "n %d k %d", c.n, c.k)
		require.Equal(t, entities(saved), entities(fresh))
		hs, err := saved.Hash(NewComponent[pos](saved))
		require.NoError(t, err)
		hf, err := fresh.Hash(posC)
		require.NoError(t, err)
		require.Equal(t, hs, hf)
		// The next spawns get the same ids and generations in both.
		bs, bf := saved.NewCommands(), fresh.NewCommands()
		for range 3 {
			NewComponent[pos](saved).Add(bs, bs.Spawn(), pos{})
			posC.Add(bf, bf.Spawn(), pos{})
		}
		_, err = saved.Apply(bs)
		require.NoError(t, err)
		_, err = fresh.Apply(bf)
		require.NoError(t, err)
		require.Equal(t, entities(saved), entities(fresh))
	}
}

// A file that does not fit is refused with WEFT-E013 and leaves the world
// exactly as it was, fresh or not.
func TestLoadRefusedLeavesWorld(t *testing.T) {
	file, _ := freshSaved(t, 10, 9)
	w := NewWorld(Options{})
	velC := NewComponent[vel](w) // not the file's component
	b := w.NewCommands()
	velC.Add(b, b.Spawn(), vel{DX: 1})
	_, err := w.Apply(b)
	require.NoError(t, err)
	before, err := w.Hash(velC)
	require.NoError(t, err)
	ents := entities(w)
	err = w.Load(bytes.NewReader(file))
	var e *Error
	require.True(t, errors.As(err, &e), "%v", err)
	require.Equal(t, ErrBadFile, e.Code)
	after, err := w.Hash(velC)
	require.NoError(t, err)
	require.Equal(t, before, after)
	require.Equal(t, ents, entities(w))
}
