//go:build !weft_nochecks

package engine_test

// The examples of docs/errors.md's pages on system sets and run
// conditions (WEFT-G011 to WEFT-G015); see errors_engine_test.go.

import (
	"fmt"

	"github.com/weft-engine/weft/engine"
)

func Example_g011() {
	eng := engineScene()
	defer eng.Close()
	eng.Set("ai")
	eng.Add(engine.Update, mover("think", false, noop), engine.InSet("ia")) // a typo: the set is "ai"
	err := eng.Build()
	// engine: WEFT-G011: system "think" is InSet("ia"), which is not a set; declare it with Engine.Set before Build, or fix the name
	fmt.Println(err)
	// Output:
	// engine: WEFT-G011: system "think" is InSet("ia"), which is not a set; declare it with Engine.Set before Build, or fix the name
}

func Example_g012() {
	eng := engineScene()
	defer eng.Close()
	eng.Set("ai", engine.InStage(engine.Update))
	eng.Set("late", engine.InStage(engine.PostUpdate))
	eng.Add(engine.Update, mover("think", false, noop), engine.InSet("ai", "late"))
	err := eng.Build()
	// engine: WEFT-G012: system "think" is added to Update, but its set "late" is InStage(PostUpdate) while its set "ai" is InStage(Update); add the system to its set's stage, or take it out of the set
	fmt.Println(err)
	// Output:
	// engine: WEFT-G012: system "think" is added to Update, but its set "late" is InStage(PostUpdate) while its set "ai" is InStage(Update); add the system to its set's stage, or take it out of the set
}

func Example_g013() {
	eng := engineScene()
	defer eng.Close()
	eng.Set("physics")
	eng.Add(engine.Update, mover("physics", true, noop))
	err := eng.Build()
	// engine: WEFT-G013: set "physics" has the name of a system; Before/After("physics") would mean either: rename the set or the system
	fmt.Println(err)
	// Output:
	// engine: WEFT-G013: set "physics" has the name of a system; Before/After("physics") would mean either: rename the set or the system
}

func Example_g014() {
	eng := engineScene()
	defer eng.Close()
	eng.Set("ai", engine.After("physics"))
	eng.Add(engine.Update, mover("physics", true, noop), engine.After("think"))
	eng.Add(engine.Update, mover("think", true, noop), engine.InSet("ai"))
	err := eng.Build()
	// engine: WEFT-G014: Before/After constraints through sets form a cycle (physics → think → physics): set "ai" (think is in it) is After physics; physics is After think; remove one of them:
	// 	safety: WEFT-S002: the Before/After constraints form a cycle: "physics" → "think" → "physics"; remove one of these constraints
	fmt.Println(err)
	// Output:
	// engine: WEFT-G014: Before/After constraints through sets form a cycle (physics → think → physics): set "ai" (think is in it) is After physics; physics is After think; remove one of them:
	// 	safety: WEFT-S002: the Before/After constraints form a cycle: "physics" → "think" → "physics"; remove one of these constraints
}

func Example_g015() {
	eng := engineScene() // its world has no Paused resource
	defer eng.Close()
	eng.Add(engine.Update, mover("spawner", true, noop), engine.WhileRes(func(p *Paused) bool { return !p.On }))
	err := eng.Build()
	// engine: WEFT-G015: system "spawner": run condition WhileRes[engine_test.Paused] cannot hold; add the resource with ecs.AddResource before Build, or drop the condition:
	// 	the world has no resource engine_test.Paused
	fmt.Println(err)
	// Output:
	// engine: WEFT-G015: system "spawner": run condition WhileRes[engine_test.Paused] cannot hold; add the resource with ecs.AddResource before Build, or drop the condition:
	// 	the world has no resource engine_test.Paused
}
