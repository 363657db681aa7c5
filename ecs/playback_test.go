package ecs

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Report.Spawned gives the entity a placeholder became in the report's
// playback, from any buffer it played (an observer's too); an entity
// that is not a placeholder is itself; a placeholder of another buffer
// (of this world, or of another whose tags differ from the buffers
// played) or of a playback before the last is ErrUnresolved.
func TestReportSpawned(t *testing.T) {
	w := NewWorld(Options{})
	hc := NewComponent[health](w)
	var made []Entity
	d := w.Observer("echo", func(ev Observed) error {
		made = append(made, ev.Commands.Spawn()) // plays in the same playback
		return nil
	})
	Observe[health](d, OnAdd)
	b := w.NewCommands()
	var phs []Entity
	for i := range 3 {
		e := b.Spawn()
		hc.Add(b, e, health{HP: i})
		phs = append(phs, e)
	}
	b.Despawn(phs[2])
	other := NewWorld(Options{}).NewCommands()
	for range 3 { // another world's buffer, its tag not b's
		other = other.w.NewCommands()
	}
	foreign := other.Spawn()
	rep, err := w.Apply(b)
	require.NoError(t, err)
	for i, ph := range phs[:2] {
		e, err := rep.Spawned(ph)
		require.NoError(t, err)
		h, err := Get[health](w, e)
		require.NoError(t, err)
		assert.Equal(t, i, h.HP)
	}
	gone, err := rep.Spawned(phs[2])
	require.NoError(t, err, "the entity its spawn made, despawned later in the playback")
	assert.False(t, w.ark.Alive(gone))
	require.Len(t, made, 3)
	e, err := rep.Spawned(made[0])
	require.NoError(t, err)
	assert.True(t, w.ark.Alive(e), "an observer's spawn in the same playback")
	real, err := rep.Spawned(e)
	require.NoError(t, err)
	assert.Equal(t, e, real, "an entity that is not a placeholder is itself")

	_, err = rep.Spawned(foreign)
	require.ErrorIs(t, err, ErrUnresolved)
	assert.Contains(t, err.Error(), "Report.Spawned(")
	assert.Contains(t, err.Error(), "no buffer of the report's playback spawned it")
	_, err = rep.Spawned(b.Spawn()) // b's next use: not played yet
	require.ErrorIs(t, err, ErrUnresolved)

	later, err := w.Apply(w.NewCommands())
	require.NoError(t, err)
	_, err = later.Spawned(phs[0])
	require.ErrorIs(t, err, ErrUnresolved, "the report answers for the world's last playback")
	_, err = (&Report{}).Spawned(phs[0])
	require.ErrorIs(t, err, ErrUnresolved)
}

// A Restore (and so a Load) forgets the last playback: the report's
// placeholders answer ErrUnresolved, not an entity of the restored
// world that happens to have the same id; and an observer asking during
// the playback is told to ask after it.
func TestReportSpawnedAfterRestore(t *testing.T) {
	w := NewWorld(Options{})
	hc := NewComponent[health](w)
	var s0, s1 Snapshot
	require.NoError(t, w.Snapshot(&s0))
	b := w.NewCommands()
	hc.Add(b, b.Spawn(), health{HP: 10})
	_, err := w.Apply(b)
	require.NoError(t, err)
	require.NoError(t, w.Snapshot(&s1))
	require.NoError(t, w.Restore(&s0))
	b = w.NewCommands()
	y := b.Spawn()
	hc.Add(b, y, health{HP: 20})
	rep, err := w.Apply(b)
	require.NoError(t, err)
	got, err := rep.Spawned(y)
	require.NoError(t, err)
	h, err := Get[health](w, got)
	require.NoError(t, err)
	assert.Equal(t, 20, h.HP)
	require.NoError(t, w.Restore(&s1))
	_, err = rep.Spawned(y)
	require.ErrorIs(t, err, ErrUnresolved, "after the Restore, y names nothing of this world")

	var during error
	d := w.Observer("asker", func(ev Observed) error {
		_, during = rep.Spawned(y)
		return nil
	})
	Observe[health](d, OnAdd)
	require.NoError(t, d.Err())
	b = w.NewCommands()
	hc.Add(b, b.Spawn(), health{HP: 1})
	rep, err = w.Apply(b)
	require.NoError(t, err)
	require.ErrorIs(t, during, ErrUnresolved)
	assert.Contains(t, during.Error(), "during a playback")
}

// A skipped command of the owner's own buffer names the owner, not a
// system without a name.
func TestOwnerProblemNamed(t *testing.T) {
	w := NewWorld(Options{})
	b := w.NewCommands()
	ph := b.Spawn()
	rep, err := w.Apply(b)
	require.NoError(t, err)
	e, err := rep.Spawned(ph)
	require.NoError(t, err)
	b.Despawn(e)
	b.Despawn(e) // skipped: dead by then
	b.Despawn(placeholder(b.tag^1, 0))
	rep, err = w.Apply(b)
	require.ErrorIs(t, err, ErrUnresolved)
	assert.Contains(t, err.Error(), "by the owner (a World.NewCommands buffer) (buffer 0, command 2)")
	assert.Contains(t, rep.Err().Error(), "WEFT-E006: 2 commands were skipped; the first: despawn of")
	b.Despawn(e)
	rep, err = w.Apply(b)
	require.NoError(t, err)
	assert.Equal(t, fmt.Sprintf("ecs: WEFT-E006: 1 commands were skipped; the first: despawn of %v by the owner (a World.NewCommands buffer) (buffer 0, command 0): the entity is not alive (despawned, or never spawned); record commands only for entities that are alive when the buffer plays, and check components with the previous frame's state", e), rep.Err().Error())
}
