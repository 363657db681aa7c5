//go:build !weft_nochecks

package engine_test

// The examples of docs/errors.md for the state errors (WEFT-G016,
// WEFT-G017); see errors_engine_test.go.

import (
	"fmt"

	"github.com/weft-engine/weft/engine"
)

func Example_g016() {
	eng := engineScene()
	defer eng.Close()
	engine.AddState(eng, TitleScreen, Playing) // PauseMenu is not among its values
	err := engine.OnEnter(eng, PauseMenu, &Spawn{name: "menu", n: 3})
	// engine: WEFT-G016: OnEnter[engine_test.Screen]: paused is not a value of state engine_test.Screen (registered: [title playing]); add it to AddState, or fix the value
	fmt.Println(err)
	// Output:
	// engine: WEFT-G016: OnEnter[engine_test.Screen]: paused is not a value of state engine_test.Screen (registered: [title playing]); add it to AddState, or fix the value
}

func Example_g017() {
	eng := engineScene()
	defer eng.Close()
	engine.AddState(eng, TitleScreen, Playing, PauseMenu)
	screen, _ := engine.StateOf[Screen](eng.World())
	screen.Set(Playing)
	err := screen.Set(PauseMenu) // in the same step, before the first is applied
	// engine: WEFT-G017: State[engine_test.Screen].Set(paused): a transition to playing is already requested for the next step; request one value per step (decide between them in one system, or order the requesting systems and check Next first)
	fmt.Println(err)
	// Output:
	// engine: WEFT-G017: State[engine_test.Screen].Set(paused): a transition to playing is already requested for the next step; request one value per step (decide between them in one system, or order the requesting systems and check Next first)
}
