package game_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/demo/internal/game"
	"github.com/weft-engine/weft/engine"
)

// Every hotkey's effect on the controls, from a plain state.
func TestControlsPress(t *testing.T) {
	start := game.Controls{Workers: 2, Parallel: 2, Batch: 1024}
	for _, tc := range []struct {
		name string
		keys game.Keys
		want game.Controls
		act  game.Actions
	}{
		{"workers up", game.Keys{WorkersUp: true}, game.Controls{Workers: 3, Parallel: 3, Batch: 1024}, game.Actions{}},
		{"workers down", game.Keys{WorkersDown: true}, game.Controls{Workers: 1, Parallel: 1, Batch: 1024}, game.Actions{}},
		{"serial", game.Keys{Serial: true}, game.Controls{Workers: 0, Parallel: 2, Batch: 1024}, game.Actions{}},
		{"checks", game.Keys{Checks: true}, game.Controls{Workers: 2, Parallel: 2, Batch: 1024, Checks: true}, game.Actions{}},
		{"batch", game.Keys{Batch: true}, game.Controls{Workers: 2, Parallel: 2, Batch: 4096}, game.Actions{}},
		{"burst", game.Keys{Burst: true}, start, game.Actions{Burst: true}},
		{"rewind, save, load", game.Keys{Rewind: true, Save: true, Load: true}, start, game.Actions{Rewind: true, Save: true, Load: true}},
		{"fountain", game.Keys{Fountain: true}, start, game.Actions{Fountain: true}},
		{"pause", game.Keys{Pause: true}, game.Controls{Workers: 2, Parallel: 2, Batch: 1024, Paused: true}, game.Actions{Pause: true}},
		{"start", game.Keys{Start: true}, start, game.Actions{Start: true}},
		{"step while running does nothing", game.Keys{Step: true}, start, game.Actions{}},
		{"quit", game.Keys{Quit: true}, start, game.Actions{Quit: true}},
		{"no keys", game.Keys{}, start, game.Actions{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := start
			act := c.Press(tc.keys)
			assert.Equal(t, tc.want, c)
			assert.Equal(t, tc.act, act)
		})
	}
}

// Serial remembers the last parallel count, also one chosen while serial
// by the worker keys; the count stays in [0, MaxWorkers].
func TestControlsWorkers(t *testing.T) {
	c := game.Controls{Workers: 3, Parallel: 3}
	c.Press(game.Keys{Serial: true})
	assert.Equal(t, 0, c.Workers)
	c.Press(game.Keys{Serial: true})
	assert.Equal(t, 3, c.Workers)

	c.Press(game.Keys{Serial: true})
	c.Press(game.Keys{WorkersDown: true}) // stays serial
	assert.Equal(t, 0, c.Workers)
	c.Press(game.Keys{WorkersUp: true}) // leaves serial with one worker
	assert.Equal(t, 1, c.Workers)
	c.Press(game.Keys{Serial: true})
	c.Press(game.Keys{Serial: true})
	assert.Equal(t, 1, c.Workers)

	for range 2 * game.MaxWorkers {
		c.Press(game.Keys{WorkersUp: true})
	}
	assert.Equal(t, game.MaxWorkers, c.Workers)
}

func TestControlsPauseAndStep(t *testing.T) {
	var c game.Controls
	assert.True(t, c.Runs(c.Press(game.Keys{})))
	c.Press(game.Keys{Pause: true})
	assert.False(t, c.Runs(c.Press(game.Keys{})), "paused")
	assert.True(t, c.Runs(c.Press(game.Keys{Step: true})), "one step while paused")
	assert.False(t, c.Runs(c.Press(game.Keys{})), "still paused after the step")
	c.Press(game.Keys{Pause: true})
	assert.True(t, c.Runs(c.Press(game.Keys{})))
}

func TestNextBatch(t *testing.T) {
	for b, want := range map[int]int{0: 64, 64: 256, 256: 1024, 1024: 4096, 4096: 0, 1: 64, 100: 256, 5000: 0} {
		assert.Equal(t, want, game.NextBatch(b), "after %d", b)
	}
}

// Apply hands the settings to the engine, which uses them from the next step.
func TestControlsApply(t *testing.T) {
	g := newGame(t, game.Config{Entities: 500, Workers: 1, Batch: 256})
	e := g.Engine()
	c := game.NewControls(e)
	assert.Equal(t, game.Controls{Workers: 1, Parallel: 1, Batch: 256}, c)

	c.Press(game.Keys{Serial: true, Batch: true, Checks: true})
	require.NoError(t, c.Apply(e))
	assert.Equal(t, 0, e.Workers())
	assert.Equal(t, 1024, e.Batch())
	assert.True(t, e.Checks())
	require.NoError(t, g.Tick())
	assert.Len(t, g.Profile().Last().Workers, 1, "the serial step has the owner alone")

	c.Press(game.Keys{WorkersUp: true, WorkersDown: true, Serial: true}) // up to 1, down to 0, back to parallel 1
	c.Press(game.Keys{WorkersUp: true})
	require.NoError(t, c.Apply(e))
	require.NoError(t, g.Tick())
	assert.Len(t, g.Profile().Last().Workers, 3, "the owner and two workers")

	serial := game.NewControls(newEngineSerial(t))
	assert.Equal(t, 1, serial.Parallel, "a serial start switches to one worker")
	assert.Equal(t, 0, serial.Batch, "the demo starts with the adaptive batch")
}

// The Batch key cycles through adaptive too: 4096, then adaptive, then 64.
func TestControlsBatchAdaptive(t *testing.T) {
	e := newGame(t, game.Config{Entities: 500, Workers: 1, Batch: 4096}).Engine()
	c := game.NewControls(e)
	c.Press(game.Keys{Batch: true})
	require.NoError(t, c.Apply(e))
	assert.True(t, e.AdaptiveBatch(), "after 4096 comes adaptive")
	c.Press(game.Keys{Batch: true})
	require.NoError(t, c.Apply(e))
	assert.False(t, e.AdaptiveBatch())
	assert.Equal(t, 64, e.Batch(), "after adaptive comes 64")
}

func newEngineSerial(t *testing.T) *engine.Engine {
	return newGame(t, game.Config{Entities: 10, Workers: 0}).Engine()
}

// Pointer: a press and release in place is a click; moving while held
// drags; a press over the overlay does neither.
func TestPointer(t *testing.T) {
	var p game.Pointer
	frame := func(x, y float64, held, blocked bool) game.Input {
		var in game.Input
		p.Update(x, y, held, blocked, &in)
		return in
	}
	assert.Equal(t, game.Input{MouseX: 10, MouseY: 10}, frame(10, 10, false, false))
	assert.Equal(t, game.Input{MouseX: 10, MouseY: 10}, frame(10, 10, true, false), "press")
	assert.Equal(t, game.Input{MouseX: 12, MouseY: 11, DragX: 2, DragY: 1}, frame(12, 11, true, false), "small move")
	assert.Equal(t, game.Input{MouseX: 12, MouseY: 11, Click: true}, frame(12, 11, false, false), "release: a click")

	frame(100, 100, true, false)
	assert.Equal(t, game.Input{MouseX: 130, MouseY: 90, DragX: 30, DragY: -10}, frame(130, 90, true, false), "drag")
	assert.Equal(t, game.Input{MouseX: 130, MouseY: 90}, frame(130, 90, false, false), "release after a drag: no click")

	frame(5, 5, true, true)
	assert.Equal(t, game.Input{MouseX: 50, MouseY: 5}, frame(50, 5, true, false), "a press over the overlay does not drag")
	assert.Equal(t, game.Input{MouseX: 50, MouseY: 5}, frame(50, 5, false, false), "nor click")

	// The camera follows: a drag to the right moves the view left.
	g := newGame(t, game.Config{Entities: 10, Workers: 0})
	cam := g.Engine().Camera()
	x0 := cam.X
	g.HandleInput(game.Input{DragX: 40})
	assert.InDelta(t, x0-40/cam.Zoom, cam.X, 1e-9)
}
