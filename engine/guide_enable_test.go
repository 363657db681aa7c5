package engine_test

// The code of docs/guide/15-enableable.md (enableable components),
// verbatim: TestGuide checks it.

import (
	"fmt"
	"sync/atomic"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
)

// Impact is how hard a body was last hit; it fades by one a step.
type Impact struct{ Force int }

// Stunned is switched on for a body that was hit hard, for Left steps;
// while it is on the body does not steer. On or off, it stays in the
// body's table: switching it is a write, not a structural change.
type Stunned struct{ Left int }

// Knock counts the stunned down, switching Stunned off when their time is
// up, and stuns the bodies hit hard that are not stunned yet.
type Knock struct {
	impact ecs.Writer[Impact]
	left   ecs.Writer[Stunned]
	stun   ecs.EnabledWriter[Stunned]
	pass   *engine.Pass
}

func (s *Knock) Name() string { return "knock" }

func (s *Knock) Build(b *engine.Builder) error {
	d := b.Decl()
	s.impact, s.left = ecs.Write[Impact](d), ecs.Write[Stunned](d)
	s.stun = ecs.WriteEnabled[Stunned](d) // switches Stunned on and off
	s.pass = b.Chunks("knock", ecs.NewQuery2(d, s.impact, s.left), func(c *ecs.Chunk) {
		hit, left := s.impact.Column(c), s.left.Column(c)
		for i := range s.stun.Each(c) { // only the rows where Stunned is on
			if left[i].Left--; left[i].Left == 0 {
				s.stun.Set(c, i, false)
			}
		}
		for i := range hit {
			if hit[i].Force > 5 && !s.stun.Enabled(c, i) {
				left[i].Left = 2
				s.stun.Set(c, i, true)
			}
			hit[i].Force--
		}
	})
	return nil
}

func (s *Knock) Schedule(f *engine.Frame) error { return f.Run(s.pass) }

// Steer counts the bodies that steer this step: those not stunned.
type Steer struct {
	stun    ecs.EnabledReader[Stunned]
	pass    *engine.Pass
	Steered atomic.Int64
}

func (s *Steer) Name() string { return "steer" }

func (s *Steer) Build(b *engine.Builder) error {
	d := b.Decl()
	s.stun = ecs.ReadEnabled[Stunned](d) // ordered after Knock, which switches it
	s.pass = b.Chunks("steer", ecs.NewQuery1(d, ecs.Read[Stunned](d)), func(c *ecs.Chunk) {
		s.Steered.Add(int64(len(s.stun.Off(c)))) // the rows of bodies not stunned
	})
	return nil
}

func (s *Steer) Schedule(f *engine.Frame) error { return f.Run(s.pass) }

func Example_stunned() {
	w := ecs.NewWorld(ecs.Options{})
	impact, stunned := ecs.NewComponent[Impact](w), ecs.NewComponent[Stunned](w)
	setup := w.NewCommands()
	for i := range 1000 {
		e := setup.Spawn()
		impact.Add(setup, e, Impact{Force: i % 10})
		stunned.Add(setup, e, Stunned{}) // on when added
	}
	if _, err := w.Apply(setup); err != nil {
		panic(err)
	}
	bodies, err := w.Entities(stunned)
	if err != nil {
		panic(err)
	}
	for e := range bodies {
		if err := ecs.SetEnabled[Stunned](w, e, false); err != nil { // nobody stunned yet
			panic(err)
		}
	}
	eng, err := engine.New(w, engine.Config{Workers: 2})
	if err != nil {
		panic(err)
	}
	defer eng.Close()
	steer := &Steer{}
	if err := eng.Add(engine.Update, &Knock{}); err != nil {
		panic(err)
	}
	if err := eng.Add(engine.Update, steer, engine.After("knock")); err != nil {
		panic(err)
	}
	if err := eng.Build(); err != nil {
		panic(err)
	}
	for step := 1; step <= 5; step++ {
		if err := eng.Tick(); err != nil {
			panic(err)
		}
		fmt.Println("step", step, "steered", steer.Steered.Swap(0))
	}
	// Output:
	// step 1 steered 600
	// step 2 steered 600
	// step 3 steered 800
	// step 4 steered 800
	// step 5 steered 1000
}
