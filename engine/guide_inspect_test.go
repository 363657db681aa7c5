package engine_test

// The code of docs/guide/16-inspector.md, the entity inspector: TestGuide
// checks that its Go blocks appear here verbatim.

import (
	"fmt"
	"strings"

	"github.com/weft-engine/weft/engine"
)

func Example_inspect() {
	a := newArena(engine.Config{Serial: true}, true) // serial: Blend sums in one order
	defer a.eng.Close()
	a.Tick()
	seq, _ := a.w.Entities() // between steps, on the owner
	for ember := range seq {
		in, err := a.eng.Inspect(ember)
		fmt.Println(err)
		fmt.Println(strings.Join(in.Lines(), "\n"))
		break
	}
	// Output:
	// <nil>
	// entity 2 (generation 0)
	//   Ember {Heat:0.9836117215696918 Drift:0}
	// systems that read or write it:
	//   cool: writes Ember
	//   blend: writes Ember
}
