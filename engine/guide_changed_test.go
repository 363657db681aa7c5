package engine_test

import (
	"fmt"
	"sync/atomic"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
)

// Wounds are an entity's hit points and their most.
type Wounds struct{ HP, Max int }

// Heal gives the wounded a point a step; it looks at every row first.
type Heal struct {
	hp   ecs.Writer[Wounds]
	pass *engine.Pass
}

func (s *Heal) Name() string { return "heal" }

func (s *Heal) Build(b *engine.Builder) error {
	d := b.Decl()
	s.hp = ecs.Write[Wounds](d)
	s.pass = b.Chunks("heal", ecs.NewQuery1(d, s.hp), func(c *ecs.Chunk) {
		hp := s.hp.Column(c) // a view: reading it marks nothing
		for i := range hp {
			if hp[i].HP < hp[i].Max {
				hp[i].HP++ // marks this row's block of 64
			}
		}
	})
	return nil
}

func (s *Heal) Schedule(f *engine.Frame) error { return f.Run(s.pass) }

// Medic visits the rows whose Wounds changed since it last ran.
type Medic struct {
	pass *engine.Pass
	Seen atomic.Int64
}

func (s *Medic) Name() string { return "medic" }

func (s *Medic) Build(b *engine.Builder) error {
	d := b.Decl()
	hp := ecs.Read[Wounds](d)
	s.pass = b.Chunks("look", ecs.NewQuery1(d, hp, ecs.Changed(hp)), func(c *ecs.Chunk) { s.Seen.Add(int64(c.Len())) })
	return nil
}

func (s *Medic) Schedule(f *engine.Frame) error { return f.Run(s.pass) }

// spawnWounded spawns n entities at full health but every thousandth, at
// half.
func spawnWounded(n int) *ecs.World {
	w := ecs.NewWorld(ecs.Options{})
	wounds := ecs.NewComponent[Wounds](w)
	setup := w.NewCommands()
	for i := range n {
		hp := 10
		if i%1000 == 0 {
			hp = 5
		}
		wounds.Add(setup, setup.Spawn(), Wounds{HP: hp, Max: 10})
	}
	if _, err := w.Apply(setup); err != nil {
		panic(err)
	}
	return w
}

func Example_heal() {
	eng, err := engine.New(spawnWounded(10_000), engine.Config{Workers: 2})
	if err != nil {
		panic(err)
	}
	defer eng.Close()
	medic := &Medic{}
	if err := eng.Add(engine.Update, &Heal{}); err != nil {
		panic(err)
	}
	if err := eng.Add(engine.PostUpdate, medic); err != nil {
		panic(err)
	}
	if err := eng.Build(); err != nil {
		panic(err)
	}
	for range 6 {
		if err := eng.Tick(); err != nil {
			panic(err)
		}
		fmt.Println("step", eng.Time().Step, "rows visited", medic.Seen.Swap(0))
	}
	// Output:
	// step 1 rows visited 10000
	// step 2 rows visited 640
	// step 3 rows visited 640
	// step 4 rows visited 640
	// step 5 rows visited 640
	// step 6 rows visited 0
}
