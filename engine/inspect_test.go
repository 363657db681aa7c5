package engine_test

import (
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
