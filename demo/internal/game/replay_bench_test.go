package game_test

import (
	"bytes"
	"fmt"
	"io"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/demo/internal/game"
	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/replay"
)

// BenchmarkRecord is the step of the demo's scene (20000 bodies, 1
// worker) plain, with the per-system digests on, and recorded (the
// digests, the world hash and the file's step): the cost of recording.
func BenchmarkRecord(b *testing.B) {
	for _, mode := range []string{"plain", "digests", "record"} {
		b.Run(mode, func(b *testing.B) {
			g, err := game.New(game.Config{Entities: 20000, Workers: 1, Seed: 1})
			require.NoError(b, err)
			defer g.Close()
			switch mode {
			case "digests":
				require.NoError(b, g.Engine().SetDigests(ecs.DigestOn))
			case "record":
				require.NoError(b, g.Record(io.Discard))
			}
			for range 60 { // past the start's spawns and the adaptive batch's first choices
				require.NoError(b, g.Tick())
			}
			b.ResetTimer()
			for range b.N {
				if err := g.Tick(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkReplay plays a recording of 300 steps of the demo's scene
// (2000 or 20000 bodies, the fountain on, a burst every 45 steps) on W
// workers, each step checked against the recording: one op is the whole
// replay, and realtime is how many times faster than the steps' game time
// (300 × 1/60 s) it played.
func BenchmarkReplay(b *testing.B) {
	for _, n := range []int{2000, 20000} {
		b.Run(fmt.Sprintf("E%d", n), func(b *testing.B) {
			rec := recordScene(b, n, 300)
			for _, w := range []int{0, 1} {
				b.Run(fmt.Sprintf("W%d", w), func(b *testing.B) { replayAll(b, rec, w) })
			}
		})
	}
}

// recordScene records steps steps of the demo's scene of n bodies.
func recordScene(b *testing.B, n, steps int) *replay.Recording {
	var file bytes.Buffer
	g, err := game.New(game.Config{Entities: n, Workers: 1, Seed: 1})
	require.NoError(b, err)
	require.NoError(b, g.Record(&file))
	for i := range steps {
		g.HandleInput(game.Input{MouseX: float64(200 + i), MouseY: 300, Click: i%45 == 7})
		require.NoError(b, g.Tick())
	}
	require.NoError(b, g.Close())
	rec, err := replay.Read(&file)
	require.NoError(b, err)
	return rec
}

// replayAll plays rec b.N times on w workers and reports realtime.
func replayAll(b *testing.B, rec *replay.Recording, w int) {
	for range b.N {
		b.StopTimer()
		g, p, err := game.FromRecording(rec, game.Config{Workers: w})
		require.NoError(b, err)
		b.StartTimer()
		for !p.Done() {
			if err := p.Step(); err != nil {
				b.Fatal(err)
			}
		}
		b.StopTimer()
		require.NoError(b, g.Close())
		b.StartTimer()
	}
	played := float64(len(rec.Steps)) / 60 * float64(b.N)
	b.ReportMetric(played/b.Elapsed().Seconds(), "realtime")
}
