//go:build !weft_nochecks

package engine_test

// The examples of docs/errors.md's pages on replays (WEFT-R001 to
// WEFT-R005), on the arena of docs/guide/12-determinism.md (guide_replay_test.go).

import (
	"bytes"
	"fmt"
	"strings"
	"time"

	"github.com/weft-engine/weft/engine"
	"github.com/weft-engine/weft/replay"
)

func Example_r001() {
	_, err := replay.Read(strings.NewReader("a text file"))
	fmt.Println(err)
	// Output:
	// replay: WEFT-R001: the file does not start with a replay header; is it a file written by replay.Recorder (weft's -record)?:
	// 	cbor: cannot unmarshal UTF-8 text string into Go value of type replay.Header
}

func Example_r002() {
	recording := recordArena(engine.Config{Serial: true}, false)
	recording.Header.Version++ // as a later build would write
	var file bytes.Buffer
	replay.Write(&file, recording)
	_, err := replay.Read(&file)
	fmt.Println(err)
	// Output:
	// replay: WEFT-R002: the recording has format version 3; this build reads version 2: play it with the build that recorded it
}

func Example_r003() {
	recording := recordArena(engine.Config{Serial: true}, false)
	a := newArena(engine.Config{Serial: true, FixedStep: time.Second / 30}, false) // recorded at 1/60 s
	defer a.eng.Close()
	err := replay.Verify(recording, a)
	fmt.Println(err)
	// Output:
	// replay: WEFT-R003: the recording's fixed step is 16.666666ms, the engine's 33.333333ms; make the engine with the recording's (engine.Config.FixedStep)
}

func Example_r004() {
	recording := recordArena(engine.Config{Serial: true, Batch: 1024}, true)
	a := newArena(engine.Config{Serial: true, Batch: 64}, true)
	defer a.eng.Close()
	err := replay.Verify(recording, a)
	fmt.Println(err)
	// Output:
	// replay: WEFT-R004: step 2 differs (world hash 1aec0acc7985fdce, want f840a0f859efe8aa): system "blend" is the first whose writes differ; a system's writes must depend only on what it reads (its components, resources, the step's events and Time), never on a map's iteration order, time.Now, goroutines of its own or floats summed in the order jobs finish; see docs/guide/12-determinism.md
}

func Example_r005() {
	recording := recordArena(engine.Config{Serial: true}, false)
	a := newArena(engine.Config{Serial: true}, false)
	defer a.eng.Close()
	p, _ := replay.NewPlayer(recording, a)
	for !p.Done() {
		p.Step()
	}
	err := p.Step()
	fmt.Println(err)
	// Output:
	// replay: WEFT-R005: Player.Step after the last of 20 steps; check Done
}
