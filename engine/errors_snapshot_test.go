package engine_test

import (
	"bytes"
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

func Example_e013() {
	w := ecs.NewWorld(ecs.Options{})
	var file bytes.Buffer
	_ = w.Save(&file)
	cut := file.Bytes()[:file.Len()-4]
	err := w.Load(bytes.NewReader(cut))
	// ecs: WEFT-E013: the save file is truncated: 122 of its 126 bytes of payload
	fmt.Println(err)
	// Output: ecs: WEFT-E013: the save file is truncated: 122 of its 126 bytes of payload
}

func Example_e014() {
	w := ecs.NewWorld(ecs.Options{})
	var file bytes.Buffer
	_ = w.Save(&file)
	old := file.Bytes()
	old[8] = 7 // the format version, after the 8 bytes of "weftsave"
	err := w.Load(bytes.NewReader(old))
	// ecs: WEFT-E014: the save file has format version 7 and this build reads version 2; load it with the weft version that wrote it
	fmt.Println(err)
	// Output: ecs: WEFT-E014: the save file has format version 7 and this build reads version 2; load it with the weft version that wrote it
}
