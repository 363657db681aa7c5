//go:build !weft_nochecks

package engine_test

// The examples of docs/errors.md's pages on netplay (WEFT-N001 to
// WEFT-N011), on the arena of docs/guide/12-determinism.md.

import (
	"errors"
	"fmt"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
	"github.com/weft-engine/weft/netplay"
)

// netPacket is a data packet of session 1 from player 1 at step frame.
func netPacket(seq uint32, frame int32) []byte {
	return netplay.AppendPacket(nil, &netplay.Packet{Kind: netplay.KindData, Session: 1, From: 1, Seq: seq,
		Data: netplay.Data{Frame: frame}}, netplay.DefaultKey(1))
}

func Example_n001() {
	a := newArena(engine.Config{Serial: true}, false)
	defer a.eng.Close()
	_, err := netplay.New(a, &netplay.Inputs[uint8]{}, netplay.Config[uint8]{Players: 5})
	fmt.Println(err)
	// Output:
	// netplay: WEFT-N001: Config.Players is 5; a session has 2 to 4 players
}

func Example_n002() {
	r := netplay.NewReader(1, netplay.DefaultKey(1), []string{"", "10.0.0.2:7777"})
	_, err := r.Read([]byte("hello"), "10.0.0.2:7777", 0)
	fmt.Println(err, r.Refused(netplay.ErrMalformed))
	// Output:
	// netplay: WEFT-N002: a packet of 5 bytes, shorter than a header and a tag (25) 1
}

func Example_n003() {
	r := netplay.NewReader(1, netplay.DefaultKey(1), []string{"", "10.0.0.2:7777"})
	_, err := r.Read(netPacket(1, 0), "10.0.0.9:7777", 0) // player 1 is at 10.0.0.2
	fmt.Println(err)
	// Output:
	// netplay: WEFT-N003: a packet from player 1 sent from 10.0.0.9:7777; that player is at 10.0.0.2:7777
}

func Example_n004() {
	r := netplay.NewReader(1, netplay.DefaultKey(1), []string{"", "10.0.0.2:7777"})
	r.Read(netPacket(1, 0), "10.0.0.2:7777", 0)
	_, err := r.Read(netPacket(1, 0), "10.0.0.2:7777", 0) // the same packet again
	fmt.Println(err)
	// Output:
	// netplay: WEFT-N004: a packet of sequence number 1, received before
}

func Example_n005() {
	r := netplay.NewReader(1, netplay.DefaultKey(1), []string{"", "10.0.0.2:7777"})
	_, err := r.Read(netPacket(1, 5000), "10.0.0.2:7777", 100)
	fmt.Println(err)
	// Output:
	// netplay: WEFT-N005: a packet of step 5000 (inputs from 0) at local step 100: no peer can be more than 240 steps ahead
}

func Example_n006() {
	mine := netplay.Hello{Game: 0x5eed, Players: 2, InputSize: 3, StepNs: 16666666}
	theirs := mine
	theirs.Game = 0xbeef // another build or scene
	fmt.Println(netplay.CheckHello(mine, theirs))
	// Output:
	// netplay: WEFT-N006: a peer's hello has 48879 as its game (Config.Game), this peer has 24301: run the same build of the game with the same settings
}

func Example_n007() {
	ev := netplay.Event{Kind: netplay.EventDesyncReport, Player: 1, Step: 120, Report: &netplay.Report{Step: 120, Peer: 1,
		System: "blend", Component: "Ember", Local: "{Heat:3}", Remote: "{Heat:3.0000001}", LocalHash: 0xa1, RemoteHash: 0xb2}}
	fmt.Println(ev.Err())
	// Output:
	// netplay: WEFT-N007: step 120 differs from player 1 (world digest 0xa1 here, 0xb2 there); the first system whose writes differ is "blend": entity 0 (generation 0), component Ember: {Heat:3} here, {Heat:3.0000001} there; a system's writes must depend only on what it reads and the inputs (docs/guide/19-netplay.md)
}

// Counting counts its runs in a global of its own and writes the count into
// the first ember: a step run again writes another value.
type Counting struct {
	ember ecs.Writer[Ember]
	pass  *engine.Pass
}

var countingRuns int

func (s *Counting) Name() string { return "counting" }
func (s *Counting) Build(b *engine.Builder) error {
	d := b.Decl()
	s.ember = ecs.Write[Ember](d)
	s.pass = b.ChunksInOrder("counting", ecs.NewQuery1(d, s.ember), func(c *ecs.Chunk) {
		if c.Index() == 0 {
			s.ember.Column(c)[0].Drift = float64(countingRuns)
		}
	})
	return nil
}
func (s *Counting) Schedule(f *engine.Frame) error { countingRuns++; return f.Run(s.pass) }

// newCountingArena is the arena with Counting after Cool.
func newCountingArena() *Arena {
	countingRuns = 0
	a := newArena(engine.Config{Serial: true}, false)
	a.eng.Close()
	w := ecs.NewWorld(ecs.Options{})
	a = &Arena{w: w, embers: ecs.NewComponent[Ember](w), wind: &Wind{}, pending: w.NewCommands()}
	setup := w.NewCommands()
	for range 100 {
		a.embers.Add(setup, setup.Spawn(), Ember{Heat: 1})
	}
	a.eng, _ = engine.New(w, engine.Config{Serial: true})
	w.Apply(setup)
	if err := errors.Join(ecs.AddResource(w, a.wind), a.eng.Add(engine.Update, &Cool{}),
		a.eng.Add(engine.Update, &Counting{}, engine.After("cool")), a.eng.Build()); err != nil {
		panic(err)
	}
	return a
}

func Example_n008() {
	a := newCountingArena() // Counting counts its runs in a global of its own
	defer a.eng.Close()
	_, err := netplay.SyncTest(a, netplay.SyncTestConfig{Steps: 10, Check: 2})
	fmt.Println(err)
	// Output:
	// netplay: WEFT-N008: a step run again with the same inputs differs: step 0 differs from the run again (world digest 0x94512be38ddd301d here, 0x9032e2f54fa4afde there); the first system whose writes differ is "counting": entity 2 (generation 0), component Ember: {Heat:0.983333334 Drift:4} here, {Heat:0.983333334 Drift:5} there; make that system's writes depend only on what it reads (docs/guide/12-determinism.md)
}

func Example_n009() {
	a := newArena(engine.Config{Serial: true}, false)
	defer a.eng.Close()
	link := netplay.NewSimNet(&netplay.ManualClock{}, 1, netplay.LinkConfig{}).Link("a")
	s, _ := netplay.New(a, &netplay.Inputs[uint8]{}, netplay.Config[uint8]{Players: 2, Peers: []string{"", "b"}, Transport: link})
	s.Close()
	_, err := s.Update(0)
	fmt.Println(err)
	// Output:
	// netplay: WEFT-N009: Update after Close
}

func Example_n010() {
	_, err := netplay.ListenUDP("7777") // no colon: not host:port
	fmt.Println(err)
	// Output:
	// netplay: WEFT-N010: ListenUDP("7777"): not an address:
	// 	address 7777: missing port in address
}

func Example_n011() {
	a := newArena(engine.Config{Serial: true}, false)
	defer a.eng.Close()
	_, err := netplay.SyncTest(a, netplay.SyncTestConfig{Before: func(f int) error {
		return errors.New("no input recorded for this step")
	}})
	fmt.Println(err)
	// Output:
	// netplay: WEFT-N011: the inputs of step 0:
	// 	no input recorded for this step
}
