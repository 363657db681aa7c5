package main

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/png"
	"os"

	"github.com/hajimehoshi/ebiten/v2"
)

// saveShot writes the screen as PNG to path, once; a failure is told.
func saveShot(screen *ebiten.Image, path string) (done string) {
	img := image.NewRGBA(screen.Bounds())
	screen.ReadPixels(img.Pix)
	var b bytes.Buffer
	if err := errors.Join(png.Encode(&b, img), os.WriteFile(path, b.Bytes(), 0o644)); err != nil {
		fmt.Fprintln(os.Stderr, "bounce:", err)
	}
	return ""
}
