package overlay

import (
	"errors"
	"fmt"
	"image"
	"image/png"
	"os"

	"github.com/hajimehoshi/ebiten/v2"
)

// SaveScreen writes screen as a PNG file at path: a game's -screenshot,
// taken in Draw after the overlay drew (call Refresh first, so that the
// numbers drawn are the step's own). Executed only in Draw, on the
// goroutine Ebiten draws on: ReadPixels needs it.
func SaveScreen(screen *ebiten.Image, path string) error {
	img := image.NewRGBA(screen.Bounds())
	screen.ReadPixels(img.Pix)
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("screenshot: %w", err)
	}
	if err := errors.Join(png.Encode(f, img), f.Close()); err != nil {
		return fmt.Errorf("screenshot %s: %w", path, err)
	}
	return nil
}
