package main

import (
	"image/color"
	"math"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"

	"github.com/weft-engine/weft/assets"
	"github.com/weft-engine/weft/engine"
)

// frameMargin is how much larger than its body a sprite's frame is drawn:
// the creatures do not fill their frames to the edge.
const frameMargin = 1.2

// maxQuads is the most sprites one DrawTriangles call takes: its indices
// are uint16.
const maxQuads = (1 << 16) / 4

// sprites draws a render snapshot from the atlas: a few DrawTriangles
// calls over one source image, so Ebiten batches them, and buffers reused
// between frames. Executed only by Ebiten's game goroutine.
type sprites struct {
	atlas  *ebiten.Image
	frames [assets.Sheets * assets.Frames][4]float32 // source rectangles by assets.Index: minX, minY, maxX, maxY
	vs     []ebiten.Vertex
	is     []uint16
	op     ebiten.DrawTrianglesOptions
	calls  int // draw calls of the last draw (fill, backdrop, sprite batches)
	drawn  int // sprites of the last draw
}

func newSprites() (*sprites, error) {
	img, err := assets.Atlas()
	if err != nil {
		return nil, err
	}
	s := &sprites{atlas: ebiten.NewImageFromImage(img)}
	s.op.Filter = ebiten.FilterLinear
	for i := range s.frames {
		r := assets.Frame(i/assets.Frames, i%assets.Frames)
		// Half a texel in, so that linear filtering never reads the neighbour.
		s.frames[i] = [4]float32{float32(r.Min.X) + 0.5, float32(r.Min.Y) + 0.5, float32(r.Max.X) - 0.5, float32(r.Max.Y) - 0.5}
	}
	// The index pattern is the same for every batch.
	for q := range maxQuads {
		b := uint16(4 * q)
		s.is = append(s.is, b, b+1, b+2, b+1, b+3, b+2)
	}
	return s, nil
}

// The screen's colours: outside and inside the world. Interface values,
// made once: each conversion would allocate.
var (
	colVoid  color.Color = color.NRGBA{0x10, 0x12, 0x1a, 0xff}
	colWorld color.Color = color.NRGBA{0x1e, 0x24, 0x36, 0xff}
	colEdge  color.Color = color.NRGBA{0x4a, 0x55, 0x7a, 0xff}
)

// draw fills the screen: the world's backdrop, then snap's items in their
// order, placed with cam: the live camera. While running it is the one
// the snapshot was culled for; while paused it lets the player pan and zoom
// over the still scene (what the cull dropped stays out).
// Software GL (Mesa under Xvfb) pays for every pixel drawn, so the
// backdrop is one clear and the margins outside the world.
func (s *sprites) draw(screen *ebiten.Image, snap *engine.Snapshot, cam engine.Camera, worldW, worldH float64) {
	screen.Fill(colWorld)
	s.calls, s.drawn = 1, 0
	if cam.Zoom <= 0 || snap.Step == 0 {
		return // no step yet
	}
	minX, minY, _, _ := cam.Rect()
	z := cam.Zoom
	toScreen := func(x, y float64) (float32, float32) { return float32((x - minX) * z), float32((y - minY) * z) }
	x0, y0 := toScreen(0, 0)
	x1, y1 := toScreen(worldW, worldH)
	sw, sh := float32(screen.Bounds().Dx()), float32(screen.Bounds().Dy())
	vector.StrokeRect(screen, x0-1, y0-1, x1-x0+2, y1-y0+2, 2, colEdge, false)
	vector.FillRect(screen, 0, 0, sw, max(y0-2, 0), colVoid, false)                // above
	vector.FillRect(screen, 0, min(y1+2, sh), sw, max(sh-y1-2, 0), colVoid, false) // below
	vector.FillRect(screen, 0, 0, max(x0-2, 0), sh, colVoid, false)                // left
	vector.FillRect(screen, min(x1+2, sw), 0, max(sw-x1-2, 0), sh, colVoid, false) // right
	s.calls++
	s.drawn = len(snap.Items)

	s.vs = s.vs[:0]
	for i := range snap.Items {
		it := &snap.Items[i]
		f := &s.frames[assets.Index(int(it.Sheet), int(it.Frame))]
		cx, cy := toScreen(it.X, it.Y)
		r := float32(it.Extent * frameMargin * it.Scale * z)
		sin, cos := math.Sincos(it.Rotation)
		ux, uy := r*float32(cos), r*float32(sin) // the sprite's x axis
		vx, vy := -uy, ux                        // and y axis
		c := it.Color
		for k, corner := range [4][2]float32{{-1, -1}, {1, -1}, {-1, 1}, {1, 1}} {
			s.vs = append(s.vs, ebiten.Vertex{
				DstX: cx + corner[0]*ux + corner[1]*vx, DstY: cy + corner[0]*uy + corner[1]*vy,
				SrcX: f[k%2*2], SrcY: f[1+k/2*2],
				ColorR: c.R, ColorG: c.G, ColorB: c.B, ColorA: c.A,
			})
		}
		if len(s.vs) == 4*maxQuads {
			s.flush(screen)
		}
	}
	s.flush(screen)
}

func (s *sprites) flush(screen *ebiten.Image) {
	if len(s.vs) == 0 {
		return
	}
	screen.DrawTriangles(s.vs, s.is[:len(s.vs)/4*6], s.atlas, &s.op)
	s.vs = s.vs[:0]
	s.calls++
}
