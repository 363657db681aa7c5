package assets

import (
	"bytes"
	"image"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/assets/internal/sheets"
)

// TestGenerated checks that the committed atlas is the generator's output.
func TestGenerated(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, sheets.Write(dir))
	want, err := os.ReadFile(filepath.Join(dir, sheets.File))
	require.NoError(t, err)
	if !bytes.Equal(want, PNG()) {
		t.Fatalf("assets/%s differs from the generator's output (%d bytes, want %d): run go generate ./assets", sheets.File, len(PNG()), len(want))
	}
}

func TestAtlas(t *testing.T) {
	img, err := Atlas()
	require.NoError(t, err)
	assert.Equal(t, image.Rect(0, 0, Frames*FrameSize, Sheets*FrameSize), img.Bounds())
	// Every frame draws something, and differs from its neighbour: the
	// sheets animate.
	for s := range Sheets {
		for f := range Frames {
			r := Frame(s, f)
			opaque := 0
			for y := r.Min.Y; y < r.Max.Y; y++ {
				for x := r.Min.X; x < r.Max.X; x++ {
					if _, _, _, a := img.At(x, y).RGBA(); a > 0x8000 {
						opaque++
					}
				}
			}
			assert.Greater(t, opaque, FrameSize*FrameSize/8, "sheet %d frame %d is nearly empty", s, f)
			assert.False(t, sameFrame(img, r, Frame(s, f+1)), "sheet %d frames %d and %d are equal", s, f, f+1)
		}
	}
}

func sameFrame(img image.Image, a, b image.Rectangle) bool {
	for y := range FrameSize {
		for x := range FrameSize {
			if img.At(a.Min.X+x, a.Min.Y+y) != img.At(b.Min.X+x, b.Min.Y+y) {
				return false
			}
		}
	}
	return true
}

func TestFrameWraps(t *testing.T) {
	assert.Equal(t, image.Rect(FrameSize, 2*FrameSize, 2*FrameSize, 3*FrameSize), Frame(2, 1))
	assert.Equal(t, Frame(0, 0), Frame(Sheets, Frames))
	assert.Equal(t, Frame(Sheets-1, Frames-1), Frame(-1, -1))
	assert.Equal(t, 2*Frames+1, Index(2, 1))
	assert.Equal(t, Sheets*Frames-1, Index(-1, -1))
}
