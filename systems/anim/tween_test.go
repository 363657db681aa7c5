package anim_test

import (
	"testing"
	"time"

	ark "github.com/mlange-42/ark/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
	"github.com/weft-engine/weft/systems"
	"github.com/weft-engine/weft/systems/anim"
)

// Linear tweens of 1 s from 0 to 1, stepped by 0.25 s: a loop starts over,
// a ping-pong comes back, a one-shot holds its end and is removed. A
// repeating tween's clock stays within its period.
func TestTweenRepeats(t *testing.T) {
	w := ecs.NewWorld(ecs.Options{})
	look := ecs.NewComponent[systems.Look](w)
	tween := ecs.NewComponent[anim.Tween](w)
	setup := w.NewCommands()
	for _, r := range []anim.Repeat{anim.Loop, anim.PingPong, anim.Once} {
		e := setup.Spawn()
		ecs.NewComponent[systems.Position](w).Add(setup, e, systems.Position{})
		look.Add(setup, e, systems.Look{})
		tween.Add(setup, e, anim.Tween{Prop: anim.TweenScale, Repeat: r, To: [4]float64{1}, Duration: 1})
	}
	_, err := w.Apply(setup)
	require.NoError(t, err)
	eng, err := engine.New(w, engine.Config{Workers: 1, FixedStep: time.Second / 4})
	require.NoError(t, err)
	defer eng.Close()
	require.NoError(t, eng.Add(engine.Update, anim.New()))
	require.NoError(t, eng.Build())
	looks, tweens := ark.NewMap[systems.Look](w.Ark()), ark.NewMap[anim.Tween](w.Ark())
	var ents []ark.Entity
	q := ark.NewFilter1[anim.Tween](w.Ark()).Query()
	for q.Next() {
		ents = append(ents, q.Entity())
	}
	want := [][3]float64{ // loop, ping-pong, once, after each step
		{0.25, 0.25, 0.25}, {0.5, 0.5, 0.5}, {0.75, 0.75, 0.75}, {0, 1, 1},
		{0.25, 0.75, 1}, {0.5, 0.5, 1}, {0.75, 0.25, 1}, {0, 0, 1}, {0.25, 0.25, 1},
	}
	for step, wv := range want {
		require.NoError(t, eng.Tick())
		for i, e := range ents {
			assert.InDelta(t, wv[i], looks.Get(e).Scale, 1e-12, "step %d, tween %d", step+1, i)
			if i < 2 {
				assert.Less(t, tweens.Get(e).T, float64(2*(i+1)), "the clock wraps")
			}
		}
		assert.Equal(t, step+1 < 4, tweens.Has(ents[2]), "step %d: the one-shot is removed once done", step+1)
	}
}
