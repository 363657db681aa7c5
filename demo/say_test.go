package main

import (
	"bytes"
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/demo/internal/game"
	"github.com/weft-engine/weft/overlay"
)

// The first screen explains itself: P on the title screen says what it
// does instead, a recording shows REC and says why a rewind is off, and
// each mode's line of keys lists only what applies. Each message goes to
// the overlay's band and to the log, which the test reads.
func TestRefusedKeysSayWhy(t *testing.T) {
	g, err := game.New(game.Config{Entities: 300, Seed: 1, Title: true})
	require.NoError(t, err)
	t.Cleanup(func() { assert.NoError(t, g.Close()) })
	var log bytes.Buffer
	// The window as newWindow makes it, without its sprites: Ebiten makes
	// no image once another test's RunGame has finished in this process.
	w := &window{g: g, o: options{tracedir: t.TempDir()}, ctl: game.NewControls(g.Engine()), log: &log}
	require.NoError(t, g.KeepRewind())
	w.ov = overlay.New(g.Engine(), overlay.Options{Profiler: g.Profile(), Log: &log, Keys: gameKeys})

	require.NoError(t, g.Record(io.Discard)) // as -record does, before the first step
	w.o.record = "run.weft"

	require.Equal(t, game.Title, g.Mode())
	assert.Equal(t, hintTitle, w.hint())
	require.NoError(t, w.modeKeys(game.Actions{Pause: true}))
	assert.Contains(t, log.String(), "P pauses a game in play: on the title screen, Enter plays")
	assert.Equal(t, game.Title, g.Mode(), "P on the title screen changes nothing")

	require.NoError(t, w.modeKeys(game.Actions{Start: true}))
	assert.Equal(t, hintRecord, w.hint())
	assert.Contains(t, w.status(), "REC step ", "a recording shows its marker")
	w.timeKeys(game.Actions{Rewind: true})
	assert.Contains(t, log.String(), "rewind refused: ", "a rewind while recording says why")

	require.NoError(t, g.StopRecording())
	assert.Equal(t, hintPlay, w.hint())
	assert.Empty(t, w.status(), "no marker once the recording stops")
}
