package main

import (
	"errors"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/ecs"
)

// run is the one game this process plays.
var run struct {
	once sync.Once
	g    *game
	img  image.Image // its last frame
	err  error
}

// TestBounce runs the game under Xvfb (Ebiten panics at init without a
// display; make test runs it under xvfb-run) for a few steps and checks
// its last frame: balls of every colour, and the overlay over the
// top-left with all its text on the screen.
func TestBounce(t *testing.T) {
	const steps = 60
	run.once.Do(func() { // Ebiten runs one game a process: with -count=N the later runs check this one again
		shot := filepath.Join(t.TempDir(), "bounce.png")
		if run.g, run.err = newGame(); run.err != nil {
			return
		}
		run.g.steps, run.g.shot = steps, shot
		if run.err = errors.Join(ebiten.RunGame(run.g), run.g.e.Close()); run.err != nil {
			return
		}
		f, err := os.Open(shot)
		if err != nil {
			run.err = err
			return
		}
		defer f.Close()
		run.img, run.err = png.Decode(f)
	})
	require.NoError(t, run.err)
	g, img := run.g, run.img
	assert.Equal(t, uint64(steps), g.e.Time().Step)
	require.Equal(t, image.Rect(0, 0, screenW, screenH), img.Bounds())
	seen := map[color.RGBA]int{}
	for y := 150; y < screenH-150; y++ {
		for x := 480; x < screenW; x++ {
			seen[color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)]++
		}
	}
	for _, c := range []color.RGBA{{0xff, 0x70, 0x50, 0xff}, {0x50, 0xc0, 0xff, 0xff}, {0x80, 0xe0, 0x60, 0xff}, {0xf0, 0xd0, 0x40, 0xff}} {
		assert.Greater(t, seen[c], 100, "balls of colour %v right of the overlay", c)
	}
	back := color.RGBA{0x18, 0x1c, 0x28, 0xff}
	differ := 0
	for y := range 60 {
		for x := range 400 {
			if color.RGBAModel.Convert(img.At(x, y)).(color.RGBA) != back {
				differ++
			}
		}
	}
	assert.Greater(t, differ, 400*60/2, "the overlay's top lines over the top-left")
	boxes := g.ov.Boxes()
	require.NotEmpty(t, boxes)
	for _, b := range boxes {
		assert.True(t, b.R.In(image.Rect(0, 0, screenW, screenH)), "%s's %q at %v leaves the screen", b.Panel, b.Text, b.R)
	}
}

// The balls keep moving: after 20 s of steps (without a window), most are
// above the bottom 120 pixels, where the overlay's timeline sits, or
// moving fast, and a click kicks the balls near it up.
func TestBallsKeepMoving(t *testing.T) {
	e, w, kick, err := newWorld() // no Ebiten: a game's Ebiten ends with its RunGame
	require.NoError(t, err)
	defer e.Close()
	for range 1200 {
		require.NoError(t, e.Tick())
	}
	ents, err := w.Entities()
	require.NoError(t, err)
	lively, n := 0, 0
	for en := range ents {
		b, err := ecs.Get[Ball](w, en)
		require.NoError(t, err)
		n++
		if b.Y < screenH-120 || math.Abs(b.VY) > 100 {
			lively++
		}
	}
	assert.Equal(t, balls, n)
	assert.Greater(t, lively, balls*3/4, "the balls still bounce: they do not lie on the floor")

	*kick = Kick{On: true, X: screenW / 2, Y: screenH - 3}
	require.NoError(t, e.Tick())
	*kick = Kick{}
	ents, err = w.Entities()
	require.NoError(t, err)
	kicked := 0
	for en := range ents {
		if b, _ := ecs.Get[Ball](w, en); b.VY < -400 {
			kicked++
		}
	}
	assert.Positive(t, kicked, "the click's balls jumped")
}
