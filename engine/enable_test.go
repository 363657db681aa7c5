package engine_test

import (
	"fmt"
	"hash/fnv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
)

// stunScene runs 30 steps of the guide's Knock and Steer over 3,000
// bodies whose impacts come back every few steps (a system that re-hits
// bodies by their Impact, and switches some of them by commands), and
// hashes every body's components, its
// Stunned state and what Steer counted.
func stunScene(t *testing.T, workers, batch int) uint64 {
	w := ecs.NewWorld(ecs.Options{})
	impact, stunned := ecs.NewComponent[Impact](w), ecs.NewComponent[Stunned](w)
	setup := w.NewCommands()
	for i := range 3000 {
		e := setup.Spawn()
		impact.Add(setup, e, Impact{Force: i * 7 % 13})
		stunned.Add(setup, e, Stunned{})
	}
	_, err := w.Apply(setup)
	require.NoError(t, err)
	e := newEngine(t, w, engine.Config{Workers: workers, Serial: workers == 0, Batch: batch})
	var hit ecs.Writer[Impact]
	var pass *engine.Pass
	rehit := &toy{name: "rehit", build: func(b *engine.Builder) error {
		d := b.Decl()
		hit = ecs.Write[Impact](d)
		b.Commands()
		pass = b.Chunks("rehit", ecs.NewQuery1(d, hit), func(c *ecs.Chunk) {
			for i, ent := range c.Entities() {
				if f := &hit.Column(c)[i]; f.Force < -3 {
					f.Force = int(ent.ID()*5%11) + 1
					if ent.ID()%7 == 0 { // and switched by a command, at playback
						stunned.SetEnabled(c.Commands(), ent, f.Force%2 == 0)
					}
				}
			}
		})
		return nil
	}, sched: func(f *engine.Frame) error { return f.Run(pass) }}
	steer := &Steer{}
	require.NoError(t, e.Add(engine.Update, rehit))
	require.NoError(t, e.Add(engine.Update, &Knock{}, engine.After("rehit")))
	require.NoError(t, e.Add(engine.Update, steer, engine.After("knock")))
	require.NoError(t, e.Build())
	h := fnv.New64a()
	for range 30 {
		require.NoError(t, e.Tick())
		fmt.Fprint(h, steer.Steered.Swap(0))
	}
	bodies, err := w.Entities(stunned)
	require.NoError(t, err)
	for b := range bodies {
		i, _ := ecs.Get[Impact](w, b)
		s, _ := ecs.Get[Stunned](w, b)
		on, err := ecs.IsEnabled[Stunned](w, b)
		require.NoError(t, err)
		fmt.Fprint(h, b, i, s, on)
	}
	return h.Sum64()
}

// Switches from chunk jobs give the same world for every worker count
// and batch size (0: adaptive) as the serial executor.
func TestEnabledDeterminism(t *testing.T) {
	want := stunScene(t, 0, 256)
	for _, workers := range []int{0, 1, 2, 4} {
		for _, batch := range []int{1, 64, 0} {
			assert.Equal(t, want, stunScene(t, workers, batch), "workers %d, batch %d", workers, batch)
		}
	}
}
