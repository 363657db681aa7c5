package overlay

import (
	"fmt"

	"github.com/weft-engine/weft/ecs"
)

// inspectPanel, at the top of the left column while an entity is
// inspected, shows it as engine.Engine.Inspect describes it: its ID, every
// component with its value, and the systems whose declared access reaches
// it, marking those that did not run in the last step. It follows the
// entity across steps (an Entity keeps its identity) until Inspect is
// given the zero entity, and says when it is gone.
// Lines that do not fit are cut, with a last line that counts them.
func (o *Overlay) inspectPanel() Panel {
	return Panel{Name: "inspect", Dock: Left, Layout: func(c *Canvas) int {
		if o.inspected.IsZero() {
			return 0
		}
		lines := []string{fmt.Sprintf("entity %d is gone (despawned); inspect another", o.inspected.ID())}
		if in, err := o.e.Inspect(o.inspected); err == nil {
			lines = in.Lines()
		}
		fit := max((c.H-8)/lineH, 1)
		if len(lines) > fit {
			n := len(lines) - fit + 1
			lines = append(lines[:fit-1], fmt.Sprintf("... %d more lines", n))
		}
		y := 2
		for _, l := range lines {
			y += c.Text(6, y, l)
		}
		return y + 6
	}}
}

// Inspect follows e in the inspector panel, from the next repaint, until
// it is called again; the zero entity (ecs.Entity{}) releases it.
// Executed only by the game goroutine, the engine's owner.
func (o *Overlay) Inspect(e ecs.Entity) { o.inspected, o.redo = e, 0 }

// Inspected is the entity the inspector follows; the zero entity if none.
func (o *Overlay) Inspected() ecs.Entity { return o.inspected }
