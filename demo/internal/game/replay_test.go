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

// record runs the demo's scene for steps steps at 1 worker, recording it:
// bursts at a moving cursor, the fountain switched off and on, the camera
// panned and zoomed, seekers chasing; it returns the file and each
// step's world hash.
func record(t *testing.T, steps int) ([]byte, []uint64) {
	var buf bytes.Buffer
	g := newGame(t, game.Config{Entities: 1500, Workers: 1, Seed: 11})
	require.NoError(t, g.Record(&buf))
	var hashes []uint64
	for i := range steps {
		in := game.Input{MouseX: float64(100 + i%900), MouseY: 300, Right: i%90 < 30, Wheel: float64(i%50/49) * 0.5}
		in.Click = i%45 == 7
		g.HandleInput(in)
		if i%200 == 150 {
			g.SetFountain(!g.FountainOn())
		}
		require.NoError(t, g.Tick())
		h, err := g.Digest()
		require.NoError(t, err)
		hashes = append(hashes, h)
	}
	require.NoError(t, g.StopRecording())
	return buf.Bytes(), hashes
}

// A recording made at 1 worker replays step for step, every step's world
// hash and every system's digest equal, on the serial executor and 1, 2
// and 4 workers, at batches of 64, 1024 and adaptive. Under the race
// detector two configurations play 60 steps.
func TestReplayDeterminism(t *testing.T) {
	steps := 600
	cfgs := []game.Config{}
	for _, w := range []int{0, 1, 2, 4} {
		for _, b := range []int{64, 1024, 0} {
			cfgs = append(cfgs, game.Config{Workers: w, Batch: b})
		}
	}
	if raceOn {
		steps, cfgs = 60, []game.Config{{Workers: 2, Batch: 64}, {Workers: 0, Batch: 0}}
	}
	file, hashes := record(t, steps)
	rec, err := replay.Read(bytes.NewReader(file))
	require.NoError(t, err)
	require.Len(t, rec.Steps, steps)
	bursts := 0
	for _, s := range rec.Steps {
		bursts += len(s.Actions)
		assert.Len(t, s.Digests, len(rec.Header.Systems))
	}
	assert.Positive(t, bursts, "bursts were recorded")
	for i, s := range rec.Steps {
		require.Equal(t, hashes[i], s.Hash, "step %d: the recorded hash is the run's", i+1)
	}
	for _, cfg := range cfgs {
		t.Run(fmt.Sprintf("W%d/batch%d", cfg.Workers, cfg.Batch), func(t *testing.T) {
			h, _ := replayed(t, rec, cfg)
			assert.Equal(t, hashes[len(hashes)-1], h)
		})
	}
}

// replayed plays rec into a game made from it with cfg and returns its
// last digest and the game (closed when the test ends).
func replayed(t *testing.T, rec *replay.Recording, cfg game.Config) (uint64, *game.Game) {
	g, p, err := game.FromRecording(rec, cfg)
	require.NoError(t, err)
	t.Cleanup(func() { g.Close() })
	for !p.Done() {
		require.NoError(t, p.Step())
	}
	h, err := g.Digest()
	require.NoError(t, err)
	return h, g
}
