package engine_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
)

// A pass that writes through a lookup reaches one target from rows of
// many chunks; its digest is of the target as the pass left it, so it is
// the same for every batch size, as the world is.
func TestLookupDigestDoesNotDependOnBatch(t *testing.T) {
	digest := func(batch int) uint64 {
		w := ecs.NewWorld(ecs.Options{})
		pc, tc := ecs.NewComponent[pos](w), ecs.NewComponent[Target](w)
		b := w.NewCommands()
		target := b.Spawn()
		pc.Add(b, target, pos{})
		for range 200 {
			tc.Add(b, b.Spawn(), Target{Of: target})
		}
		_, err := w.Apply(b)
		require.NoError(t, err)
		e := newEngine(t, w, engine.Config{Workers: 1, Batch: batch})
		var (
			to   ecs.Reader[Target]
			at   ecs.LookupWriter[pos]
			pass *engine.Pass
		)
		require.NoError(t, e.Add(engine.Update, &toy{name: "pull", build: func(b *engine.Builder) error {
			d := b.Decl()
			to, at = ecs.Read[Target](d), ecs.WriteLookup[pos](d)
			pass = b.ChunksInOrder("pull", ecs.NewQuery1(d, to), func(c *ecs.Chunk) {
				for _, x := range to.Column(c) {
					if p, ok := at.Get(c, x.Of); ok {
						p.X++
					}
				}
			})
			return nil
		}, sched: func(f *engine.Frame) error { return f.Run(pass) }}))
		require.NoError(t, e.Build())
		require.NoError(t, e.SetDigests(ecs.DigestOn))
		require.NoError(t, e.Tick())
		return e.Digests()[0].Sum
	}
	require.Equal(t, digest(64), digest(1))
	require.Equal(t, digest(64), digest(256))
}
