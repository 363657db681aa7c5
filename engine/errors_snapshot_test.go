package engine_test

import (
	"fmt"

	"github.com/weft-engine/weft/ecs"
)

func Example_e012() {
	type Path struct{ Points []float64 } // a component that holds a slice
	w := ecs.NewWorld(ecs.Options{})
	ecs.NewComponent[Path](w)
	var snap ecs.Snapshot
	err := w.Snapshot(&snap)
	// ecs: WEFT-E012: a snapshot cannot copy component Path: its field Path.Points (slice) holds a pointer, and a copy of it would share what it points to; make the component plain data (numbers, arrays, structs, ecs entities)
	fmt.Println(err)
	// Output: ecs: WEFT-E012: a snapshot cannot copy component Path: its field Path.Points (slice) holds a pointer, and a copy of it would share what it points to; make the component plain data (numbers, arrays, structs, ecs entities)
}
