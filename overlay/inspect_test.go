package overlay

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/weft-engine/weft/ecs"
)

// The inspector shows the followed entity's components and the systems
// that reach it, fits every screen beside the other panels, follows the
// entity across steps, says when it is gone, and leaves when released.
func TestInspectPanel(t *testing.T) {
	e, o := newEngine(t, 1, 500, 3, Options{})
	seq, err := e.World().Entities()
	require.NoError(t, err)
	var ent ecs.Entity
	for ent = range seq {
		break
	}
	o.Inspect(ent)
	assert.Equal(t, ent, o.Inspected())
	for _, sz := range screens {
		require.NoError(t, e.Tick())
		o.poll()
		o.layout(sz)
		checkBoxes(t, "inspect", sz, o.pic.boxes)
		texts := boxTexts(o.pic.boxes)
		assert.Contains(t, panelsDrawn(o), "inspect", "at %v", sz)
		assert.Contains(t, panelsDrawn(o), "systems", "at %v", sz)
		assert.Contains(t, texts, "entity 2 (generation 0)")
		assert.Contains(t, texts, "  pos {")
		assert.Contains(t, texts, "  mover: writes pos")
	}

	b := e.World().NewCommands()
	b.Despawn(ent)
	_, err = e.World().Apply(b)
	require.NoError(t, err)
	o.layout(screens[0])
	assert.Contains(t, boxTexts(o.pic.boxes), "entity 2 is gone")

	o.Inspect(ecs.Entity{})
	o.layout(screens[0])
	assert.NotContains(t, panelsDrawn(o), "inspect", "released")
}
