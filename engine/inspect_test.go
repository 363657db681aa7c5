package engine_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
)

// Engine.Inspect says how each system that reaches the entity took part
// in the last step: a disabled one is marked so.
func TestInspectLastStep(t *testing.T) {
	a := newArena(engine.Config{Workers: 1}, true)
	defer a.eng.Close()
	require.NoError(t, a.eng.Enable("blend", false))
	require.NoError(t, a.Tick())
	seq, err := a.w.Entities()
	require.NoError(t, err)
	var ember ecs.Entity
	for ember = range seq {
		break
	}
	in, err := a.eng.Inspect(ember)
	require.NoError(t, err)
	require.Len(t, in.Systems, 2)
	assert.Equal(t, "ran", in.Systems[0].Last)
	assert.Equal(t, "disabled", in.Systems[1].Last)
	assert.Equal(t, "  blend: writes Ember; disabled in the last step", in.Lines()[len(in.Lines())-1])
}

// Inspect, Matching and IsEnabled answer ErrLocked while a frame is open (a
// system's Schedule), and answer from a Merge, which runs with the world
// unlocked, as docs/guide/16-inspector.md says.
func TestInspectWhereLocked(t *testing.T) {
	w := ships(1)
	seq, err := w.Entities()
	require.NoError(t, err)
	var ship ecs.Entity
	for ship = range seq {
	}
	look := func() error {
		_, err := w.Inspect(ship)
		_, err2 := w.Matching("looker", nil)
		_, err3 := ecs.IsEnabled[Hull](w, ship)
		return errors.Join(err, err2, err3)
	}
	var inSchedule, inMerge error
	eng, err := engine.New(w, engine.Config{Workers: 1})
	require.NoError(t, err)
	defer eng.Close()
	require.NoError(t, eng.Add(engine.Update, merging{&toy{name: "looker", build: func(b *engine.Builder) error {
		ecs.NewQuery1(b.Decl(), ecs.Read[Hull](b.Decl()))
		return nil
	}, sched: func(*engine.Frame) error {
		inSchedule = look()
		return nil
	}, merge: func(*engine.Frame) error {
		inMerge = look()
		return nil
	}}}))
	require.NoError(t, eng.Build())
	require.NoError(t, eng.Tick())
	assert.ErrorIs(t, inSchedule, ecs.ErrLocked)
	assert.NoError(t, inMerge)
	assert.NoError(t, look())
}
