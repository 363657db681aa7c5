// Package sheets draws the demo's sprite atlas procedurally, with the standard library only.
//
// It is the generator's code, kept apart from package assets so that the
// generator builds even when the embedded PNG is missing or stale.
package sheets

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
)

// The atlas' geometry: Sheets rows of Frames square frames of Size pixels.
const (
	Size   = 32
	Sheets = 3
	Frames = 8
	File   = "sprites.png" // the atlas' file name
)

// The sheets, by row.
const (
	Slime = iota // a hopping blob: squash and stretch
	Bird         // a round bird flapping its wings
	Spark        // a spinning, pulsing star with a halo
)

// rgba is a straight-alpha colour with channels in [0, 1].
type rgba struct{ r, g, b, a float64 }

// shade gives the colour of a sprite at (x, y) in [-1, 1]² (y down) at
// phase t in [0, 1); alpha 0 outside every shape.
type shade func(x, y, t float64) rgba

// supersampling per axis: 4×4 samples a pixel, for smooth edges.
const ss = 4

// Atlas draws every frame of every sheet into one image: frame f of sheet
// s at (f·Size, s·Size).
func Atlas() *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, Frames*Size, Sheets*Size))
	for s, fn := range [Sheets]shade{Slime: slime, Bird: bird, Spark: spark} {
		for f := range Frames {
			drawFrame(img, f*Size, s*Size, fn, float64(f)/Frames)
		}
	}
	return img
}

// drawFrame fills the Size×Size frame at (x0, y0), averaging premultiplied
// samples.
func drawFrame(img *image.NRGBA, x0, y0 int, fn shade, t float64) {
	for py := range Size {
		for px := range Size {
			var r, g, b, a float64
			for sy := range ss {
				for sx := range ss {
					x := (float64(px)+(float64(sx)+0.5)/ss)/Size*2 - 1
					y := (float64(py)+(float64(sy)+0.5)/ss)/Size*2 - 1
					c := fn(x, y, t)
					r, g, b, a = r+c.r*c.a, g+c.g*c.a, b+c.b*c.a, a+c.a
				}
			}
			if a == 0 {
				continue
			}
			img.SetNRGBA(x0+px, y0+py, color.NRGBA{R: u8(r / a), G: u8(g / a), B: u8(b / a), A: u8(a / (ss * ss))})
		}
	}
}

func u8(v float64) uint8 { return uint8(math.Round(min(max(v, 0), 1) * 255)) }

// over composites top over bottom (straight alpha).
func over(top, bottom rgba) rgba {
	a := top.a + bottom.a*(1-top.a)
	if a == 0 {
		return rgba{}
	}
	mix := func(t, b float64) float64 { return (t*top.a + b*bottom.a*(1-top.a)) / a }
	return rgba{mix(top.r, bottom.r), mix(top.g, bottom.g), mix(top.b, bottom.b), a}
}

// ellipse reports whether (x, y) is inside the ellipse at (cx, cy) with
// radii (rx, ry) rotated by rot radians.
func ellipse(x, y, cx, cy, rx, ry, rot float64) bool {
	s, c := math.Sincos(-rot)
	dx, dy := x-cx, y-cy
	dx, dy = dx*c-dy*s, dx*s+dy*c
	return dx*dx/(rx*rx)+dy*dy/(ry*ry) <= 1
}

// eye is a white eye with a pupil looking towards (lx, ly).
func eye(x, y, cx, cy, r, lx, ly float64) rgba {
	if ellipse(x, y, cx+lx*r*0.45, cy+ly*r*0.45, r*0.5, r*0.5, 0) {
		return rgba{0.08, 0.06, 0.12, 1}
	}
	if ellipse(x, y, cx, cy, r, r, 0) {
		return rgba{1, 1, 1, 1}
	}
	return rgba{}
}

// slime hops: it squashes as it lands and stretches as it rises.
func slime(x, y, t float64) rgba {
	w := math.Sin(2 * math.Pi * t)
	rx, ry := 0.78*(1+0.16*w), 0.62*(1-0.16*w)
	cy := 0.92 - ry // the bottom stays on the ground
	var c rgba
	if ellipse(x, y, 0, cy, rx, ry, 0) {
		k := (y - (cy - ry)) / (2 * ry) // 0 at the top, 1 at the bottom
		c = rgba{0.25 + 0.25*(1-k), 0.80 - 0.25*k, 0.45 - 0.1*k, 1}
		if ellipse(x, y, -0.6*rx, cy-0.35*ry, 0.14*rx, 0.1*ry, -0.9) {
			c = rgba{0.85, 1, 0.9, 1} // the shine
		}
	}
	look := math.Cos(2 * math.Pi * t)
	for _, ex := range [2]float64{-0.28, 0.28} {
		c = over(eye(x, y, ex*rx/0.78, cy-0.1, 0.17, look, 0.3), c)
	}
	// A dark outline, one sample ring wide, makes it read on any background.
	if c.a == 0 && ellipse(x, y, 0, cy, rx+0.07, ry+0.07, 0) {
		c = rgba{0.05, 0.2, 0.1, 1}
	}
	return c
}

// bird flaps: its wings swing about the shoulders.
func bird(x, y, t float64) rgba {
	flap := math.Sin(2*math.Pi*t) * 0.9
	var c rgba
	for _, side := range [2]float64{-1, 1} {
		rot := side * (0.3 + flap)
		s, co := math.Sincos(rot)
		cx, cy := side*0.4+side*0.2*co, -0.05+0.2*s*side
		if ellipse(x, y, cx, cy, 0.36, 0.18, rot) {
			c = rgba{0.95, 0.55, 0.2, 1}
		}
	}
	if ellipse(x, y, 0, 0.1, 0.5, 0.5, 0) {
		k := (y + 0.4) / 1.0
		c = rgba{1, 0.35 + 0.2*(1-k), 0.25, 1}
		if ellipse(x, y, 0, 0.32, 0.3, 0.22, 0) {
			c = rgba{1, 0.85, 0.6, 1} // the belly
		}
	}
	if y > 0.02 && y < 0.2 && math.Abs(x) < 0.14-(y-0.02)*0.75 {
		c = rgba{1, 0.85, 0.1, 1} // the beak
	}
	for _, ex := range [2]float64{-0.2, 0.2} {
		c = over(eye(x, y, ex, -0.12, 0.13, 0, -0.2*flap), c)
	}
	return c
}

// spark spins and pulses inside a soft halo.
func spark(x, y, t float64) rgba {
	r := math.Hypot(x, y)
	a := math.Atan2(y, x) + 2*math.Pi*t/5 // a fifth of a turn a loop
	pulse := 1 + 0.15*math.Sin(2*math.Pi*t)
	// A five-pointed star: the radius swings between points and notches.
	k := math.Abs(math.Mod(a*5/(2*math.Pi)+100, 1)-0.5) * 2 // 1 at a point, 0 at a notch
	edge := (0.32 + 0.5*k*k) * pulse
	halo := rgba{0.7, 0.4, 1, 0.55 * max(0, 1-r/0.98) * (0.8 + 0.2*math.Sin(2*math.Pi*t))}
	if r > edge {
		return halo
	}
	w := 1 - r/edge
	return over(rgba{1, 0.85 + 0.15*w, 0.25 + 0.75*w*w, 1}, halo)
}

// Encode writes the atlas as PNG.
func Encode() ([]byte, error) {
	var b bytes.Buffer
	if err := png.Encode(&b, Atlas()); err != nil {
		return nil, fmt.Errorf("sheets: encoding the atlas: %w", err)
	}
	return b.Bytes(), nil
}

// Write writes the atlas to dir/File.
func Write(dir string) error {
	b, err := Encode()
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, File), b, 0o644); err != nil {
		return fmt.Errorf("sheets: %w", err)
	}
	return nil
}
