package overlay

import (
	"cmp"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

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
		lines = append(o.steppingLines(), lines...)
		var wrapped []string // long values go on to lines of their own, indented
		for _, l := range lines {
			indent := strings.Repeat(" ", len(l)-len(strings.TrimLeft(l, " "))+2)
			for i, w := range wrap(shortFloats(l), (c.W-8)/charW-len(indent), 0) {
				if i > 0 {
					w = indent + w
				}
				wrapped = append(wrapped, w)
			}
		}
		lines = wrapped
		// Under it, the systems table's title and a line, and the
		// predictions, keep their room.
		fit := max((c.H-8-o.predictHeight(c.W)-4-2*lineH-4)/lineH, 1)
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
// it is called again; the zero entity (ecs.Entity{}) releases it, and
// ends the stepping through a query. Executed only by the game
// goroutine, the engine's owner.
func (o *Overlay) Inspect(e ecs.Entity) {
	o.inspected, o.redo = e, 0
	if e.IsZero() {
		o.stepping = stepping{}
	}
}

// stepping is the system whose queries' matches the inspector steps
// through ("" before the first step).
type stepping struct {
	system string
	ents   []ecs.Entity // Matching's scratch
}

// inspectKeys steps through the chosen query's matches.
func (o *Overlay) inspectKeys() {
	switch {
	case anyPressed(o.opt.InspectNext):
		o.StepInspect(1)
	case anyPressed(o.opt.InspectPrev):
		o.StepInspect(-1)
	case anyPressed(o.opt.InspectQuery):
		o.NextInspectQuery()
	}
}

// StepInspect follows the next (delta 1) or previous (-1) entity, by id,
// among those that the chosen system's queries match (the first system
// with a query until NextInspectQuery chooses another), after or before
// the one inspected, going round at the ends. Executed only by the game
// goroutine, between steps.
func (o *Overlay) StepInspect(delta int) {
	if o.stepping.system == "" {
		o.NextInspectQuery()
	}
	ents := o.matching()
	if len(ents) == 0 {
		return
	}
	i, found := slices.BinarySearchFunc(ents, o.inspected, byID)
	switch {
	case delta > 0 && found:
		i++
	case delta < 0:
		i--
	}
	o.inspected, o.redo = ents[(i%len(ents)+len(ents))%len(ents)], 0
}

// NextInspectQuery chooses the next system with a query (in built order,
// going round) to step through. Executed only by the game goroutine.
func (o *Overlay) NextInspectQuery() {
	names := o.e.World().QuerySystems()
	if len(names) == 0 {
		return
	}
	i := slices.Index(names, o.stepping.system)
	o.stepping.system, o.redo = names[(i+1)%len(names)], 0
}

// InspectQuery is the system whose queries' matches the inspector steps
// through; "" before the first step.
func (o *Overlay) InspectQuery() string { return o.stepping.system }

// matching is the chosen system's matches, in Matching's order (nil
// during a step or for a system that is gone).
func (o *Overlay) matching() []ecs.Entity {
	ents, err := o.e.World().Matching(o.stepping.system, o.stepping.ents[:0])
	if err != nil {
		return nil
	}
	o.stepping.ents = ents
	return ents
}

// steppingLines are the panel's first lines while stepping through a
// query: which one, where the inspected entity is among its matches, and
// the keys.
func (o *Overlay) steppingLines() []string {
	if o.stepping.system == "" {
		return nil
	}
	ents := o.matching()
	i, found := slices.BinarySearchFunc(ents, o.inspected, byID)
	at := "not among them"
	if found {
		at = fmt.Sprintf("%d of %d", i+1, len(ents))
	}
	return []string{
		fmt.Sprintf("query of %s: %s (%d match)", o.stepping.system, at, len(ents)),
		fmt.Sprintf("%s / %s next / previous, %s another system", keyName(o.opt.InspectNext), keyName(o.opt.InspectPrev), keyName(o.opt.InspectQuery)),
	}
}

// byID orders entities as World.Matching gives them.
func byID(a, b ecs.Entity) int {
	return cmp.Or(cmp.Compare(a.ID(), b.ID()), cmp.Compare(a.Gen(), b.Gen()))
}

// Inspected is the entity the inspector follows; the zero entity if none.
func (o *Overlay) Inspected() ecs.Entity { return o.inspected }

// longFloat is a number printed with more decimals than a panel shows.
var longFloat = regexp.MustCompile(`-?[0-9]+\.[0-9]{4,}(e[-+]?[0-9]+)?`)

// shortFloats rounds the long numbers of s to what a reader takes in:
// two decimals from 1 up, one from 100 up, three significant digits
// below 1.
func shortFloats(s string) string {
	return longFloat.ReplaceAllStringFunc(s, func(n string) string {
		v, err := strconv.ParseFloat(n, 64)
		switch a := math.Abs(v); {
		case err != nil:
			return n
		case a >= 100:
			return strconv.FormatFloat(v, 'f', 1, 64)
		case a >= 1:
			return strconv.FormatFloat(v, 'f', 2, 64)
		}
		return strconv.FormatFloat(v, 'g', 3, 64)
	})
}
