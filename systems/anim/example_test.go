package anim_test

import (
	"fmt"
	"time"

	ark "github.com/mlange-42/ark/ecs"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
	"github.com/weft-engine/weft/systems"
	"github.com/weft-engine/weft/systems/anim"
)

// A one-shot tween grows a sprite over a second, then is removed; its
// animation loops through 4 frames at 8 frames per second.
func Example() {
	w := ecs.NewWorld(ecs.Options{})
	setup := w.NewCommands()
	e := setup.Spawn()
	ecs.NewComponent[systems.Position](w).Add(setup, e, systems.Position{})
	ecs.NewComponent[systems.Sprite](w).Add(setup, e, systems.Sprite{})
	ecs.NewComponent[systems.Look](w).Add(setup, e, systems.Look{Scale: 1})
	ecs.NewComponent[anim.Animation](w).Add(setup, e, anim.Animation{First: 10, Frames: 4, FPS: 8})
	ecs.NewComponent[anim.Tween](w).Add(setup, e, anim.Tween{Prop: anim.TweenScale, Ease: anim.QuadOut, From: [4]float64{1}, To: [4]float64{2}, Duration: 1})
	if _, err := w.Apply(setup); err != nil {
		panic(err)
	}
	eng, _ := engine.New(w, engine.Config{Workers: 1, FixedStep: time.Second / 4})
	defer eng.Close()
	if err := eng.Add(engine.Update, anim.New()); err != nil {
		panic(err)
	}
	if err := eng.Build(); err != nil {
		panic(err)
	}
	look := ark.NewMap[systems.Look](w.Ark())
	sprite := ark.NewMap[systems.Sprite](w.Ark())
	tween := ark.NewMap[anim.Tween](w.Ark())
	q := ark.NewFilter0(w.Ark()).Query()
	q.Next()
	ent := q.Entity()
	q.Close()
	for range 5 {
		if err := eng.Tick(); err != nil {
			panic(err)
		}
		fmt.Printf("t %.2f  scale %.4f  frame %d  tween %v\n", eng.Time().Elapsed, look.Get(ent).Scale, sprite.Get(ent).Frame, tween.Has(ent))
	}
	// Output:
	// t 0.25  scale 1.4375  frame 12  tween true
	// t 0.50  scale 1.7500  frame 10  tween true
	// t 0.75  scale 1.9375  frame 12  tween true
	// t 1.00  scale 2.0000  frame 10  tween false
	// t 1.25  scale 2.0000  frame 12  tween false
}
