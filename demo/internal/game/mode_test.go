package game_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/demo/internal/game"
	"github.com/weft-engine/weft/replay"
)

// playModes starts a game on the title screen, starts it, pauses, steps
// once while paused and resumes; it returns the hashes after each phase
// and the game.
func playModes(t *testing.T, cfg game.Config) ([]uint64, *game.Game) {
	cfg.Entities, cfg.Seed, cfg.Title = 800, 5, true
	g := newGame(t, cfg)
	var hashes []uint64
	mark := func() {
		h, err := g.Hash()
		require.NoError(t, err)
		hashes = append(hashes, h)
	}
	require.NoError(t, g.Tick())
	assert.Equal(t, game.Title, g.Mode())
	assert.Equal(t, 800, g.Len(), "the world is alive behind the title screen")
	before := mustHash(t, g)
	g.SpawnBurst(g.Width/2, g.Height/2, 30) // scoped to the title screen
	require.NoError(t, g.Tick())
	assert.Equal(t, 830, g.Len())
	assert.NotEqual(t, before, mustHash(t, g), "it moves")
	require.NoError(t, g.TogglePause(), "no pause on the title screen")
	require.NoError(t, g.Start())
	require.NoError(t, g.Start(), "a second request waits for the first")
	require.NoError(t, g.Tick())
	assert.Equal(t, game.Playing, g.Mode())
	assert.Equal(t, 800+game.KickoffBodies, g.Len(), "leaving the title despawned its bursts and set off the kickoff")
	for range 10 {
		require.NoError(t, g.Tick())
	}
	mark()
	require.NoError(t, g.TogglePause())
	for range 5 {
		require.NoError(t, g.Tick())
		assert.Equal(t, game.Paused, g.Mode())
	}
	mark()
	assert.Equal(t, hashes[0], hashes[1], "a paused game stands still")
	assert.True(t, g.Profile().Last().System("physics").Skipped)
	require.NoError(t, g.StepPaused())
	assert.Equal(t, game.Playing, g.Mode(), "one step of play")
	mark()
	assert.NotEqual(t, hashes[1], hashes[2])
	require.NoError(t, g.Tick())
	assert.Equal(t, game.Paused, g.Mode(), "and paused again")
	mark()
	assert.Equal(t, hashes[2], hashes[3])
	require.NoError(t, g.TogglePause())
	for range 5 {
		require.NoError(t, g.Tick())
	}
	mark()
	return hashes, g
}

func mustHash(t *testing.T, g *game.Game) uint64 {
	h, err := g.Hash()
	require.NoError(t, err)
	return h
}

// The title and pause modes give the same world for every worker count
// and batch (0: adaptive) as the serial executor.
func TestModes(t *testing.T) {
	want, _ := playModes(t, game.Config{Workers: 0, Batch: 64})
	for _, w := range []int{1, 2, 4} {
		for _, b := range []int{1, 64, 0} {
			if raceOn && b == 1 {
				continue
			}
			t.Run(fmt.Sprintf("W%d/batch%d", w, b), func(t *testing.T) {
				got, _ := playModes(t, game.Config{Workers: w, Batch: b})
				assert.Equal(t, want, got)
			})
		}
	}
}

// A recording keeps the title screen and the mode requests: it replays
// step for step.
func TestModesReplay(t *testing.T) {
	var buf bytes.Buffer
	g := newGame(t, game.Config{Entities: 600, Workers: 1, Seed: 3, Title: true})
	require.NoError(t, g.Record(&buf))
	for i := range 40 {
		switch i {
		case 1:
			g.SpawnBurst(g.Width/2, g.Height/2, 20)
		case 3:
			require.NoError(t, g.Start())
		case 15, 25:
			require.NoError(t, g.TogglePause())
		}
		if i == 20 {
			require.NoError(t, g.StepPaused())
			continue
		}
		require.NoError(t, g.Tick())
	}
	require.NoError(t, g.StopRecording())
	want, err := g.Digest()
	require.NoError(t, err)
	rec, err := replay.Read(bytes.NewReader(buf.Bytes()))
	require.NoError(t, err)
	got, r := replayed(t, rec, game.Config{Workers: 2})
	assert.Equal(t, want, got)
	assert.Equal(t, game.Playing, r.Mode())
}
