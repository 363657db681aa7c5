package overlay

import (
	"fmt"
	"image"
	"math"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/weft-engine/weft/engine"
	"github.com/weft-engine/weft/profile"
)

const laneLabelW = 48 // "owner", "w1", ... left of the lanes

// laneH is a lane's height for n lanes: 16 lanes fit.
func laneH(n int) int { return min(max(160/max(n, 1), 9), 18) }

// tlGeom is where the timeline was laid out, in the panel's coordinates.
type tlGeom struct {
	phaseY    int // the owner's phases' lane, above the participants'
	laneY, lh int
	width     float32 // the lanes' width
	title     image.Rectangle
}

// hoverState is the box under the cursor and its text, rebuilt only when
// the box or the step changes.
type hoverState struct {
	textOf int
	text   string
	step   uint64
	sh     shapes
}

// timelinePanel is the shown step's timeline: a lane for the owner and
// one per worker, a box per job coloured by system (bright with a yellow
// foot on the critical path, dimmed elsewhere), the markers' spans inside
// them, an ms axis. The wheel zooms about the cursor, dragging pans, a
// right click shows the whole step; hovering a box shows its details.
func (o *Overlay) timelinePanel() Panel {
	return Panel{Name: "timeline", Dock: Bottom, Layout: o.layoutTimeline, Input: o.timelineInput, Draw: o.drawHover}
}

func (o *Overlay) layoutTimeline(c *Canvas) int {
	g := &o.geom
	lines := c.Wrap(6, 0, o.timelineHead(), 2)
	g.title = image.Rect(0, 0, c.W, lines)
	g.phaseY, g.lh, g.width = lines, laneH(o.tl.lanes+1), float32(c.W-laneLabelW-8)
	g.laneY = g.phaseY + g.lh
	c.rect(laneLabelW, float32(g.phaseY), g.width, float32(g.lh-1), colLane)
	if g.lh >= lineH-2 {
		c.Text(6, g.phaseY+(g.lh-lineH)/2, "phase")
	}
	for l := range o.tl.lanes {
		c.rect(laneLabelW, float32(g.laneY+l*g.lh), g.width, float32(g.lh-1), colLane)
		c.Text(6, g.laneY+l*g.lh+(g.lh-lineH)/2, laneName(l))
	}
	axisY := g.laneY + o.tl.lanes*g.lh
	o.layoutAxis(c, axisY)
	o.layoutPhases(c)
	o.layoutBoxes(c)
	o.layoutGC(c)
	return axisY + lineH + 2
}

// timelineHead is the timeline's title: its step, state, view and path.
func (o *Overlay) timelineHead() string {
	state := "live (" + keyName(o.opt.Freeze) + " freezes)"
	if o.frozen {
		state = "FROZEN (" + keyName(o.opt.Freeze) + " thaws)"
	}
	view := ""
	if o.view.to > o.view.from {
		view = fmt.Sprintf(", zoomed to %s-%s (right click: all)", dur(float64(o.view.from)), dur(float64(o.view.to)))
	}
	if f := o.view.filter; f >= 0 && int(f) < len(o.tl.systems) {
		view += ", only " + o.tl.name(f)
	}
	gc := ""
	if o.tl.gc > 0 || o.tl.gcOut > 0 {
		gc = fmt.Sprintf(", GC pauses %s in it and %s before it (magenta)", dur(float64(o.tl.gc)), dur(float64(o.tl.gcOut)))
	}
	return fmt.Sprintf("step %d timeline, %s: %.2f ms, owner + %s, %s, critical path %.2f ms in %s (yellow)%s%s",
		o.tl.step, state, ms(o.tl.total), count(max(o.tl.lanes-1, 0), "worker"), count(o.tl.jobs, "job"), ms(o.tl.path), count(o.tl.pathLen, "job"), view, gc)
}

// layoutAxis draws the ms axis's grid lines and labels; a label that
// would run past the lanes' end or into the one before is left out.
func (o *Overlay) layoutAxis(c *Canvas, axisY int) {
	g := &o.geom
	from, to := o.view.window(o.tl.end)
	tick := msTick(float64(to-from) / 1e6)
	free := laneLabelW // the first x a label may start at
	for t := math.Floor(float64(from)/1e6/tick) * tick; t*1e6 <= float64(to); t += tick {
		if t*1e6 < float64(from) {
			continue
		}
		x := laneLabelW + float32((t*1e6-float64(from))/float64(to-from))*g.width
		c.rect(x, float32(g.phaseY), 1, float32((o.tl.lanes+1)*g.lh), colGrid)
		label := tickLabel(t, tick)
		if lx := int(x) + 2; lx >= free && lx+textW(label) <= laneLabelW+int(g.width) {
			c.Text(lx, axisY, label)
			free = lx + textW(label) + charW
		}
	}
}

// layoutPhases draws the owner's phases on the phase lane, coloured by
// their system where they have one, and the gaps between them: magenta
// where a GC pause explains one, red where the owner did not run.
func (o *Overlay) layoutPhases(c *Canvas) {
	g := &o.geom
	for i := range o.tl.phases {
		if x, y, w, h, ok := o.phaseBox(i); ok {
			c.rect(x, y, w, h, phaseColor(&o.tl.phases[i]))
		}
	}
	for i := range o.tl.gaps {
		gp := &o.tl.gaps[i]
		if x, w, ok := o.span(gp.Start, gp.End); ok {
			col := colGap
			if gp.Cause == "GC" {
				col = colGC
			}
			c.rect(x, float32(g.phaseY+g.lh-4), w, 3, col)
		}
	}
}

// layoutGC draws each GC pause at its time across every lane; a pause
// between the previous step and this one is a mark at the axis's start.
func (o *Overlay) layoutGC(c *Canvas) {
	g := &o.geom
	h := float32((o.tl.lanes + 1) * g.lh)
	for _, p := range o.tl.pauses {
		if p.End <= 0 {
			c.rect(laneLabelW-4, float32(g.phaseY), 3, h, colGC)
			continue
		}
		if x, w, ok := o.span(max(p.Start, 0), p.End); ok {
			c.rect(x, float32(g.phaseY), max(w, 2), h, colGC.alpha(0.45))
		}
	}
}

// phaseBox is the owner's phase i's box on the phase lane.
func (o *Overlay) phaseBox(i int) (x, y, w, h float32, ok bool) {
	p := &o.tl.phases[i]
	x, w, ok = o.span(p.Start, p.End)
	return x, float32(o.geom.phaseY), w, float32(o.geom.lh - 5), ok && (p.System < 0 || o.view.shows(p.System))
}

// phaseColor is a phase's colour: its system's for Schedule, Merge and
// an exclusive Run; grey for the engine's own.
func phaseColor(p *profile.Phase) col {
	switch p.Kind {
	case engine.PhaseSchedule, engine.PhaseExclusive:
		return systemColor(p.System)
	case engine.PhaseMerge:
		return systemColor(p.System).scaled(0.7)
	case engine.PhaseWait:
		return rgba(0x48, 0x52, 0x70, 0xff)
	}
	return colEngine.scaled(0.8)
}

// layoutBoxes draws the jobs' boxes, their names where they fit, and
// the markers' boxes inside them.
func (o *Overlay) layoutBoxes(c *Canvas) {
	for i := range o.tl.slices {
		sl := &o.tl.slices[i]
		bx, by, bw, bh, ok := o.box(i)
		if !ok {
			continue
		}
		col := systemColor(sl.System)
		if !sl.Critical {
			col = col.scaled(0.55)
		}
		c.rect(bx, by, bw, bh, col)
		if sl.Critical {
			c.rect(bx, by+bh-2, bw, 2, colCritical)
		}
		if o.geom.lh >= lineH-2 && int(bw) > textW(sl.Label)+4 {
			c.Text(int(bx)+2, int(by)+(o.geom.lh-lineH)/2, sl.Label)
		}
	}
	for i := range o.tl.marks {
		if bx, by, bw, bh, ok := o.markBox(i); ok {
			c.rect(bx, by, bw, bh, colMarker)
		}
	}
}

// box is slice i's box, in the panel; ok is false when it is outside
// the shown range or filtered out.
func (o *Overlay) box(i int) (x, y, w, h float32, ok bool) {
	sl := &o.tl.slices[i]
	x, w, ok = o.span(sl.Start, sl.End)
	return x, float32(o.geom.laneY + int(sl.Worker)*o.geom.lh), w, float32(o.geom.lh - 1), ok && o.view.shows(sl.System)
}

// markBox is marker span i's box: a thinner box inside its job's, lower
// for each level of nesting; filtered with its system.
func (o *Overlay) markBox(i int) (x, y, w, h float32, ok bool) {
	m := &o.tl.marks[i]
	x, w, ok = o.span(m.Start, m.End)
	if int(m.Marker) < len(o.tl.markers) {
		ok = ok && o.view.shows(o.tl.markers[m.Marker].System)
	}
	inset := float32(3 + 2*m.Depth)
	return x, float32(o.geom.laneY+int(m.Worker)*o.geom.lh) + inset, w, max(float32(o.geom.lh-1)-2*inset, 2), ok
}

// span is the horizontal extent of [start, end] in the shown range.
func (o *Overlay) span(start, end int64) (x, w float32, ok bool) {
	from, to := o.view.window(o.tl.end)
	if end < from || start > to {
		return 0, 0, false
	}
	scale := o.geom.width / float32(to-from)
	x0 := laneLabelW + float32(max(start, from)-from)*scale
	x1 := laneLabelW + float32(min(end, to)-from)*scale
	return x0, max(x1-x0, 1), true
}

// laneName is lane l's label: the owner, then the workers.
func laneName(l int) string {
	if l == 0 {
		return "owner"
	}
	return fmt.Sprintf("w%d", l)
}

// onLanes reports whether the panel point is over the lanes.
func (o *Overlay) onLanes(x, y int) bool {
	g := &o.geom
	return y >= g.phaseY && y < g.laneY+o.tl.lanes*g.lh && x >= laneLabelW
}

// timelineInput zooms about the cursor with the wheel, pans while
// dragging, and shows the whole step on a right click.
func (o *Overlay) timelineInput(p Pointer) bool {
	v := &o.view
	switch {
	case !p.Held:
		v.dragX = -1
	case v.dragX >= 0:
		if dx := p.X - v.dragX; dx != 0 {
			v.pan(float32(dx), o.geom.width, o.tl.end)
			o.redo = 0
		}
		v.dragX = p.X
	case o.onLanes(p.X, p.Y):
		v.dragX = p.X
	}
	if p.Wheel != 0 && o.onLanes(p.X, p.Y) {
		v.zoom(math.Pow(0.8, p.Wheel), float32(p.X-laneLabelW), o.geom.width, o.tl.end)
		o.redo = 0
	}
	if p.RightClick && o.onLanes(p.X, p.Y) {
		v.from, v.to, o.redo = 0, 0, 0
	}
	return true
}

// hit is the box under the panel point (x, y): a job's index, or
// len(slices) plus a marker's (markers win: they sit inside jobs); -1
// for none. It also returns the box.
func (o *Overlay) hit(x, y int) (int, image.Rectangle) {
	fx, fy := float32(x), float32(y)
	in := func(bx, by, bw, bh float32) bool { return fx >= bx && fx < bx+max(bw, 2) && fy >= by && fy < by+bh+1 }
	at, r := -1, image.Rectangle{}
	for i := range o.tl.slices {
		if bx, by, bw, bh, ok := o.box(i); ok && in(bx, by, bw, bh) {
			at, r = i, image.Rect(int(bx), int(by), int(bx+bw), int(by+bh))
		}
	}
	for i := range o.tl.marks {
		if bx, by, bw, bh, ok := o.markBox(i); ok && in(bx, by, bw, bh) {
			at, r = len(o.tl.slices)+i, image.Rect(int(bx), int(by), int(bx+bw), int(by+bh))
		}
	}
	for i := range o.tl.phases {
		if bx, by, bw, bh, ok := o.phaseBox(i); ok && in(bx, by, bw, bh) {
			at, r = len(o.tl.slices)+len(o.tl.marks)+i, image.Rect(int(bx), int(by), int(bx+bw), int(by+bh))
		}
	}
	for i, p := range o.tl.pauses { // over everything: they stop every lane
		if bx, bw, ok := o.span(max(p.Start, 0), max(p.End, 0)); ok && p.End > 0 && in(bx, float32(o.geom.phaseY), bw, float32((o.tl.lanes+1)*o.geom.lh)) {
			at, r = len(o.tl.slices)+len(o.tl.marks)+len(o.tl.phases)+i, image.Rect(int(bx), o.geom.phaseY, int(bx+max(bw, 2)), o.geom.laneY+o.tl.lanes*o.geom.lh)
		}
	}
	return at, r
}

// hoverText is box i's details: a job's, a marker span's, an owner's
// phase's or a GC pause's (hit's numbering).
func (o *Overlay) hoverText(i int) string {
	nm := len(o.tl.slices) + len(o.tl.marks)
	if k := i - nm - len(o.tl.phases); k >= 0 {
		p := o.tl.pauses[k]
		return fmt.Sprintf("GC pause (cycle %d): every goroutine stopped\nstart %s, duration %s", p.Cycle, dur(float64(p.Start)), dur(float64(p.End-p.Start)))
	}
	if k := i - nm; k >= 0 {
		p := &o.tl.phases[k]
		what := p.Kind.String()
		if p.System >= 0 {
			what += " of " + o.tl.name(p.System)
		}
		return fmt.Sprintf("owner: %s\nstart %s, duration %s", what, dur(float64(p.Start)), dur(float64(p.End-p.Start)))
	}
	if m := i - len(o.tl.slices); m >= 0 {
		mk := &o.tl.marks[m]
		name := "?"
		if int(mk.Marker) < len(o.tl.markers) {
			name = o.tl.markers[mk.Marker].Name
		}
		return fmt.Sprintf("marker %s, nesting %d\n%s, start %s, duration %s",
			name, mk.Depth, laneName(int(mk.Worker)), dur(float64(mk.Start)), dur(float64(mk.End-mk.Start)))
	}
	sl := &o.tl.slices[i]
	what := fmt.Sprintf("chunk %d, %d rows (entities, or a range's items)", sl.Chunk, sl.Rows)
	if sl.Rows == 0 { // a join or an engine job: nothing to count
		what = fmt.Sprintf("part %d", sl.Chunk)
	}
	crit := ""
	if sl.Critical {
		crit = ", on the critical path"
	}
	return fmt.Sprintf("%s: %s %s\n%s, start %s, duration %s%s",
		o.tl.name(sl.System), sl.Label, what, laneName(int(sl.Worker)), dur(float64(sl.Start)), dur(float64(sl.End-sl.Start)), crit)
}

// drawHover outlines the box under the cursor and shows its details in
// a tooltip that keeps off the title and the line of keys, inside the
// screen.
func (o *Overlay) drawHover(screen *ebiten.Image, r image.Rectangle, mx, my int) {
	h := &o.hover
	if !(image.Point{mx, my}).In(r) {
		return
	}
	i, box := o.hit(mx-r.Min.X, my-r.Min.Y)
	if i < 0 {
		return
	}
	if h.step != o.tl.step || h.textOf != i || h.text == "" {
		h.step, h.textOf, h.text = o.tl.step, i, fitLines(o.hoverText(i), (screen.Bounds().Dx()-16)/charW)
	}
	box = box.Add(r.Min)
	tip := tooltipAt(mx, my, textW(h.text)+8, 2*lineH+4, screen.Bounds(), o.geom.title.Add(r.Min), o.panelRect("hint"))
	h.sh.begin(screen)
	h.sh.frame(float32(box.Min.X), float32(box.Min.Y), float32(box.Dx()), float32(box.Dy()), 1, colText)
	h.sh.rect(float32(tip.Min.X), float32(tip.Min.Y), float32(tip.Dx()), float32(tip.Dy()), rgba(0, 0, 0, 0xf0))
	h.sh.frame(float32(tip.Min.X), float32(tip.Min.Y), float32(tip.Dx()), float32(tip.Dy()), 1, colText)
	h.sh.flush()
	o.pt.gl.begin(screen)
	o.pt.gl.text(h.text, tip.Min.X+4, tip.Min.Y+2)
	o.pt.gl.flush()
}
