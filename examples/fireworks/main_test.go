package main

import (
	"errors"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/overlay"
)

// A rocket rises, bursts at the top of its flight into a ring of sparks
// (the Burst event, from fuse to explode) and is gone; the sparks fall
// and fade out. No window: the world and its systems alone.
func TestRocketBursts(t *testing.T) {
	e, launch, err := newWorld()
	require.NoError(t, err)
	defer e.Close()
	w := e.World()
	rockets, sparks := ecs.NewComponent[Rocket](w), ecs.NewComponent[Spark](w)
	require.NoError(t, launch(screenW/2))
	require.Equal(t, 1, w.Count(rockets))
	steps := 0
	for w.Count(rockets) == 1 {
		require.NoError(t, e.Tick())
		require.Less(t, steps, 600, "the rocket bursts within 10 s")
		steps++
	}
	assert.Equal(t, ring, w.Count(sparks), "one ring of sparks")
	for range 3 * 60 {
		require.NoError(t, e.Tick())
	}
	assert.Zero(t, w.Count(sparks), "the sparks faded out within 3 s")
	assert.Zero(t, w.Count(), "nothing is left")
}

// run is the one game this process plays.
var run struct {
	once sync.Once
	g    *game
	img  image.Image // its last frame
	err  error
}

// TestFireworks runs the game under Xvfb (make test runs it under
// xvfb-run) for 240 steps and checks its last frame: sparks of the
// bursts' colours right of the overlay's left column, and the overlay's
// text on the screen.
func TestFireworks(t *testing.T) {
	const steps = 240
	run.once.Do(func() { // Ebiten runs one game a process
		shot := filepath.Join(t.TempDir(), "fireworks.png")
		e, launch, err := newWorld()
		if run.err = err; err != nil {
			return
		}
		run.g = &game{e: e, launch: launch, dot: ebiten.NewImage(3, 3), steps: steps, shot: shot}
		run.g.dot.Fill(color.White)
		run.g.ov = overlay.New(e, overlay.Options{})
		if run.err = errors.Join(ebiten.RunGame(run.g), e.Close()); run.err != nil {
			return
		}
		f, err := os.Open(shot)
		if run.err = err; err != nil {
			return
		}
		defer f.Close()
		run.img, run.err = png.Decode(f)
	})
	require.NoError(t, run.err)
	require.Equal(t, image.Rect(0, 0, screenW, screenH), run.img.Bounds())
	lit := 0
	for y := 40; y < screenH-120; y++ {
		for x := 440; x < screenW; x++ {
			if r, g, b, _ := run.img.At(x, y).RGBA(); max(r, g, b)>>8 > 0x60 {
				lit++
			}
		}
	}
	assert.Greater(t, lit, 100, "sparks and rockets right of the overlay")
	boxes := run.g.ov.Boxes()
	require.NotEmpty(t, boxes)
	for _, b := range boxes {
		assert.True(t, b.R.In(image.Rect(0, 0, screenW, screenH)), "%s's %q at %v leaves the screen", b.Panel, b.Text, b.R)
	}
}
