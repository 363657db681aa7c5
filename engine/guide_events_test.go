package engine_test

// The code of docs/guide/06-events.md and 07-changed.md (events, change
// filters), verbatim: TestGuide checks it.

import (
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
)

// Expired is an event: an entity's time ran out.
type Expired struct{ Entity ecs.Entity }

// Fuse emits an Expired event for every entity whose Lifetime is up.
type Fuse struct {
	life    ecs.Reader[Lifetime]
	expired ecs.Emitter[Expired]
	pass    *engine.Pass
}

func (s *Fuse) Name() string { return "fuse" }

func (s *Fuse) Build(b *engine.Builder) error {
	d := b.Decl()
	s.life = ecs.Read[Lifetime](d)
	s.expired = ecs.Emit[Expired](d) // it emits Expired events
	s.pass = b.Chunks("burn", ecs.NewQuery1(d, s.life), func(c *ecs.Chunk) {
		life, ents := s.life.Column(c), c.Entities()
		for i := range life {
			if life[i].Left <= 0 {
				s.expired.Emit(c, Expired{ents[i]}) // no lock: the chunk's own buffer
			}
		}
	})
	return nil
}

func (s *Fuse) Schedule(f *engine.Frame) error { return f.Run(s.pass) }

// Tally counts the Expired events, on the owner, after the step's jobs.
type Tally struct {
	expired ecs.EventReader[Expired]
	Total   int
}

func (s *Tally) Name() string { return "tally" }

func (s *Tally) Build(b *engine.Builder) error {
	s.expired = ecs.ReadEvents[Expired](b.Decl()) // it runs after every emitter
	return nil
}

func (s *Tally) Schedule(f *engine.Frame) error { return nil }

func (s *Tally) Merge(f *engine.Frame) error {
	s.Total += len(s.expired.Events())
	return nil
}

func Example_events() {
	eng, err := engine.New(spawnLives(1000), engine.Config{Workers: 2, FixedStep: time.Second})
	if err != nil {
		panic(err)
	}
	defer eng.Close()
	tally := &Tally{}
	for _, s := range []engine.System{&Expire{}, &Fuse{}, tally} {
		stage := engine.PostUpdate
		if s.Name() == "expire" {
			stage = engine.Update
		}
		if err := eng.Add(stage, s); err != nil {
			panic(err)
		}
	}
	if err := eng.Build(); err != nil {
		panic(err)
	}
	for _, e := range eng.Explain().Edges {
		if e.To == "tally" {
			fmt.Println(e.From, "->", e.To, e.Causes[0].Kind+":", e.Causes[0].Text)
		}
	}
	for range 3 {
		if _, err := eng.Step(time.Second); err != nil {
			panic(err)
		}
		fmt.Println("step", eng.Time().Step, "expired so far", tally.Total)
	}
	// Output:
	// fuse -> tally events: fuse emits events Expired, tally reads them: it runs after, and sees this step's
	// step 1 expired so far 500
	// step 2 expired so far 750
	// step 3 expired so far 1000
}

// Note is an event that says who emitted it, and in which step.
type Note struct {
	From string
	Step uint64
}

// Say emits one Note a step, from its Schedule.
type Say struct {
	name string
	note ecs.Emitter[Note]
}

func (s *Say) Name() string { return s.name }

func (s *Say) Build(b *engine.Builder) error {
	s.note = ecs.Emit[Note](b.Decl())
	return nil
}

func (s *Say) Schedule(f *engine.Frame) error {
	s.note.EmitOwner(Note{s.name, f.Time().Step})
	return nil
}

// Log writes down the Notes it reads, step by step.
type Log struct {
	notes ecs.EventReader[Note]
	Lines []string
}

func (s *Log) Name() string { return "log" }

func (s *Log) Build(b *engine.Builder) error {
	s.notes = ecs.ReadEvents[Note](b.Decl())
	return nil
}

func (s *Log) Schedule(f *engine.Frame) error {
	line := fmt.Sprint("step ", f.Time().Step, ":")
	for _, n := range s.notes.Events() {
		line += fmt.Sprint(" ", n.From, n.Step)
	}
	s.Lines = append(s.Lines, line)
	return nil
}

// noteOrder runs a (Update), b (PostUpdate), log and c (PreRender, c
// after log) for three steps on a pool of the given workers.
func noteOrder(workers int) string {
	eng, err := engine.New(spawnLives(10), engine.Config{Workers: workers, Serial: workers == 0})
	if err != nil {
		panic(err)
	}
	defer eng.Close()
	log := &Log{}
	eng.Add(engine.Update, &Say{name: "a"})
	eng.Add(engine.PostUpdate, &Say{name: "b"})
	eng.Add(engine.PreRender, log)
	eng.Add(engine.PreRender, &Say{name: "c"}, engine.After("log"))
	if err := eng.Build(); err != nil {
		panic(err)
	}
	for range 3 {
		if err := eng.Tick(); err != nil {
			panic(err)
		}
	}
	return strings.Join(log.Lines, "\n")
}

// Kicked marks the entities that Kick refreshes.
type Kicked struct{}

// Kick gives the Kicked entities a second more, every step.
type Kick struct {
	life ecs.Writer[Lifetime]
	pass *engine.Pass
}

func (s *Kick) Name() string { return "kick" }

func (s *Kick) Build(b *engine.Builder) error {
	d := b.Decl()
	s.life = ecs.Write[Lifetime](d)
	s.pass = b.Chunks("kick", ecs.NewQuery1(d, s.life, ecs.With[Kicked]()), func(c *ecs.Chunk) {
		life := s.life.Column(c) // the blocks whose values this job changes are marked
		for i := range life {
			life[i].Left++
		}
	})
	return nil
}

func (s *Kick) Schedule(f *engine.Frame) error { return f.Run(s.pass) }

// Watch visits only the rows whose Lifetime changed since it last ran.
type Watch struct {
	life ecs.Reader[Lifetime]
	pass *engine.Pass
	Seen atomic.Int64
}

func (s *Watch) Name() string { return "watch" }

func (s *Watch) Build(b *engine.Builder) error {
	d := b.Decl()
	s.life = ecs.Read[Lifetime](d)
	q := ecs.NewQuery1(d, s.life, ecs.Changed(s.life))
	s.pass = b.Chunks("look", q, func(c *ecs.Chunk) { s.Seen.Add(int64(c.Len())) })
	return nil
}

func (s *Watch) Schedule(f *engine.Frame) error { return f.Run(s.pass) }

func Example_changed() {
	w := spawnLives(1000)
	kicked, lives := ecs.NewComponent[Kicked](w), ecs.NewComponent[Lifetime](w)
	setup := w.NewCommands()
	for range 10 {
		e := setup.Spawn()
		lives.Add(setup, e, Lifetime{Left: 5})
		kicked.Add(setup, e, Kicked{})
	}
	if _, err := w.Apply(setup); err != nil {
		panic(err)
	}
	eng, err := engine.New(w, engine.Config{Workers: 2})
	if err != nil {
		panic(err)
	}
	defer eng.Close()
	watch := &Watch{}
	if err := eng.Add(engine.Update, &Kick{}); err != nil {
		panic(err)
	}
	if err := eng.Add(engine.PostUpdate, watch); err != nil {
		panic(err)
	}
	if err := eng.Build(); err != nil {
		panic(err)
	}
	for range 3 {
		if err := eng.Tick(); err != nil {
			panic(err)
		}
		fmt.Println("step", eng.Time().Step, "rows visited", watch.Seen.Swap(0))
	}
	// Output:
	// step 1 rows visited 1010
	// step 2 rows visited 10
	// step 3 rows visited 10
}
