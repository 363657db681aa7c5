//go:build !weft_nochecks

package engine_test

// The examples of docs/errors.md's engine section (WEFT-G…); see
// errors_jobs_test.go. toy (helpers_test.go) is a System made of
// functions; mover is a toy that writes or reads pos in one chunk pass.

import (
	"errors"
	"fmt"
	"time"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
)

// engineScene is the setting of the engine examples: an engine on a
// serial pool over three entities with pos and vel.
func engineScene() *engine.Engine {
	w := ecs.NewWorld(ecs.Options{})
	spawner := ecs.NewSpawner2[pos, vel](w)
	b := w.NewCommands()
	for range 3 {
		spawner.Spawn(b, pos{}, vel{1})
	}
	if _, err := w.Apply(b); err != nil {
		panic(err)
	}
	eng, err := engine.New(w, engine.Config{Serial: true})
	if err != nil {
		panic(err)
	}
	return eng
}

func Example_g001() {
	eng := engineScene()
	defer eng.Close()
	err := eng.SetBatch(-1) // engine: WEFT-G001: SetBatch(-1): the batch size must be >= 1, or 0 for adaptive
	fmt.Println(err)
	err = eng.Add(engine.Update, nil) // engine: WEFT-G001: Add(Update, nil): the system is nil; pass a system value
	fmt.Println(err)
	// Output:
	// engine: WEFT-G001: SetBatch(-1): the batch size must be >= 1, or 0 for adaptive
	// engine: WEFT-G001: Add(Update, nil): the system is nil; pass a system value
}

func Example_g002() {
	eng := engineScene()
	defer eng.Close()
	eng.Add(engine.Update, &toy{name: "sprites", build: func(*engine.Builder) error { return errors.New("no sprite sheet") }})
	err := eng.Build()
	// engine: WEFT-G002: system "sprites": Build failed; fix the system's Build:
	// 	no sprite sheet
	fmt.Println(err)
	// Output:
	// engine: WEFT-G002: system "sprites": Build failed; fix the system's Build:
	// 	no sprite sheet
}

func Example_g003() {
	eng := engineScene()
	defer eng.Close()
	eng.Add(engine.Update, mover("a", true, noop), engine.After("b"))
	eng.Add(engine.Update, mover("b", true, noop), engine.After("a"))
	err := eng.Build()
	// engine: WEFT-G003: the schedule does not validate; fix the systems named below:
	// 	safety: WEFT-S002: the Before/After constraints form a cycle: "a" → "b" → "a"; remove one of these constraints
	fmt.Println(err)
	// Output:
	// engine: WEFT-G003: the schedule does not validate; fix the systems named below:
	// 	safety: WEFT-S002: the Before/After constraints form a cycle: "a" → "b" → "a"; remove one of these constraints
}

func Example_g004() {
	eng := engineScene()
	defer eng.Close()
	eng.Add(engine.Update, mover("physics", true, noop))
	eng.Add(engine.Update, mover("draw", false, noop))
	err := eng.Build()
	// engine: WEFT-G004: conflicting systems of one stage are ordered only by registration; add Before/After, or accept each ID in Config.Allowlist:
	// 	safety: WEFT-S006: A0311a040: systems "physics" and "draw" conflict on pos and only registration order runs "physics" first; state the order with Before/After, or accept it by adding A0311a040 to the allowlist
	fmt.Println(err)
	// Output:
	// engine: WEFT-G004: conflicting systems of one stage are ordered only by registration; add Before/After, or accept each ID in Config.Allowlist:
	// 	safety: WEFT-S006: A0311a040: systems "physics" and "draw" conflict on pos and only registration order runs "physics" first; state the order with Before/After, or accept it by adding A0311a040 to the allowlist
}

func Example_g005() {
	eng := engineScene()
	defer eng.Close()
	eng.Add(engine.Update, mover("physics", true, noop), engine.Before("input"))
	eng.Add(engine.PreUpdate, mover("input", true, noop))
	err := eng.Build()
	// engine: WEFT-G005: system "physics" (Update) runs Before "input", which is in the earlier stage PreUpdate; drop the constraint or move one of them
	fmt.Println(err)
	// Output:
	// engine: WEFT-G005: system "physics" (Update) runs Before "input", which is in the earlier stage PreUpdate; drop the constraint or move one of them
}

func Example_g006() {
	eng := engineScene()
	defer eng.Close()
	eng.Add(engine.Update, mover("physics", true, noop))
	eng.Build()
	err := eng.Enable("physic", false)
	// engine: WEFT-G006: Enable("physic"): no system or set has that name; use a name that Explain lists, or one given to Engine.Set
	fmt.Println(err)
	// Output:
	// engine: WEFT-G006: Enable("physic"): no system or set has that name; use a name that Explain lists, or one given to Engine.Set
}

func Example_g007() {
	eng := engineScene()
	defer eng.Close()
	_, err := eng.Step(time.Second / 60)
	// engine: WEFT-G007: Step before Build; call Build once after adding the systems
	fmt.Println(err)
	eng.Build()
	err = eng.Add(engine.Update, mover("late", true, noop))
	// engine: WEFT-G007: Add("late") after Build; add every system before Build (to change the systems, make a new Engine on a new world)
	fmt.Println(err)
	// Output:
	// engine: WEFT-G007: Step before Build; call Build once after adding the systems
	// engine: WEFT-G007: Add("late") after Build; add every system before Build (to change the systems, make a new Engine on a new world)
}

func Example_g008() {
	eng := engineScene()
	defer eng.Close()
	eng.Add(engine.Update, &toy{name: "ai", build: func(*engine.Builder) error { return nil },
		sched: func(*engine.Frame) error { panic("no target") }})
	eng.Build()
	err := eng.Tick()
	// engine: WEFT-G008: system "ai": Schedule failed in step 1; its jobs so far still run:
	// 	panic: no target
	fmt.Println(err)
	// Output:
	// engine: WEFT-G008: system "ai": Schedule failed in step 1; its jobs so far still run:
	// 	panic: no target
}

func Example_g009() {
	eng := engineScene()
	defer eng.Close()
	eng.Add(engine.Update, mover("physics", true, func(p []pos) { panic("bad data") }))
	eng.Add(engine.Update, mover("draw", false, noop), engine.After("physics"))
	eng.Build()
	err := eng.Tick()
	// engine: WEFT-G009: system "physics": a job failed in step 1; blocked by it (not merged): "draw":
	// 	jobs: WEFT-J005 "physics.move"[0]: panic: bad data
	fmt.Println(err)
	// Output:
	// engine: WEFT-G009: system "physics": a job failed in step 1; blocked by it (not merged): "draw":
	// 	jobs: WEFT-J005 "physics.move"[0]: panic: bad data
}

func Example_g010() {
	eng := engineScene()
	defer eng.Close()
	eng.Add(engine.Update, merging{&toy{name: "draw", build: func(*engine.Builder) error { return nil },
		sched: func(*engine.Frame) error { return nil },
		merge: func(*engine.Frame) error { return errors.New("sprite sheet missing") }}})
	eng.Build()
	err := eng.Tick()
	// engine: WEFT-G010: system "draw": Merge failed in step 1:
	// 	sprite sheet missing
	fmt.Println(err)
	// Output:
	// engine: WEFT-G010: system "draw": Merge failed in step 1:
	// 	sprite sheet missing
}
