package engine_test

// The code of docs/guide/19-netplay.md, playing together: TestGuide
// checks that its Go blocks appear here verbatim.

import (
	"errors"
	"fmt"
	"time"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
	"github.com/weft-engine/weft/netplay"
)

// Gust is a player's input: what the player did this step, as data.
type Gust struct {
	Push int8 // -1, 0 or 1: the wind the player blows
	Warm bool // the player warms the embers
}

// Blow moves each ember by the gust of the player it belongs to.
type Blow struct {
	ember ecs.Writer[Ember]
	in    ecs.ResReader[netplay.Inputs[Gust]]
	pass  *engine.Pass
}

func (s *Blow) Name() string { return "blow" }

func (s *Blow) Build(b *engine.Builder) error {
	d := b.Decl()
	s.ember, s.in = ecs.Write[Ember](d), ecs.ReadRes[netplay.Inputs[Gust]](d)
	s.pass = b.Chunks("blow", ecs.NewQuery1(d, s.ember), s.blow)
	return nil
}

func (s *Blow) Schedule(f *engine.Frame) error { return f.Run(s.pass) }

func (s *Blow) blow(c *ecs.Chunk) {
	in := s.in.Get() // every player's input for this step
	es, embers := c.Entities(), s.ember.Column(c)
	for i := range embers {
		p := int(es[i].ID()) % 2 // the player this ember belongs to
		if in.Status[p] != netplay.Playing {
			continue // left or timed out: the game decides; here, no wind
		}
		embers[i].Drift += float64(in.In[p].Push) / 60
		if in.In[p].Warm {
			embers[i].Heat += 0.01
		}
	}
}

// newNetArena is the arena of embers played by two: Cool, then Blow,
// which reads the players' inputs.
func newNetArena() (*Arena, *netplay.Inputs[Gust]) {
	w := ecs.NewWorld(ecs.Options{})
	a := &Arena{w: w, embers: ecs.NewComponent[Ember](w), wind: &Wind{}, pending: w.NewCommands()}
	setup := w.NewCommands()
	for i := range 500 {
		a.embers.Add(setup, setup.Spawn(), Ember{Heat: 1 + float64(i%7)})
	}
	a.eng, _ = engine.New(w, engine.Config{Serial: true})
	w.Apply(setup)
	in := &netplay.Inputs[Gust]{}
	err := errors.Join(ecs.AddResource(w, a.wind),
		ecs.AddResource(w, in), // the inputs are a resource of the world
		a.eng.Add(engine.Update, &Cool{}),
		a.eng.Add(engine.Update, &Blow{}, engine.After("cool")),
		a.eng.Build())
	if err != nil {
		panic(err)
	}
	return a, in
}

func Example_netplay() {
	clock := &netplay.ManualClock{} // tests decide the time
	link := netplay.LinkConfig{Delay: 40 * time.Millisecond, Jitter: 20 * time.Millisecond, Loss: 0.05, Reorder: 0.05}
	network := netplay.NewSimNet(clock, 1, link)
	var peers []*netplay.Session[Gust]
	for p := range 2 {
		a, in := newNetArena()
		defer a.eng.Close()
		s, err := netplay.New(a, in, netplay.Config[Gust]{
			Players: 2, Local: p, Peers: []string{"alice", "bob"},
			Transport: network.Link([]string{"alice", "bob"}[p]), // netplay.ListenUDP(":7777") on a real network
			Clock:     clock, Session: 0x5eed, InputDelay: 1, Log: true,
		})
		if err != nil {
			panic(err)
		}
		peers = append(peers, s)
	}
	for frame := range 600 {
		clock.Advance(time.Second / 60)
		for p, s := range peers {
			gust := Gust{Push: int8((frame/20+p)%3 - 1), Warm: frame%50 == p}
			if _, err := s.Update(gust); err != nil { // receive, roll back, step, send
				panic(err)
			}
		}
	}
	a, b := peers[0].Confirmed(), peers[1].Confirmed()
	n := min(len(a), len(b))
	same := n > 500
	for f := range n {
		same = same && a[f] == b[f] // the same inputs and world digest
	}
	st := peers[0].Stats()
	fmt.Println(same, st.Rollbacks > 0, st.MaxDepth <= 8)
	// Output:
	// true true true
}

func Example_netplayReplay() {
	clock := &netplay.ManualClock{}
	network := netplay.NewSimNet(clock, 2, netplay.LinkConfig{Delay: 30 * time.Millisecond})
	var peers []*netplay.Session[Gust]
	for p := range 2 {
		a, in := newNetArena()
		defer a.eng.Close()
		s, _ := netplay.New(a, in, netplay.Config[Gust]{Players: 2, Local: p, Peers: []string{"alice", "bob"},
			Transport: network.Link([]string{"alice", "bob"}[p]), Clock: clock, Session: 0x5eed, Log: true})
		peers = append(peers, s)
	}
	for frame := range 200 {
		clock.Advance(time.Second / 60)
		for p, s := range peers {
			s.Update(Gust{Push: int8((frame/7+p)%3 - 1)})
		}
	}
	fresh, in := newNetArena() // made as the peers' were
	defer fresh.eng.Close()
	err := netplay.Replay(fresh, in, peers[0].Confirmed())
	fmt.Println(err)
	// Output:
	// <nil>
}

func Example_syncTest() {
	a, in := newNetArena()
	defer a.eng.Close()
	n, err := netplay.SyncTest(a, netplay.SyncTestConfig{
		Steps: 120, Check: 4, // after every step, roll back 4 and run them again
		Before: func(f int) error {
			in.In[0], in.Status[0] = Gust{Push: int8(f/10%3 - 1)}, netplay.Playing
			in.In[1], in.Status[1] = Gust{Warm: f%9 == 0}, netplay.Playing
			return nil
		},
	})
	fmt.Println(n, err)
	// Output:
	// 120 <nil>
}
