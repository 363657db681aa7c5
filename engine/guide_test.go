package engine_test

// The code of docs/writing-a-system.md: TestGuide checks that every Go
// block of the guide appears here verbatim, so these Examples compile and
// run it.

import (
	"fmt"
	"os"
	"time"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
)

// Lifetime is how long an entity has left, in seconds.
type Lifetime struct{ Left float64 }

// Expire counts every Lifetime down and despawns the entities whose time
// is up.
type Expire struct {
	life ecs.Writer[Lifetime]
	time ecs.ResReader[engine.Time]
	pass *engine.Pass
}

func (s *Expire) Name() string { return "expire" }

func (s *Expire) Build(b *engine.Builder) error {
	d := b.Decl()
	s.life = ecs.Write[Lifetime](d)      // the jobs change Lifetime
	s.time = ecs.ReadRes[engine.Time](d) // and read the clock
	b.Commands()                         // they despawn through command buffers
	s.pass = b.Chunks("tick", ecs.NewQuery1(d, s.life), s.tick)
	return nil
}

func (s *Expire) Schedule(f *engine.Frame) error { return f.Run(s.pass) }

// tick runs in a job, on one chunk: its rows of Lifetime, its entities and
// its own command buffer, and nothing else.
func (s *Expire) tick(c *ecs.Chunk) {
	dt := s.time.Get().DT
	life, ents := s.life.Column(c), c.Entities()
	for i := range life {
		life[i].Left -= dt
		if life[i].Left <= 0 {
			c.Commands().Despawn(ents[i])
		}
	}
}

// spawnLives makes a world with n entities that live 0, 1, 2 or 3 seconds.
func spawnLives(n int) *ecs.World {
	w := ecs.NewWorld(ecs.Options{})
	lives := ecs.NewComponent[Lifetime](w)
	setup := w.NewCommands()
	for i := range n {
		lives.Add(setup, setup.Spawn(), Lifetime{Left: float64(i % 4)})
	}
	if _, err := w.Apply(setup); err != nil {
		panic(err)
	}
	return w
}

func Example_expire() {
	eng, err := engine.New(spawnLives(1000), engine.Config{Workers: 2, Batch: 128, FixedStep: time.Second})
	if err != nil {
		panic(err)
	}
	defer eng.Close()
	if err := eng.Add(engine.Update, &Expire{}); err != nil {
		panic(err)
	}
	if err := eng.Build(); err != nil {
		panic(err)
	}
	fmt.Print(eng.Explain())
	for range 3 {
		if _, err := eng.Step(time.Second); err != nil {
			panic(err)
		}
		st := eng.Timings().Last().System("expire")
		fmt.Println("step", eng.Time().Step, "entities", st.Entities, "chunk jobs", st.Jobs)
	}
	eng.Timings().WriteTable(os.Stderr) // the whole table, for a terminal
	// Output:
	// systems (execution order):
	//   1. expire [Update commands] writes Lifetime; reads resource Time;
	// edges:
	//   expire -> (end of step)
	//       sync: expire records commands; they play back at the end of the step, in (system, chunk, sequence) order, before merges
	// ambiguities: none
	// step 1 entities 1000 chunk jobs 8
	// step 2 entities 500 chunk jobs 4
	// step 3 entities 250 chunk jobs 2
}

// Countdown is Expire with measures of its own: a marker around its
// loop and a counter of the entities it despawns.
type Countdown struct {
	Expire
	loop    engine.Marker
	expired engine.Counter
}

func (s *Countdown) Name() string { return "countdown" }

func (s *Countdown) Build(b *engine.Builder) error {
	d := b.Decl()
	s.life = ecs.Write[Lifetime](d)
	s.time = ecs.ReadRes[engine.Time](d)
	b.Commands()
	s.loop, s.expired = b.Marker("loop"), b.Counter("expired") // "countdown.loop", "countdown.expired"
	s.pass = b.Chunks("tick", ecs.NewQuery1(d, s.life), s.tick)
	return nil
}

// tick marks and counts with the participant that runs its chunk: each
// participant has its own buffers, so neither locks nor allocates.
func (s *Countdown) tick(c *ecs.Chunk) {
	sp := s.loop.Begin(c.Worker())
	defer sp.End()
	dt := s.time.Get().DT
	life, ents := s.life.Column(c), c.Entities()
	n := 0
	for i := range life {
		life[i].Left -= dt
		if life[i].Left <= 0 {
			c.Commands().Despawn(ents[i])
			n++
		}
	}
	s.expired.Add(c.Worker(), int64(n))
}

func Example_markers() {
	eng, err := engine.New(spawnLives(1000), engine.Config{Workers: 2, Batch: 128, FixedStep: time.Second})
	if err != nil {
		panic(err)
	}
	defer eng.Close()
	eng.Add(engine.Update, &Countdown{})
	if err := eng.Build(); err != nil {
		panic(err)
	}
	for range 3 {
		if _, err := eng.Step(time.Second); err != nil {
			panic(err)
		}
		st := eng.Timings().Last()
		fmt.Println("step", st.Step, st.Counters[0].Name, st.Counters[0].Value, st.Markers[0].Name, "spans", st.Markers[0].Calls)
	}
	// Output:
	// step 1 countdown.expired 500 countdown.loop spans 8
	// step 2 countdown.expired 250 countdown.loop spans 4
	// step 3 countdown.expired 250 countdown.loop spans 2
}
