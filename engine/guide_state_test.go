package engine_test

// The code of docs/guide/14-states.md, verbatim: TestGuide checks it.

import (
	"fmt"
	"time"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
)

// Screen is the game's state: what the player is looking at.
type Screen uint8

const (
	TitleScreen Screen = iota
	Playing
	PauseMenu
)

func (s Screen) String() string { return [...]string{"title", "playing", "paused"}[s] }

// Spawn is an exclusive system that spawns n entities with a Lifetime; if
// scoped, they belong to the title screen and go when it is left.
type Spawn struct {
	name   string
	n      int
	scoped bool
}

func (s *Spawn) Name() string { return s.name }

func (s *Spawn) Run(w *ecs.World, t engine.Time) error {
	lives, scope := ecs.NewComponent[Lifetime](w), ecs.NewComponent[engine.Scoped[Screen]](w)
	b := w.NewCommands()
	for i := range s.n {
		e := b.Spawn()
		lives.Add(b, e, Lifetime{Left: float64(1 + i%3)})
		if s.scoped {
			scope.Add(b, e, engine.Scoped[Screen]{In: TitleScreen})
		}
	}
	_, err := w.Apply(b) // exclusive: the world is unlocked, the change is immediate
	return err
}

func Example_states() {
	eng, err := engine.New(ecs.NewWorld(ecs.Options{}), engine.Config{Workers: 2, FixedStep: time.Second})
	if err != nil {
		panic(err)
	}
	defer eng.Close()
	must := func(err error) {
		if err != nil {
			panic(err)
		}
	}
	must(engine.AddState(eng, TitleScreen, Playing, PauseMenu)) // the initial value first
	must(engine.OnEnter(eng, TitleScreen, &Spawn{name: "menu", n: 3, scoped: true}))
	must(engine.OnTransition(eng, TitleScreen, Playing, &Spawn{name: "level", n: 900}))
	must(eng.Add(engine.Update, &Expire{}, engine.InState(Playing)))
	must(eng.Build())
	screen, err := engine.StateOf[Screen](eng.World())
	must(err)
	for step := 1; step <= 6; step++ {
		switch step {
		case 2:
			must(screen.Set(Playing)) // the player pressed start
		case 4:
			must(screen.Set(PauseMenu))
		case 6:
			must(screen.Set(Playing))
		}
		must(eng.Tick())
		fmt.Println("step", step, screen.Current(), "entities", eng.World().Count())
	}
	// Output:
	// step 1 title entities 3
	// step 2 playing entities 600
	// step 3 playing entities 300
	// step 4 paused entities 300
	// step 5 paused entities 300
	// step 6 playing entities 0
}
