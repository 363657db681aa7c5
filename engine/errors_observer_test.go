package engine_test

import (
	"errors"
	"fmt"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
)

func Example_e015() {
	w := ecs.NewWorld(ecs.Options{})
	eng, _ := engine.New(w, engine.Config{Serial: true})
	defer eng.Close()
	hull := ecs.NewComponent[Hull](w)
	eng.AddObserver(&watcher{name: "sensor", build: func(b *engine.ObserverBuilder) error {
		ecs.Observe[Hull](b.Decl(), ecs.OnAdd)
		return nil
	}, observe: func(ev ecs.Observed) error {
		return errors.New("no slot for a new contact")
	}})
	eng.Build()
	b := w.NewCommands()
	hull.Add(b, b.Spawn(), Hull{HP: 3})
	_, err := w.Apply(b) // in a step, Tick returns it
	// ecs: WEFT-E015: observer "sensor" failed on OnAdd of Hull of entity {2 0}: no slot for a new contact
	fmt.Println(err)
	// Output: ecs: WEFT-E015: observer "sensor" failed on OnAdd of Hull of entity {2 0}: no slot for a new contact
}

func Example_e016() {
	w := ecs.NewWorld(ecs.Options{})
	eng, _ := engine.New(w, engine.Config{Serial: true})
	defer eng.Close()
	hull := ecs.NewComponent[Hull](w)
	eng.AddObserver(&watcher{name: "repair", build: func(b *engine.ObserverBuilder) error {
		ecs.Observe[Hull](b.Decl(), ecs.OnSet)
		return nil
	}, observe: func(ev ecs.Observed) error {
		hull.Set(ev.Commands, ev.Entity, Hull{HP: 3}) // a Set calls repair again
		return nil
	}})
	eng.Build()
	b := w.NewCommands()
	e := b.Spawn()
	hull.Add(b, e, Hull{HP: 1})
	hull.Set(b, e, Hull{HP: 2})
	_, err := w.Apply(b)
	// ecs: WEFT-E016: observers still recorded commands after 16 rounds of one playback (1 dropped, recorded by "repair"): each round's commands call observers that record more; make the cascade end (check before recording, e.g. add a component only if the entity lacks it), or record in a system that runs next step
	fmt.Println(err)
	// Output: ecs: WEFT-E016: observers still recorded commands after 16 rounds of one playback (1 dropped, recorded by "repair"): each round's commands call observers that record more; make the cascade end (check before recording, e.g. add a component only if the entity lacks it), or record in a system that runs next step
}
