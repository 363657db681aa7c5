package overlay

import (
	"image"
	"strings"
)

// layout lays the overlay out for a screen of size sz into o.pic: the
// top panels down from the top, the bottom ones up from the bottom, the
// left column in between, and the floating bands (status, message) right
// of the column. Shown help covers the rest; hidden, only a hint shows.
func (o *Overlay) layout(sz image.Point) {
	o.sum = o.prof.Summary()
	o.pic.reset()
	for i := range o.panels {
		o.panels[i].r = image.Rectangle{}
	}
	switch {
	case !o.visible:
		o.layoutHint(sz)
		return
	case o.help:
		o.layoutHelp(sz)
		return
	}
	top := o.stack(Top, 0, sz.X, 0, sz.Y)
	bottom := o.stackUp(Bottom, sz.X, top, sz.Y)
	lw := min(leftW, sz.X/2)
	o.stack(Left, 0, lw, top, bottom)
	o.layoutFloats(lw+8, top+2, sz.X-4, bottom)
}

// stack lays dock d's panels down from y, x0 to x1, above limit, and
// returns where they end. A panel that does not fit is left out.
func (o *Overlay) stack(d Dock, x0, x1, y, limit int) int {
	for i := range o.panels {
		pl := &o.panels[i]
		if pl.Dock != d || pl.Layout == nil {
			continue
		}
		c := Canvas{X: x0, Y: y, W: x1 - x0, H: limit - y, panel: pl.Name, pic: &o.pic}
		m := o.pic.mark()
		h := pl.Layout(&c)
		if h <= 0 || h > c.H {
			o.pic.cut(m)
			continue
		}
		o.band(pl, image.Rect(x0, y, x1, y+h))
		y += h
	}
	return y
}

// stackUp lays dock d's panels up from the bottom (the first added
// lowest), across width w, down to limit, and returns where they begin.
func (o *Overlay) stackUp(d Dock, w, limit, bottom int) int {
	for i := range o.panels {
		pl := &o.panels[i]
		if pl.Dock != d || pl.Layout == nil {
			continue
		}
		c := Canvas{X: 0, Y: 0, W: w, H: bottom - limit, panel: pl.Name, pic: &o.pic}
		m := o.pic.mark()
		h := pl.Layout(&c)
		if h <= 0 || h > c.H {
			o.pic.cut(m)
			continue
		}
		bottom -= h
		o.pic.shift(m, bottom)
		o.band(pl, image.Rect(0, bottom, w, bottom+h))
	}
	return bottom
}

// band places pl at r and puts the panel's background under it.
func (o *Overlay) band(pl *placed, r image.Rectangle) {
	pl.r = r
	o.pic.bands = append(o.pic.bands, fill{float32(r.Min.X), float32(r.Min.Y), float32(r.Dx()), float32(r.Dy()), colPanel})
}

// shift moves what was added since m down by dy.
func (p *picture) shift(m mark, dy int) {
	for i := m.fills; i < len(p.fills); i++ {
		p.fills[i].y += float32(dy)
	}
	for i := m.boxes; i < len(p.boxes); i++ {
		p.boxes[i].R = p.boxes[i].R.Add(image.Pt(0, dy))
	}
	for i := m.lines; i < p.nline; i++ {
		for k := 1; k < len(p.lines[i].pts); k += 2 {
			p.lines[i].pts[k] += float32(dy)
		}
	}
}

// note writes s wrapped into at most maxLines lines at (x, y), at most
// x1 wide, on a band of its own, if it fits above limit; it returns the
// height used.
func (o *Overlay) note(name, s string, x, y, x1, limit, maxLines int) int {
	if s == "" || x1-x < 10*charW {
		return 0
	}
	lines := wrap(s, (x1-x-8)/charW, maxLines)
	h := len(lines)*lineH + 2
	if y+h > limit {
		return 0
	}
	text := strings.Join(lines, "\n")
	w := textW(text) + 8
	o.pic.bands = append(o.pic.bands, fill{float32(x), float32(y), float32(w), float32(h), colPanel})
	o.pic.boxes = append(o.pic.boxes, Box{R: image.Rect(x+4, y+1, x+4+textW(text), y+1+len(lines)*lineH), Text: text, Panel: name})
	return h + 2
}

// layoutFloats stacks the game's status, the overlay's status line and
// the message, each on its band, in the box from (x, y) to (x1, limit).
func (o *Overlay) layoutFloats(x, y, x1, limit int) {
	y += o.note("gamestatus", o.gameStatus, x, y, x1, limit, 6)
	y += o.note("status", o.status(), x, y, x1, limit, 2)
	o.note("message", o.message(), x, y, x1, limit, 4)
}

// message is the message band's text: a file's message says which key
// dismisses it.
func (o *Overlay) message() string {
	m := o.tr.message()
	if m != "" && o.tr.sticky {
		m += "  (" + keyName(o.opt.Dismiss) + " dismisses)"
	}
	return m
}

// status says what holds the overlay still: a frozen timeline, a
// baseline held.
func (o *Overlay) status() string {
	var s []string
	if o.frozen {
		s = append(s, "timeline FROZEN on step "+utoa(o.tl.step)+" ("+keyName(o.opt.Freeze)+" thaws)")
	}
	switch {
	case o.base.lanes > 0:
		s = append(s, "baseline: step "+utoa(o.base.step)+" ("+keyName(o.opt.Hold)+" lets go)")
	case o.cap != nil:
		s = append(s, "baseline: "+o.cap.name)
	}
	return strings.Join(s, "; ")
}

// layoutHint is what shows while the overlay is hidden: the line of its
// keys, and under it the game's status and the message, if any.
func (o *Overlay) layoutHint(sz image.Point) {
	y := o.note("hint", keyName(o.opt.Toggle)+" overlay  "+keyName(o.opt.Help)+" keys", 0, 0, sz.X, sz.Y, 1)
	y += o.note("gamestatus", o.gameStatus, 0, y, sz.X, sz.Y, 6)
	o.note("message", o.message(), 0, y, sz.X, sz.Y, 4)
}

// helpKeys are the overlay's keys and clicks, then the game's.
func (o *Overlay) helpKeys() []KeyHelp {
	k := []KeyHelp{
		{keyNames(o.opt.Toggle), "the overlay on / off"},
		{keyNames(o.opt.Freeze), "freeze the timeline on this step (hover its boxes)"},
		{keyNames(o.opt.Hold), "hold the shown step as the baseline: the systems table compares with it"},
		{keyNames(o.opt.Trace), "write a Chrome trace of the next 30 steps (ui.perfetto.dev)"},
		{keyNames(o.opt.Save), "write the last steps as a capture file, to compare with later"},
		{keyNames(o.opt.Dismiss), "take a file's message (trace, spike, capture) off the screen"},
		{keyName(o.opt.InspectNext) + ", " + keyName(o.opt.InspectPrev), "inspect the next / previous entity that a system's query matches"},
		{keyNames(o.opt.InspectQuery), "step through another system's query"},
		{"click a bar", "of the step graph: select that step; every panel shows it (freezes)"},
		{"click a row", "of the systems: show only its jobs and markers (again: all)"},
		{"wheel, drag", "over the timeline: zoom, pan (right click: the whole step)"},
		{keyNames(o.opt.Help), "this list"},
	}
	return append(k, o.opt.Keys...)
}

// layoutHelp is the list of keys in a box in the screen's middle, keys
// in one column and what they do wrapped in the other.
func (o *Overlay) layoutHelp(sz image.Point) {
	keys := o.helpKeys()
	kw := 0
	for _, k := range keys {
		kw = max(kw, chars(k.Keys))
	}
	w := min(sz.X-16, 640)
	kw = min(kw, (w/charW)/3)
	dw := (w-16)/charW - kw - 2
	var b strings.Builder
	b.WriteString("keys and clicks")
	n := 1
	for _, k := range keys {
		for i, line := range wrap(k.Does, dw, 0) {
			key := ""
			if i == 0 {
				key = ellipsis(k.Keys, kw)
			}
			b.WriteString("\n" + key + strings.Repeat(" ", kw+2-chars(key)) + line)
			n++
		}
	}
	text := b.String()
	if max := (sz.Y - 16) / lineH; n > max { // a tiny screen: the rest is cut
		text = strings.Join(strings.Split(text, "\n")[:max-1], "\n") + "\n..."
		n = max
	}
	h := n*lineH + 8
	x, y := (sz.X-w)/2, max((sz.Y-h)/2, 0)
	o.pic.bands = append(o.pic.bands, fill{float32(x), float32(y), float32(w), float32(h), colPanel})
	o.pic.boxes = append(o.pic.boxes, Box{R: image.Rect(x+8, y+4, x+8+textW(text), y+4+n*lineH), Text: text, Panel: "help"})
}

// tooltipAt places a tooltip of size (w, h) by the cursor (mx, my), inside
// scr and over none of avoid (the timeline's title, the line of keys):
// above the cursor, or else above the first of avoid it would cover, or
// else under the cursor; if none fits, where it covers the least.
func tooltipAt(mx, my, w, h int, scr image.Rectangle, avoid ...image.Rectangle) image.Rectangle {
	x := min(max(mx+12, scr.Min.X), scr.Max.X-w)
	above := image.Rect(x, my-h-8, x+w, my-8)
	tries := []image.Rectangle{above}
	for _, a := range avoid {
		if above.Overlaps(a) {
			tries = append(tries, image.Rect(x, a.Min.Y-h-4, x+w, a.Min.Y-4))
			break
		}
	}
	tries = append(tries, above.Add(image.Pt(0, h+24))) // under the cursor
	for _, r := range tries {
		if r.In(scr) && !overlapsAny(r, avoid) {
			return r
		}
	}
	r := tries[len(tries)-1]
	if r.Max.Y > scr.Max.Y {
		r = r.Add(image.Pt(0, scr.Max.Y-r.Max.Y))
	}
	return r
}

func overlapsAny(r image.Rectangle, rs []image.Rectangle) bool {
	for _, a := range rs {
		if r.Overlaps(a) {
			return true
		}
	}
	return false
}

// panelRect is where the panel named name was laid out (empty if not).
func (o *Overlay) panelRect(name string) image.Rectangle {
	for i := range o.panels {
		if o.panels[i].Name == name {
			return o.panels[i].r
		}
	}
	return image.Rectangle{}
}
