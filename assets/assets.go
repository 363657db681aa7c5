// Package assets embeds the demo's sprite atlas, drawn by ./gen (go generate ./assets).
//
// It imports no Ebiten, so that it builds and tests anywhere; the demo
// turns the atlas into an Ebiten image.
package assets

//go:generate go run ./gen -o .

import (
	"bytes"
	_ "embed"
	"image"
	"image/png"

	"github.com/weft-engine/weft/assets/internal/sheets"
)

// The atlas' geometry: Sheets rows (one per sprite sheet, in the order of
// engine.Item.Sheet) of Frames square frames of FrameSize pixels.
const (
	FrameSize = sheets.Size
	Sheets    = sheets.Sheets
	Frames    = sheets.Frames
)

//go:embed sprites.png
var spritesPNG []byte

// PNG is the atlas as PNG bytes. Do not modify them.
func PNG() []byte { return spritesPNG }

// Atlas decodes the atlas. Each call decodes anew: call it once.
func Atlas() (image.Image, error) {
	return png.Decode(bytes.NewReader(spritesPNG))
}

// Index is the position of frame f of sheet s in sheet-major order;
// out-of-range values wrap, so that any engine.Item draws something.
func Index(s, f int) int {
	return (s%Sheets+Sheets)%Sheets*Frames + (f%Frames+Frames)%Frames
}

// Frame is the rectangle of frame f of sheet s in the atlas, wrapped as
// by Index.
func Frame(s, f int) image.Rectangle {
	i := Index(s, f)
	x, y := i%Frames*FrameSize, i/Frames*FrameSize
	return image.Rect(x, y, x+FrameSize, y+FrameSize)
}
