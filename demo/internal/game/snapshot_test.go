package game_test

import (
	"bytes"
	"io"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/demo/internal/game"
	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
	"github.com/weft-engine/weft/internal/fault"
)

// steps runs n steps of the demo with a burst every 25 and returns the
// world hash after each.
func steps(t *testing.T, g *game.Game, n int) []uint64 {
	var hs []uint64
	for i := range n {
		if i%25 == 3 {
			g.SpawnBurst(g.Width*float64(i%7)/7, g.Height/3, 40)
		}
		require.NoError(t, g.Tick())
		h, err := g.Hash()
		require.NoError(t, err)
		hs = append(hs, h)
	}
	return hs
}

// A restore makes the next steps repeat the first run bit for bit:
// bursts (the owner's RNG is a resource), expiry and respawn (despawned
// entities come back with their ids, spawned ones go), sparks from
// landing events, on every worker count.
func TestSnapshotRestoreRepeats(t *testing.T) {
	for _, workers := range []int{0, 2} {
		g := newGame(t, game.Config{Entities: 3000, Seed: 3, Workers: workers})
		steps(t, g, 40)
		w := g.Engine().World()
		var s ecs.Snapshot
		require.NoError(t, w.Snapshot(&s))
		first := steps(t, g, 80)
		for round := range 3 {
			require.NoError(t, w.Restore(&s))
			require.Equal(t, first, steps(t, g, 80), "workers %d, round %d", workers, round)
		}
	}
}

// until runs the demo up to step last, with a burst at every step that is
// 3 modulo 25 (inputs keyed to the step, so that a rerun gets the same),
// and returns the hash after each step by step number.
func until(t *testing.T, g *game.Game, last uint64, hashes map[uint64]uint64) {
	for g.Engine().Time().Step < last {
		if g.Engine().Time().Step%25 == 3 {
			g.SpawnBurst(g.Width/3, g.Height/3, 30)
		}
		require.NoError(t, g.Tick())
		h, err := g.Hash()
		require.NoError(t, err)
		step := g.Engine().Time().Step
		if old, ok := hashes[step]; ok {
			require.Equal(t, old, h, "step %d run again", step)
		}
		hashes[step] = h
	}
}

// Rewind goes back to a kept step; running the same inputs again gives
// every step's hash of the first run. Further back than kept is refused
// and changes nothing.
func TestRewindResimulates(t *testing.T) {
	g := newGame(t, game.Config{Entities: 2000, Seed: 5, Workers: 1})
	eng := g.Engine()
	require.NoError(t, eng.SetRewind(12, 1))
	hashes := map[uint64]uint64{}
	until(t, g, 60, hashes)
	n, err := eng.Rewind(8)
	require.NoError(t, err)
	require.Equal(t, 8, n)
	require.Equal(t, uint64(52), eng.Time().Step)
	h, err := g.Hash()
	require.NoError(t, err)
	require.Equal(t, hashes[52], h)
	until(t, g, 70, hashes)

	_, err = eng.Rewind(13)
	require.ErrorIs(t, err, engine.ErrBadConfig)
	require.Equal(t, uint64(70), eng.Time().Step)

	require.NoError(t, eng.SetRewind(3, 10))
	until(t, g, 105, hashes)
	n, err = eng.Rewind(12) // kept: the worlds after steps 80, 90, 100
	require.NoError(t, err)
	require.Equal(t, 15, n)
	until(t, g, 110, hashes)
}

// A save loaded into another game, running elsewhere, gives the steps
// that followed the save, hash for hash.
func TestSaveLoadContinues(t *testing.T) {
	a := newGame(t, game.Config{Entities: 2000, Seed: 9, Workers: 1})
	hashes := map[uint64]uint64{}
	until(t, a, 40, hashes)
	var file bytes.Buffer
	require.NoError(t, a.Engine().Save(&file))
	until(t, a, 80, hashes)

	b := newGame(t, game.Config{Entities: 2000, Seed: 9, Workers: 2})
	until(t, b, 12, map[uint64]uint64{})
	require.NoError(t, b.Engine().Load(bytes.NewReader(file.Bytes())))
	require.Equal(t, uint64(40), b.Engine().Time().Step)
	until(t, b, 80, hashes) // fails on the first step whose hash differs
}

// A truncated, corrupted or other-version file, or one of another world,
// is refused with its code, and the running world is left as it was.
func TestLoadRefusesBadFiles(t *testing.T) {
	a := newGame(t, game.Config{Entities: 500, Seed: 2, Workers: 0})
	until(t, a, 5, map[uint64]uint64{})
	var file bytes.Buffer
	require.NoError(t, a.Engine().Save(&file))
	good := file.Bytes()
	flip := func(i int) []byte { b := bytes.Clone(good); b[i] ^= 0x40; return b }
	other := bytes.Clone(good)
	other[8] = ecs.SaveVersion + 1 // the format version
	w := ecs.NewWorld(ecs.Options{})
	ecs.NewComponent[struct{ A, B int }](w)
	var foreign bytes.Buffer
	require.NoError(t, w.Save(&foreign))

	until(t, a, 9, map[uint64]uint64{})
	before, err := a.Hash()
	require.NoError(t, err)
	for name, c := range map[string]struct {
		file []byte
		code fault.Code
	}{
		"empty":         {nil, ecs.ErrBadFile},
		"header cut":    {good[:10], ecs.ErrBadFile},
		"payload cut":   {good[:len(good)/2], ecs.ErrBadFile},
		"byte flipped":  {flip(len(good) / 3), ecs.ErrBadFile},
		"magic flipped": {flip(2), ecs.ErrBadFile},
		"other version": {other, ecs.ErrSaveVersion},
		"another world": {foreign.Bytes(), ecs.ErrBadFile},
	} {
		err := a.Engine().Load(bytes.NewReader(c.file))
		require.ErrorIs(t, err, c.code, name)
		after, herr := a.Hash()
		require.NoError(t, herr)
		require.Equal(t, before, after, name)
		require.Equal(t, uint64(9), a.Engine().Time().Step, name)
	}
	until(t, a, 12, map[uint64]uint64{})
}

// The demo's keys: R rewinds two seconds (refused while recording), F5
// saves to a file and F9 loads it; each step after the load is the step
// after the save.
func TestGameRewindSaveLoad(t *testing.T) {
	g := newGame(t, game.Config{Entities: 1000, Seed: 4, Workers: 0})
	require.NoError(t, g.KeepRewind())
	hashes := map[uint64]uint64{}
	until(t, g, 50, hashes)
	n, err := g.Rewind()
	require.NoError(t, err)
	require.Equal(t, 50, n, "fewer steps than two seconds: back to the start")
	until(t, g, 200, hashes)
	n, err = g.Rewind()
	require.NoError(t, err)
	require.GreaterOrEqual(t, n, game.RewindSteps)
	until(t, g, 210, hashes)

	path := filepath.Join(t.TempDir(), "weft.save")
	require.NoError(t, g.Save(path))
	until(t, g, 230, hashes)
	require.NoError(t, g.Load(path))
	require.Equal(t, uint64(210), g.Engine().Time().Step)
	until(t, g, 230, hashes)
	require.Error(t, g.Load(filepath.Join(t.TempDir(), "none")))

	rec := newGame(t, game.Config{Entities: 200, Seed: 4, Workers: 0})
	require.NoError(t, rec.Record(io.Discard))
	require.NoError(t, rec.KeepRewind())
	until(t, rec, 20, map[uint64]uint64{})
	_, err = rec.Rewind()
	require.Error(t, err, "no rewinding while recording")
	require.Equal(t, uint64(20), rec.Engine().Time().Step)
}
