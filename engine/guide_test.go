package engine_test

// The code of the tutorial (docs/writing-a-system.md) and of the guide's
// chapters 1 to 3 and 8 to 11: TestGuide checks that every Go block of
// the guide appears here or in a sibling verbatim, so these Examples
// compile and run it.

import (
	"fmt"
	"os"
	"sync/atomic"
	"time"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
	"github.com/weft-engine/weft/profile"
)

// Lifetime is how long an entity has left, in seconds.
type Lifetime struct{ Left float64 }

// Size is how large an entity is drawn.
type Size struct{ R float64 }

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
	eng, err := engine.New(spawnGame(1000), engine.Config{Workers: 2, Batch: 128, FixedStep: time.Second})
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
	prof := profile.New(eng, profile.Options{}) // the steps' timings
	for range 3 {
		if _, err := eng.Step(time.Second); err != nil {
			panic(err)
		}
		st := prof.Last().System("expire")
		fmt.Println("step", eng.Time().Step, "entities", st.Entities, "chunk jobs", st.Jobs)
	}
	prof.WriteTable(os.Stderr) // the whole table, for a terminal
	// Output:
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
	prof := profile.New(eng, profile.Options{}) // the steps' timings
	for range 3 {
		if _, err := eng.Step(time.Second); err != nil {
			panic(err)
		}
		st := prof.Last()
		fmt.Println("step", st.Step, st.Counters[0].Name, st.Counters[0].Value, st.Markers[0].Name, "spans", st.Markers[0].Calls)
	}
	// Output:
	// step 1 countdown.expired 500 countdown.loop spans 8
	// step 2 countdown.expired 250 countdown.loop spans 4
	// step 3 countdown.expired 250 countdown.loop spans 2
}

// Paused is the game's pause switch, a resource the game sets between steps.
type Paused struct{ On bool }

func Example_runConditions() {
	w := spawnLives(1000)
	paused := &Paused{}
	if err := ecs.AddResource(w, paused); err != nil {
		panic(err)
	}
	eng, err := engine.New(w, engine.Config{Workers: 2, FixedStep: time.Second})
	if err != nil {
		panic(err)
	}
	defer eng.Close()
	err = eng.Add(engine.Update, &Expire{},
		engine.WhileRes(func(p *Paused) bool { return !p.On }), // while the game is not paused
		engine.EveryN(2), // and only in every second step
	)
	if err != nil {
		panic(err)
	}
	if err := eng.Build(); err != nil {
		panic(err)
	}
	prof := profile.New(eng, profile.Options{}) // the steps' timings
	for step := 1; step <= 6; step++ {
		paused.On = step >= 5 // the game pauses before step 5
		if _, err := eng.Step(time.Second); err != nil {
			panic(err)
		}
		st := prof.Last().System("expire")
		fmt.Println("step", step, "ran", st.Ran, "skipped", st.Skipped, "entities", st.Entities)
	}
	// Output:
	// step 1 ran false skipped true entities 0
	// step 2 ran true skipped false entities 1000
	// step 3 ran false skipped true entities 0
	// step 4 ran true skipped false entities 500
	// step 5 ran false skipped true entities 0
	// step 6 ran false skipped true entities 0
}

// Headcount counts the entities that have a Lifetime; it only reads.
type Headcount struct {
	name  string
	life  ecs.Reader[Lifetime]
	pass  *engine.Pass
	count atomic.Int64
}

func (s *Headcount) Name() string { return s.name }

func (s *Headcount) Build(b *engine.Builder) error {
	s.life = ecs.Read[Lifetime](b.Decl())
	s.pass = b.Chunks("count", ecs.NewQuery1(b.Decl(), s.life), func(c *ecs.Chunk) {
		s.count.Add(int64(len(s.life.Column(c))))
	})
	return nil
}

func (s *Headcount) Schedule(f *engine.Frame) error { return f.Run(s.pass) }

func Example_systemSets() {
	eng, err := engine.New(spawnLives(1000), engine.Config{Workers: 2})
	if err != nil {
		panic(err)
	}
	defer eng.Close()
	// The set "stats": its members run after expire, in every 10th step.
	must := func(err error) {
		if err != nil {
			panic(err)
		}
	}
	must(eng.Set("stats", engine.After("expire"), engine.EveryN(10), engine.InStage(engine.Update)))
	must(eng.Add(engine.Update, &Headcount{name: "census"}, engine.InSet("stats")))
	must(eng.Add(engine.Update, &Headcount{name: "histogram"}, engine.InSet("stats")))
	must(eng.Add(engine.Update, &Expire{}))
	must(eng.Add(engine.PostUpdate, &Headcount{name: "report"}, engine.After("stats")))
	must(eng.Build())
	prof := profile.New(eng, profile.Options{}) // the steps' timings
	fmt.Print(eng.Explain())
	for range 20 {
		must(eng.Tick())
		if st := prof.Last(); st.System("census").Ran {
			fmt.Println("stats ran in step", st.Step)
		}
	}
	// Output:
	// systems (execution order):
	//   1. expire [Update commands] writes Lifetime; reads resource Time;
	//   2. census [Update] reads Lifetime; in sets stats; runs if stats: EveryN(10);
	//   3. histogram [Update] reads Lifetime; in sets stats; runs if stats: EveryN(10);
	//   4. report [PostUpdate] reads Lifetime;
	// edges:
	//   expire -> census
	//       set: set "stats" (census is in it) is After expire
	//       conflict: expire writes Lifetime, census reads it (explicit order)
	//   expire -> histogram
	//       set: set "stats" (histogram is in it) is After expire
	//       conflict: expire writes Lifetime, histogram reads it (explicit order)
	//   expire -> report
	//       conflict: expire writes Lifetime, report reads it (stage order)
	//   census -> report
	//       set: report is After set "stats" (census is in it)
	//   histogram -> report
	//       set: report is After set "stats" (histogram is in it)
	//   expire -> (end of step)
	//       sync: expire records commands; they play back at the end of the step, in (system, query, chunk, sequence) order, before merges
	// ambiguities: none
	// stats ran in step 10
	// stats ran in step 20
}

// Target is the entity that an entity follows.
type Target struct{ Of ecs.Entity }

// Swarm leaves a leader and three followers where a Lifetime runs out.
type Swarm struct {
	life   ecs.Reader[Lifetime]
	target ecs.Component[Target]
	lives  ecs.Component[Lifetime]
	pass   *engine.Pass
}

func (s *Swarm) Name() string { return "swarm" }

func (s *Swarm) Build(b *engine.Builder) error {
	d := b.Decl()
	s.life = ecs.Read[Lifetime](d)
	s.target = ecs.NewComponent[Target](b.World()) // handles record commands
	s.lives = ecs.NewComponent[Lifetime](b.World())
	b.Commands()
	s.pass = b.Chunks("hatch", ecs.NewQuery1(d, s.life), s.hatch)
	return nil
}

func (s *Swarm) Schedule(f *engine.Frame) error { return f.Run(s.pass) }

func (s *Swarm) hatch(c *ecs.Chunk) {
	cmds := c.Commands()
	for _, l := range s.life.Column(c) {
		if l.Left > 0 {
			continue
		}
		leader := cmds.Spawn() // a placeholder until playback
		s.lives.Add(cmds, leader, Lifetime{Left: 10})
		for range 3 {
			s.target.Add(cmds, cmds.Spawn(), Target{Of: leader}) // becomes the real leader
		}
	}
}

func Example_swarm() {
	w := spawnLives(4) // lives of 0, 1, 2 and 3 seconds
	eng, err := engine.New(w, engine.Config{Workers: 2, Batch: 1, FixedStep: time.Second})
	if err != nil {
		panic(err)
	}
	defer eng.Close()
	if err := eng.Add(engine.Update, &Swarm{}); err != nil {
		panic(err)
	}
	if err := eng.Build(); err != nil {
		panic(err)
	}
	if _, err := eng.Step(time.Second); err != nil {
		panic(err)
	}
	followers, err := w.Entities(ecs.NewComponent[Target](w))
	if err != nil {
		panic(err)
	}
	for e := range followers {
		t, _ := ecs.Get[Target](w, e)
		l, err := ecs.Get[Lifetime](w, t.Of)
		fmt.Println(e, "follows", t.Of, "with", l.Left, "seconds left", err)
	}
	// Output:
	// {7 0} follows {6 0} with 10 seconds left <nil>
	// {8 0} follows {6 0} with 10 seconds left <nil>
	// {9 0} follows {6 0} with 10 seconds left <nil>
}

// Glow is a light some entities carry.
type Glow struct{ Strength float64 }

// Fade counts lifetimes down and dims the glow of those that have one.
type Fade struct {
	life ecs.Writer[Lifetime]
	glow ecs.Writer[Glow]
	pass *engine.Pass
}

func (s *Fade) Name() string { return "fade" }

func (s *Fade) Build(b *engine.Builder) error {
	d := b.Decl()
	s.life, s.glow = ecs.Write[Lifetime](d), ecs.Write[Glow](d)
	s.pass = b.Chunks("fade", ecs.NewQuery1(d, s.life, ecs.Optional(s.glow)), s.fade)
	return nil
}

func (s *Fade) Schedule(f *engine.Frame) error { return f.Run(s.pass) }

func (s *Fade) fade(c *ecs.Chunk) {
	life, glow := s.life.Column(c), s.glow.Column(c) // glow is nil where the table has no Glow
	for i := range life {
		life[i].Left--
		if glow != nil {
			glow[i].Strength /= 2
		}
	}
}

func Example_fade() {
	w := spawnLives(8) // Lifetime 0, 1, 2, 3, 0, 1, 2, 3
	glows := ecs.NewComponent[Glow](w)
	add := w.NewCommands()
	lit, err := w.Entities(ecs.NewComponent[Lifetime](w))
	if err != nil {
		panic(err)
	}
	for e := range lit {
		if l, _ := ecs.Get[Lifetime](w, e); l.Left >= 2 {
			glows.Add(add, e, Glow{Strength: 1})
		}
	}
	if _, err := w.Apply(add); err != nil {
		panic(err)
	}
	eng, err := engine.New(w, engine.Config{Workers: 2, Batch: 2})
	if err != nil {
		panic(err)
	}
	defer eng.Close()
	if err := eng.Add(engine.Update, &Fade{}); err != nil {
		panic(err)
	}
	if err := eng.Build(); err != nil {
		panic(err)
	}
	if err := eng.Tick(); err != nil {
		panic(err)
	}
	all, err := w.Entities(ecs.NewComponent[Lifetime](w))
	if err != nil {
		panic(err)
	}
	for e := range all {
		l, _ := ecs.Get[Lifetime](w, e)
		g, err := ecs.Get[Glow](w, e)
		fmt.Println(e, l.Left, g.Strength, err == nil)
	}
	// Output:
	// {2 0} -1 0 false
	// {3 0} 0 0 false
	// {6 0} -1 0 false
	// {7 0} 0 0 false
	// {4 0} 1 0.5 true
	// {5 0} 2 0.5 true
	// {8 0} 1 0.5 true
	// {9 0} 2 0.5 true
}

// Smooth works on a buffer of its own in ranges, and marks each range:
// RangeWorker passes the participant that runs it.
type Smooth struct {
	pass *engine.Pass
	mark engine.Marker
	buf  []float64
}

func (s *Smooth) Name() string { return "smooth" }

func (s *Smooth) Build(b *engine.Builder) error {
	s.buf = make([]float64, 4096)
	s.mark = b.Marker("range")
	s.pass = b.RangeWorker("average", func(worker, lo, hi int) {
		sp := s.mark.Begin(worker)
		for i := lo; i < hi; i++ {
			s.buf[i] = s.buf[i]*0.5 + 1
		}
		sp.End()
	})
	return nil
}

func (s *Smooth) Schedule(f *engine.Frame) error { return f.RunRange(s.pass, len(s.buf), 1024) }

func Example_rangeMarkers() {
	eng, err := engine.New(ecs.NewWorld(ecs.Options{}), engine.Config{Workers: 2})
	if err != nil {
		panic(err)
	}
	defer eng.Close()
	eng.Add(engine.Update, &Smooth{})
	if err := eng.Build(); err != nil {
		panic(err)
	}
	prof := profile.New(eng, profile.Options{}) // the steps' timings
	if err := eng.Tick(); err != nil {
		panic(err)
	}
	m := prof.Last().Markers[0]
	fmt.Println(m.Name, "spans", m.Calls)
	// Output:
	// smooth.range spans 4
}
