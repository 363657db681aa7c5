package engine_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
)

// A system's chunk jobs switch Stunned while a later system, which reads
// the state through an Optional column over tables with and without
// Stunned, prepares its chunks on the owner. The on/off bits by entity id
// are shared by both tables' entities (64 ids a word), so the owner must
// read them as the jobs write them: atomically. Under -race this test
// fails where the owner reads them plainly; without it, the counts equal
// the serial executor's.
func TestEnabledSwitchWhileLaterSystemPrepares(t *testing.T) {
	require.Equal(t, switchAndCount(t, 0), switchAndCount(t, 2))
}

// switchAndCount runs the two systems for 120 steps on workers and
// returns, by chunk, how many rows the reader saw switched on.
func switchAndCount(t *testing.T, workers int) []int {
	w := ecs.NewWorld(ecs.Options{})
	impact, stunned := ecs.NewComponent[Impact](w), ecs.NewComponent[Stunned](w)
	setup := w.NewCommands()
	for i := range 1 << 14 { // ids of both tables share every word
		e := setup.Spawn()
		impact.Add(setup, e, Impact{Force: i % 9})
		if i%2 == 0 {
			stunned.Add(setup, e, Stunned{})
		}
	}
	_, err := w.Apply(setup)
	require.NoError(t, err)
	e := newEngine(t, w, engine.Config{Workers: workers, Serial: workers == 0, Batch: 64})
	var (
		sw   ecs.EnabledWriter[Stunned]
		hits ecs.Writer[Impact]
		flip *engine.Pass
	)
	flipper := &toy{name: "flip", build: func(b *engine.Builder) error {
		d := b.Decl()
		sw, hits = ecs.WriteEnabled[Stunned](d), ecs.Write[Impact](d)
		b.Commands()
		flip = b.Chunks("flip", ecs.NewQuery1(d, hits, ecs.With[Stunned]()), func(c *ecs.Chunk) {
			for i, h := range hits.Column(c) {
				sw.Set(c, i, (h.Force+i)%3 != 0)
				hits.Column(c)[i].Force++
			}
			if c.Index() == 0 { // a structural change every step: the next
				// step's Prepare rebuilds the row bits of the tables it meets
				impact.Add(c.Commands(), c.Commands().Spawn(), Impact{})
			}
		})
		return nil
	}, sched: func(f *engine.Frame) error { return f.Run(flip) }}
	var (
		sr    ecs.EnabledReader[Stunned]
		seen  ecs.Reader[Impact]
		count *engine.Pass
		on    = make([]int, 1<<14)
	)
	counter := &toy{name: "count", build: func(b *engine.Builder) error {
		d := b.Decl()
		sr, seen = ecs.ReadEnabled[Stunned](d), ecs.Read[Impact](d)
		opt := ecs.Read[Stunned](d)
		count = b.ChunksInOrder("count", ecs.NewQuery1(d, seen, ecs.Optional(opt)), func(c *ecs.Chunk) {
			for range sr.Each(c) {
				on[c.Index()]++
			}
		})
		return nil
	}, sched: func(f *engine.Frame) error { return f.Run(count) }}
	require.NoError(t, e.Add(engine.Update, flipper))
	require.NoError(t, e.Add(engine.Update, counter, engine.After("flip")))
	require.NoError(t, e.Build())
	for i := range 120 {
		if i%4 == 0 { // the owner switches too, which makes rows stale
			for ent := range mustEntities(t, w, stunned) {
				require.NoError(t, ecs.SetEnabled[Stunned](w, ent, ent.ID()%5 != 0))
				break
			}
		}
		require.NoError(t, e.Tick())
	}
	return on
}

func mustEntities(t *testing.T, w *ecs.World, c ecs.Comp) func(func(ecs.Entity) bool) {
	seq, err := w.Entities(c)
	require.NoError(t, err)
	return seq
}
