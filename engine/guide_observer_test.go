package engine_test

// The code of docs/guide/17-observers.md, hooks and observers: TestGuide
// checks that its Go blocks appear here verbatim.

import (
	"fmt"
	"strings"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
)

// Hull is a ship's place and what it has left; at 0 it is destroyed.
type Hull struct{ X, HP int }

// Wreck is what a destroyed ship leaves where it was.
type Wreck struct{ X int }

// Kills counts the ships destroyed.
type Kills struct{ N int }

// Hits takes a point off every hull each step and despawns the hulls
// that reach 0. It knows nothing of kills or wrecks.
type Hits struct {
	hull ecs.Writer[Hull]
	pass *engine.Pass
}

func (s *Hits) Name() string { return "hits" }

func (s *Hits) Build(b *engine.Builder) error {
	d := b.Decl()
	s.hull = ecs.Write[Hull](d)
	b.Commands()
	s.pass = b.Chunks("hit", ecs.NewQuery1(d, s.hull), func(c *ecs.Chunk) {
		hull := s.hull.Column(c)
		for i, e := range c.Entities() {
			if hull[i].HP--; hull[i].HP <= 0 {
				c.Commands().Despawn(e)
			}
		}
	})
	return nil
}

func (s *Hits) Schedule(f *engine.Frame) error { return f.Run(s.pass) }

// Salvage is called for every ship despawned, whoever despawns it: it
// counts the kill and leaves a wreck where the ship was.
type Salvage struct {
	hull  ecs.LookupReader[Hull]
	kills ecs.ResWriter[Kills]
	wreck ecs.Component[Wreck]
}

func (o *Salvage) Name() string { return "salvage" }

func (o *Salvage) Build(b *engine.ObserverBuilder) error {
	d := b.Decl()
	o.hull, o.kills = ecs.ReadLookup[Hull](d), ecs.WriteRes[Kills](d)
	o.wreck = ecs.NewComponent[Wreck](b.World())
	ecs.Observe[Hull](d, ecs.OnDespawn)
	return nil
}

func (o *Salvage) Observe(ev ecs.Observed) error {
	h, _ := o.hull.Get(ev.Entity) // still there: it goes after its observers
	o.kills.Get().N++
	w := ev.Commands.Spawn() // plays in this playback, after the despawns
	o.wreck.Add(ev.Commands, w, Wreck{X: h.X})
	return nil
}

// fleet makes an engine with n ships whose HP is 1 + i%3, and Hits and
// Salvage added.
func fleet(cfg engine.Config, n int) (*ecs.World, *engine.Engine, *Kills) {
	kills := &Kills{}
	w := ships(n)
	ecs.AddResource(w, kills)
	return w, withHits(w, cfg, func(eng *engine.Engine) { eng.AddObserver(&Salvage{}) }), kills
}

// ships makes a world with n ships whose HP is 1 + i%3.
func ships(n int) *ecs.World {
	w := ecs.NewWorld(ecs.Options{})
	hull := ecs.NewComponent[Hull](w)
	setup := w.NewCommands()
	for i := range n {
		hull.Add(setup, setup.Spawn(), Hull{X: i, HP: 1 + i%3})
	}
	w.Apply(setup)
	return w
}

// withHits is an engine over w with Hits and what add adds, built.
func withHits(w *ecs.World, cfg engine.Config, add func(eng *engine.Engine)) *engine.Engine {
	eng, _ := engine.New(w, cfg)
	eng.Add(engine.Update, &Hits{})
	add(eng)
	if err := eng.Build(); err != nil {
		panic(err)
	}
	return eng
}

func Example_observer() {
	w, eng, kills := fleet(engine.Config{Workers: 2}, 6)
	defer eng.Close()
	for step := 1; step <= 2; step++ {
		err := eng.Tick()
		wrecks, _ := w.Entities(ecs.NewComponent[Wreck](w))
		fmt.Printf("step %d: %v, %d kills, wrecks at", step, err, kills.N)
		for e := range wrecks {
			wr, _ := ecs.Get[Wreck](w, e)
			fmt.Print(" ", wr.X)
		}
		fmt.Println()
	}
	// Output:
	// step 1: <nil>, 2 kills, wrecks at 0 3
	// step 2: <nil>, 4 kills, wrecks at 0 3 1 4
}

// Shot is an event: the ship at X fired.
type Shot struct{ X int }

// Tracer is the streak a shot leaves, for Steps steps.
type Tracer struct{ X, Steps int }

// Guns fires from every hull each step, in its chunk jobs.
type Guns struct {
	hull ecs.Reader[Hull]
	shot ecs.Emitter[Shot]
	pass *engine.Pass
}

func (s *Guns) Name() string { return "guns" }

func (s *Guns) Build(b *engine.Builder) error {
	d := b.Decl()
	s.hull, s.shot = ecs.Read[Hull](d), ecs.Emit[Shot](d)
	s.pass = b.Chunks("fire", ecs.NewQuery1(d, s.hull), func(c *ecs.Chunk) {
		for _, h := range s.hull.Column(c) {
			s.shot.Emit(c, Shot{X: h.X})
		}
	})
	return nil
}

func (s *Guns) Schedule(f *engine.Frame) error { return f.Run(s.pass) }

// Tracers leaves a tracer for every shot, whoever fired it.
type Tracers struct{ tracer ecs.Component[Tracer] }

func (o *Tracers) Name() string { return "tracers" }

func (o *Tracers) Build(b *engine.ObserverBuilder) error {
	o.tracer = ecs.NewComponent[Tracer](b.World())
	ecs.ObserveEvent[Shot](b.Decl())
	return nil
}

func (o *Tracers) Observe(ev ecs.Observed) error {
	s, _ := ecs.EventOf[Shot](ev) // a copy; nothing is allocated
	o.tracer.Add(ev.Commands, ev.Commands.Spawn(), Tracer{X: s.X, Steps: 3})
	return nil
}

// armada makes an engine with n ships whose HP is 1 + i%3, with Hits,
// Guns and Tracers added.
func armada(cfg engine.Config, n int) (*ecs.World, *engine.Engine) {
	w := ships(n)
	return w, withHits(w, cfg, func(eng *engine.Engine) {
		eng.Add(engine.Update, &Guns{}, engine.After("hits"))
		eng.AddObserver(&Tracers{})
	})
}

func Example_eventObserver() {
	w, eng := armada(engine.Config{Workers: 2}, 6)
	defer eng.Close()
	tracers := ecs.NewComponent[Tracer](w)
	for step := 1; step <= 2; step++ {
		err := eng.Tick()
		fmt.Printf("step %d: %v, %d tracers\n", step, err, w.Count(tracers))
	}
	// Output:
	// step 1: <nil>, 6 tracers
	// step 2: <nil>, 10 tracers
}

func Example_eventObserverExplain() {
	_, eng := armada(engine.Config{Serial: true}, 1)
	defer eng.Close()
	x := eng.Explain().String()
	fmt.Print(x[strings.Index(x, "observers"):])
	// Output:
	// observers (at playback, in this order for one change or event):
	//   1. tracers [observer commands] observes OnEvent Shot;
	// ambiguities: none
}

// Ledger prints every add and set of a Hull.
type Ledger struct{ hull ecs.LookupReader[Hull] }

func (o *Ledger) Name() string { return "ledger" }

func (o *Ledger) Build(b *engine.ObserverBuilder) error {
	d := b.Decl()
	o.hull = ecs.ReadLookup[Hull](d)
	ecs.Observe[Hull](d, ecs.OnAdd)
	ecs.Observe[Hull](d, ecs.OnSet)
	return nil
}

func (o *Ledger) Observe(ev ecs.Observed) error {
	h, _ := o.hull.Get(ev.Entity)
	fmt.Println(ev.Trigger, h.HP)
	return nil
}

func Example_spawnAddAdd() {
	w := ecs.NewWorld(ecs.Options{})
	eng, _ := engine.New(w, engine.Config{Serial: true})
	defer eng.Close()
	eng.AddObserver(&Ledger{})
	eng.Build()
	hull := ecs.NewComponent[Hull](w)
	b := w.NewCommands()
	e := b.Spawn()
	hull.Add(b, e, Hull{HP: 1})
	hull.Add(b, e, Hull{HP: 2}) // still the spawn: it is made with HP 2
	hull.Set(b, e, Hull{HP: 3}) // a command of its own
	w.Apply(b)
	// Output:
	// OnAdd 2
	// OnSet 3
}
