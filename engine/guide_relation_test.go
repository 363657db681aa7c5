package engine_test

// The code of docs/guide/18-relations.md (relations and hierarchies),
// verbatim: TestGuide checks it.

import (
	"fmt"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
	"github.com/weft-engine/weft/systems/transform"
)

// Escorts points a wingman at the ship it escorts. When the ship is
// despawned, its wingmen stay, with no target (Detach).
type Escorts struct{}

// Armor is what is left of a ship.
type Armor struct{ HP int }

// Desert makes a wingman leave a ship whose armor is below 20: it reads
// the relation and the target's Armor, and records the change, which plays
// back after the step.
type Desert struct {
	escorts ecs.RelationReader[Escorts]
	leave   ecs.RelationWriter[Escorts]
	armor   ecs.Reader[Armor]
	pass    *engine.Pass
}

func (s *Desert) Name() string { return "desert" }

func (s *Desert) Build(b *engine.Builder) error {
	d := b.Decl()
	s.escorts, s.leave = ecs.ReadRelation[Escorts](d), ecs.WriteRelation[Escorts](d)
	s.armor = ecs.Read[Armor](d)
	s.pass = b.Chunks("desert", ecs.NewQuery2(d, s.armor, s.escorts), func(c *ecs.Chunk) {
		ships := ecs.TargetsOf(s.armor, s.escorts, c) // the Armor of each row's target
		for i, e := range c.Entities() {
			if h, ok := ships.Get(i); ok && h.HP < 20 {
				s.leave.Remove(c.Commands(), e)
			}
		}
	})
	return nil
}

func (s *Desert) Schedule(f *engine.Frame) error { return f.Run(s.pass) }

func Example_relations() {
	w := ecs.NewWorld(ecs.Options{})
	if err := ecs.NewRelation[Escorts](w, ecs.Detach); err != nil {
		panic(err)
	}
	armor := ecs.NewComponent[Armor](w)
	local, world := ecs.NewComponent[transform.Local](w), ecs.NewComponent[transform.World](w)
	b := w.NewCommands()
	body := func(hp int, l transform.Local) ecs.Entity {
		e := b.Spawn()
		armor.Add(b, e, Armor{HP: hp})
		local.Add(b, e, l)
		world.Add(b, e, transform.World{})
		return e
	}
	var ships []ecs.Entity // placeholders; rep.Spawned gives their entities
	for _, hp := range []int{50, 10} {
		ship := body(hp, transform.Local{X: float64(hp), Scale: 2})
		ships = append(ships, ship)
		turret := body(1, transform.Local{Y: 1, Scale: 1})
		if err := ecs.Relate[ecs.ChildOf](b, turret, ship); err != nil { // the turret moves with its ship
			panic(err)
		}
		if err := ecs.Relate[Escorts](b, body(30, transform.Local{Scale: 1}), ship); err != nil {
			panic(err)
		}
	}
	rep, err := w.Apply(b)
	if err != nil {
		panic(err)
	}
	strong, err := rep.Spawned(ships[0]) // the entity the first ship became, armor 50
	if err != nil {
		panic(err)
	}
	eng, err := engine.New(w, engine.Config{Workers: 2})
	if err != nil {
		panic(err)
	}
	defer eng.Close()
	if err := eng.Add(engine.Update, &Desert{}); err != nil {
		panic(err)
	}
	if err := eng.Add(engine.PostUpdate, transform.New()); err != nil {
		panic(err)
	}
	if err := eng.Build(); err != nil {
		panic(err)
	}
	if err := eng.Tick(); err != nil {
		panic(err)
	}
	report := func() {
		turrets, _ := w.Entities(ecs.NewComponent[ecs.Link[ecs.ChildOf]](w))
		for t := range turrets {
			ship, _, _ := ecs.TargetOf[ecs.ChildOf](w, t)
			at, _ := ecs.Get[transform.World](w, t)
			fmt.Printf("turret of ship %d at (%g, %g)\n", ship.ID(), at.X, at.Y)
		}
		fmt.Println("escorting:", w.Count(ecs.NewComponent[ecs.Link[Escorts]](w)), "entities:", w.Count())
	}
	report()
	b.Despawn(strong)
	if _, err := w.Apply(b); err != nil {
		panic(err)
	}
	report()
	// Output:
	// turret of ship 2 at (50, 2)
	// turret of ship 5 at (10, 2)
	// escorting: 1 entities: 6
	// turret of ship 5 at (10, 2)
	// escorting: 0 entities: 4
}
