package game_test

import (
	"io"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/demo/internal/game"
	"github.com/weft-engine/weft/ecs"
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
