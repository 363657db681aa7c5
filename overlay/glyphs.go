package overlay

import (
	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/ebitenutil"
)

// glyphs draws text in Ebiten's debug font as batched quads from one
// atlas of its characters: a repaint's hundreds of lines in a few
// DrawTriangles calls, where ebitenutil.DebugPrintAt issues a draw (and
// makes a sub-image) per character. Executed only by Ebiten's game
// goroutine.
type glyphs struct {
	atlas *ebiten.Image // the font's characters 0 to 255, 16 a row
	dst   *ebiten.Image
	vs    []ebiten.Vertex
	is    []uint16
}

// glyphCols is the atlas's characters a row.
const glyphCols = 16

// init paints the atlas once, with the debug font itself.
func (g *glyphs) init() {
	if g.atlas != nil {
		return
	}
	g.atlas = ebiten.NewImage(glyphCols*charW, 256/glyphCols*lineH)
	for c := 0x20; c < 0x100; c++ {
		if c >= 0x7f && c < 0xa0 {
			continue // control characters: no glyph
		}
		// DebugPrintAt draws a pixel right of x.
		ebitenutil.DebugPrintAt(g.atlas, string(rune(c)), c%glyphCols*charW-1, c/glyphCols*lineH)
	}
}

// text adds s at (x, y), as DebugPrintAt would place it; '\n' starts a
// new line; a character past Latin-1 is a blank.
func (g *glyphs) text(s string, x, y int) {
	cx, cy := float32(x+1), float32(y)
	for _, c := range s {
		if c == '\n' {
			cx, cy = float32(x+1), cy+lineH
			continue
		}
		if c > 0x20 && c < 0x100 {
			g.quad(cx, cy, float32(int(c)%glyphCols*charW), float32(int(c)/glyphCols*lineH))
		}
		cx += charW
	}
}

// quad adds one character cell: at (x, y) on the screen, from (sx, sy)
// in the atlas.
func (g *glyphs) quad(x, y, sx, sy float32) {
	if len(g.vs)+4 > 1<<16 { // the indices are uint16
		g.flush()
	}
	b := uint16(len(g.vs))
	for k := range 4 {
		dx, dy := float32(k%2*charW), float32(k/2*lineH)
		g.vs = append(g.vs, ebiten.Vertex{DstX: x + dx, DstY: y + dy, SrcX: sx + dx, SrcY: sy + dy, ColorR: 1, ColorG: 1, ColorB: 1, ColorA: 1})
	}
	g.is = append(g.is, b, b+1, b+2, b+1, b+3, b+2)
}

// begin starts a batch drawn onto dst.
func (g *glyphs) begin(dst *ebiten.Image) {
	g.init()
	g.dst = dst
}

// flush draws the batch so far and empties it.
func (g *glyphs) flush() {
	if len(g.vs) > 0 {
		g.dst.DrawTriangles(g.vs, g.is, g.atlas, nil)
	}
	g.vs, g.is = g.vs[:0], g.is[:0]
}
