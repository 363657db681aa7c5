package overlay

import (
	"image"
	"strings"

	"github.com/hajimehoshi/ebiten/v2"
)

// Box is one text the overlay draws: its rectangle on screen, its lines
// and the panel that drew it. A repaint is a list of boxes and shapes
// (a picture) before it is pixels, so that tests check where text goes
// (on the screen, over no other text) without a display.
type Box struct {
	R     image.Rectangle
	Text  string // lines, joined by '\n'
	Panel string
}

// fill is a rectangle of one colour.
type fill struct {
	x, y, w, h float32
	c          col
}

// polyline is a stroked line through points (x, y pairs).
type polyline struct {
	pts []float32
	c   col
}

// picture is one repaint's display list, in screen coordinates: the
// panels' bands first, then their fills, lines and texts. Its slices are
// reused between repaints.
type picture struct {
	bands []fill
	fills []fill
	lines []polyline
	nline int // lines in use: their point buffers are reused
	boxes []Box
}

func (p *picture) reset() {
	p.bands, p.fills, p.boxes, p.nline = p.bands[:0], p.fills[:0], p.boxes[:0], 0
}

// mark and cut take back what a panel added when it did not fit.
type mark struct{ fills, boxes, lines int }

func (p *picture) mark() mark { return mark{len(p.fills), len(p.boxes), p.nline} }
func (p *picture) cut(m mark) {
	p.fills, p.boxes, p.nline = p.fills[:m.fills], p.boxes[:m.boxes], m.lines
}

// Canvas is a panel's area at a repaint: its origin and width on the
// screen, and the height it may use. What a panel draws on it, in the
// panel's own coordinates, is recorded in the overlay's picture.
type Canvas struct {
	X, Y, W, H int // the area on screen; H is the most the panel may use
	panel      string
	pic        *picture
}

// Text writes s from (x, y) on one line, cut with "..." at the canvas's
// right edge, and returns the height it used.
func (c *Canvas) Text(x, y int, s string) int {
	if s == "" {
		return lineH
	}
	s = ellipsis(s, (c.W-x-2)/charW)
	c.box(x, y, s)
	return lineH
}

// Wrap writes s from (x, y) in lines as wide as the canvas from x, at
// most maxLines of them (0: as many as it takes), and returns the height
// it used.
func (c *Canvas) Wrap(x, y int, s string, maxLines int) int {
	lines := wrap(s, (c.W-x-2)/charW, maxLines)
	c.box(x, y, strings.Join(lines, "\n"))
	return len(lines) * lineH
}

func (c *Canvas) box(x, y int, s string) {
	x0, y0 := c.X+x, c.Y+y
	n := strings.Count(s, "\n") + 1
	c.pic.boxes = append(c.pic.boxes, Box{R: image.Rect(x0, y0, x0+textW(s), y0+n*lineH), Text: s, Panel: c.panel})
}

// rect fills the rectangle at (x, y), of size (w, h).
func (c *Canvas) rect(x, y, w, h float32, cl col) {
	c.pic.fills = append(c.pic.fills, fill{float32(c.X) + x, float32(c.Y) + y, w, h, cl})
}

// frame outlines the rectangle, t pixels thick, inside it.
func (c *Canvas) frame(x, y, w, h, t float32, cl col) {
	c.rect(x, y, w, t, cl)
	c.rect(x, y+h-t, w, t, cl)
	c.rect(x, y+t, t, h-2*t, cl)
	c.rect(x+w-t, y+t, t, h-2*t, cl)
}

// line starts a polyline and returns it for its points (x, y pairs, in
// the canvas's coordinates: add them with point).
func (c *Canvas) line(cl col) *polyline {
	p := c.pic
	if p.nline == len(p.lines) {
		p.lines = append(p.lines, polyline{})
	}
	l := &p.lines[p.nline]
	p.nline++
	l.pts, l.c = l.pts[:0], cl
	return l
}

func (c *Canvas) point(l *polyline, x, y float32) {
	l.pts = append(l.pts, float32(c.X)+x, float32(c.Y)+y)
}

// painter turns a picture into pixels. Executed only by Ebiten's game
// goroutine.
type painter struct {
	sh shapes
	gl glyphs
}

// paint draws pic onto dst: bands, fills, lines, then text; all shapes
// in few batched DrawTriangles calls.
func (pt *painter) paint(dst *ebiten.Image, pic *picture) {
	pt.sh.begin(dst)
	for _, f := range pic.bands {
		pt.sh.rect(f.x, f.y, f.w, f.h, f.c)
	}
	for _, f := range pic.fills {
		pt.sh.rect(f.x, f.y, f.w, f.h, f.c)
	}
	for i := range pic.lines[:pic.nline] {
		pt.steps(&pic.lines[i])
	}
	pt.sh.flush()
	pt.gl.begin(dst)
	for _, b := range pic.boxes {
		pt.gl.text(b.Text, b.R.Min.X, b.R.Min.Y)
	}
	pt.gl.flush()
}

// steps draws l as a pixel-wide line: from each point a vertical run to
// the next point's height, as wide as the gap to it. The graph's lines
// have a point per pixel column, where this is the stroke, and costs a
// rectangle a point (vector's stroking costs far more).
func (pt *painter) steps(l *polyline) {
	for i := 0; i+3 < len(l.pts); i += 2 {
		x0, y0, x1, y1 := l.pts[i], l.pts[i+1], l.pts[i+2], l.pts[i+3]
		pt.sh.rect(x0, min(y0, y1), max(x1-x0, 1), max(y1-y0, y0-y1, 1), l.c)
	}
}
