package engine_test

// The code of docs/guide/13-snapshots.md, snapshots, rewind, save, load:
// TestGuide checks that its Go blocks appear here verbatim.

import (
	"bytes"
	"fmt"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
)

// stepArena runs the arena's next step with the game's inputs for it:
// the wind, set before every step, and a spark thrown every fifth. They
// depend only on the step, so a step run again gets the same inputs.
func stepArena(a *Arena) error {
	s := a.eng.Time().Step
	a.wind.Speed = float64(s%3) - 1
	if s%5 == 4 {
		a.Throw(Spark{Heat: float64(s)})
	}
	return a.Tick()
}

func Example_snapshot() {
	a := newArena(engine.Config{Workers: 2}, false)
	defer a.eng.Close()
	var snap ecs.Snapshot // reused: once warm, taking one allocates nothing
	if err := a.w.Snapshot(&snap); err != nil {
		panic(err)
	}
	for range 10 {
		stepArena(a)
	}
	ahead, _ := a.Digest()
	err := a.eng.Restore(&snap) // between steps: the world as it was
	fmt.Println(err, a.eng.Time().Step, snap.Entities())
	for range 10 {
		stepArena(a)
	}
	again, _ := a.Digest()
	fmt.Println(again == ahead)
	// Output:
	// <nil> 0 3000
	// true
}

func Example_rewind() {
	a := newArena(engine.Config{Workers: 2}, false)
	defer a.eng.Close()
	if err := a.eng.SetRewind(8, 1); err != nil { // a snapshot after each step, the last 8
		panic(err)
	}
	for range 30 {
		stepArena(a)
	}
	before, _ := a.Digest()
	n, err := a.eng.Rewind(8) // back to the world after step 22
	fmt.Println(n, err, a.eng.Time().Step)
	for range n {
		stepArena(a) // the same inputs again
	}
	after, _ := a.Digest()
	fmt.Println(after == before)
	// Output:
	// 8 <nil> 22
	// true
}

func Example_saveLoad() {
	a := newArena(engine.Config{Workers: 1}, false)
	defer a.eng.Close()
	for range 12 {
		stepArena(a)
	}
	var file bytes.Buffer
	if err := a.eng.Save(&file); err != nil {
		panic(err)
	}
	for range 5 {
		stepArena(a)
	}
	want, _ := a.Digest()

	b := newArena(engine.Config{Workers: 4}, false) // another game, made the same way
	defer b.eng.Close()
	err := b.eng.Load(&file)
	for range 5 {
		stepArena(b)
	}
	got, _ := b.Digest()
	fmt.Println(err, b.eng.Time().Step, got == want)
	// Output: <nil> 17 true
}
