package overlay

import (
	"image"
	"image/color"

	"github.com/hajimehoshi/ebiten/v2"
)

// col is a straight-alpha colour with channels in [0, 1], as Ebiten's
// vertices take it.
type col struct{ r, g, b, a float32 }

func rgba(r, g, b, a uint8) col {
	return col{float32(r) / 255, float32(g) / 255, float32(b) / 255, float32(a) / 255}
}

// scaled is c with its colour channels times k, for dimmed boxes.
func (c col) scaled(k float32) col { return col{c.r * k, c.g * k, c.b * k, c.a} }

// alpha is c with opacity a.
func (c col) alpha(a float32) col { return col{c.r, c.g, c.b, a} }

// white is a white texel, the source of untextured shapes.
var white = func() *ebiten.Image {
	img := ebiten.NewImage(3, 3)
	img.Fill(color.White)
	return img.SubImage(image.Rect(1, 1, 2, 2)).(*ebiten.Image)
}()

// shapes batches axis-aligned rectangles into few DrawTriangles calls,
// its buffers reused between frames: the overlay draws hundreds of boxes a
// frame, and vector.DrawFilledRect would build a path and a call for each.
// Executed only by Ebiten's game goroutine.
type shapes struct {
	dst *ebiten.Image
	vs  []ebiten.Vertex
	is  []uint16
}

// begin starts a batch drawn onto dst.
func (s *shapes) begin(dst *ebiten.Image) { s.dst = dst }

// rect adds the rectangle at (x, y) of size (w, h).
func (s *shapes) rect(x, y, w, h float32, c col) {
	if len(s.vs)+4 > 1<<16 { // the indices are uint16
		s.flush()
	}
	b := uint16(len(s.vs))
	for k := range 4 {
		s.vs = append(s.vs, ebiten.Vertex{DstX: x + float32(k%2)*w, DstY: y + float32(k/2)*h, SrcX: 1, SrcY: 1,
			ColorR: c.r, ColorG: c.g, ColorB: c.b, ColorA: c.a})
	}
	s.is = append(s.is, b, b+1, b+2, b+1, b+3, b+2)
}

// frame adds the outline of the rectangle, t pixels thick, inside it.
func (s *shapes) frame(x, y, w, h, t float32, c col) {
	s.rect(x, y, w, t, c)
	s.rect(x, y+h-t, w, t, c)
	s.rect(x, y+t, t, h-2*t, c)
	s.rect(x+w-t, y+t, t, h-2*t, c)
}

// flush draws the batch so far and empties it.
func (s *shapes) flush() {
	if len(s.vs) > 0 {
		s.dst.DrawTriangles(s.vs, s.is, white, nil)
	}
	s.vs, s.is = s.vs[:0], s.is[:0]
}
