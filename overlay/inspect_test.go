package overlay

import (
	"fmt"
	"image"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
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
		texts := stepAndShow(t, e, o, sz)
		assert.Contains(t, panelsDrawn(o), "inspect", "at %v", sz)
		assert.Contains(t, panelsDrawn(o), "systems", "at %v", sz)
		assert.Contains(t, panelsDrawn(o), "predict", "at %v", sz)
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

// The inspector steps through the entities that a system's queries
// match, by id, going round at the ends, shows where it is and the keys,
// follows the entity across steps, and stops stepping when released.
func TestInspectStepsThroughAQuery(t *testing.T) {
	e, o := newEngine(t, 1, 5, 1, Options{})
	w := e.World()
	ents, err := w.Matching("mover", nil)
	require.NoError(t, err)
	require.Len(t, ents, 5)
	_, err = w.Matching("nobody", nil)
	require.Error(t, err)

	o.StepInspect(1)
	assert.Equal(t, "mover", o.InspectQuery())
	assert.Equal(t, ents[0], o.Inspected())
	o.StepInspect(1)
	o.StepInspect(1)
	assert.Equal(t, ents[2], o.Inspected())
	o.StepInspect(-1)
	assert.Equal(t, ents[1], o.Inspected())
	for _, sz := range screens {
		texts := stepAndShow(t, e, o, sz)
		assert.Contains(t, texts, "query of mover: 2 of 5 (5 match)")
		assert.Contains(t, texts, "PageDown / PageUp next / previous, End another system")
		assert.Contains(t, texts, fmt.Sprintf("entity %d (generation 0)", ents[1].ID()))
	}
	o.StepInspect(-1)
	o.StepInspect(-1)
	assert.Equal(t, ents[4], o.Inspected(), "round the start")
	o.StepInspect(1)
	assert.Equal(t, ents[0], o.Inspected(), "round the end")

	o.Inspect(ecs.Entity{})
	assert.Equal(t, "", o.InspectQuery(), "released")
	o.layout(screens[0])
	assert.NotContains(t, panelsDrawn(o), "inspect")
}

// stepAndShow ticks, lays the overlay out for sz, checks its boxes and
// returns their texts.
func stepAndShow(t *testing.T, e *engine.Engine, o *Overlay, sz image.Point) string {
	t.Helper()
	require.NoError(t, e.Tick())
	o.poll()
	o.layout(sz)
	checkBoxes(t, "inspect", sz, o.pic.boxes)
	return boxTexts(o.pic.boxes)
}

// Long numbers are rounded and long values go on to lines of their own:
// nothing the inspector shows is cut at the panel's edge.
func TestInspectLongValues(t *testing.T) {
	assert.Equal(t, "{X:1234.6 Y:-12.35 Z:0.00123 N:7}", shortFloats("{X:1234.5678901234567 Y:-12.3456789 Z:0.0012345678 N:7}"))
	assert.Equal(t, "1.5e+10 and 2.5", shortFloats("1.5e+10 and 2.5"), "short numbers stay")
	e, o := newEngine(t, 1, 3, 1, Options{})
	w := e.World()
	long := ecs.NewComponent[struct{ A, B, C, D, E, F, G, H float64 }](w)
	seq, err := w.Entities()
	require.NoError(t, err)
	var ent ecs.Entity
	for ent = range seq {
		break
	}
	b := w.NewCommands()
	long.Add(b, ent, struct{ A, B, C, D, E, F, G, H float64 }{1.0 / 3, 2.0 / 3, 1e6 / 7, -1e3 / 7, 1, 2, 3, 4})
	_, err = w.Apply(b)
	require.NoError(t, err)
	o.Inspect(ent)
	for _, sz := range screens {
		o.layout(sz)
		checkBoxes(t, "inspector", sz, o.pic.boxes)
		for _, bx := range o.pic.boxes {
			if bx.Panel == "inspect" {
				assert.NotContains(t, bx.Text, "...", "at %v: cut", sz)
				assert.NotContains(t, bx.Text, "0.3333333", "at %v: long numbers", sz)
			}
		}
		assert.Contains(t, boxTexts(o.pic.boxes), "A:0.333")
	}
}
