package engine_test

// The code of docs/guide/04-lookups.md and 05-reductions.md: TestGuide
// checks that every Go block of the guide appears in one of the guide
// files verbatim.

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
)

// Pos is where an entity is, Vel how fast it moves per second.
type (
	Pos struct{ X, Y float64 }
	Vel struct{ X, Y float64 }
)

// Chase makes an entity run toward Target at Speed.
type Chase struct {
	Target ecs.Entity
	Speed  float64
}

// Seek turns every chaser's Vel toward its target's Pos, wherever the
// target lives.
type Seek struct {
	target ecs.LookupReader[Pos] // any entity's Pos
	chase  ecs.Reader[Chase]
	pos    ecs.Reader[Pos] // the chaser's own
	vel    ecs.Writer[Vel]
	pass   *engine.Pass
}

func (s *Seek) Name() string { return "seek" }

func (s *Seek) Build(b *engine.Builder) error {
	d := b.Decl()
	s.target = ecs.ReadLookup[Pos](d) // a read of Pos in every entity
	s.chase, s.pos, s.vel = ecs.Read[Chase](d), ecs.Read[Pos](d), ecs.Write[Vel](d)
	s.pass = b.Chunks("steer", ecs.NewQuery3(d, s.chase, s.pos, s.vel), s.steer)
	return nil
}

func (s *Seek) Schedule(f *engine.Frame) error { return f.Run(s.pass) }

func (s *Seek) steer(c *ecs.Chunk) {
	chase, pos, vel := s.chase.Column(c), s.pos.Column(c), s.vel.Column(c)
	for i := range chase {
		to, ok := s.target.Get(chase[i].Target)
		if !ok {
			vel[i] = Vel{} // the target is gone: stop
			continue
		}
		dx, dy := to.X-pos[i].X, to.Y-pos[i].Y
		if d := math.Hypot(dx, dy); d > 0 {
			vel[i] = Vel{dx / d * chase[i].Speed, dy / d * chase[i].Speed}
		}
	}
}

// Move adds Vel to Pos, one second a step.
type Move struct {
	pos  ecs.Writer[Pos]
	vel  ecs.Reader[Vel]
	pass *engine.Pass
}

func (s *Move) Name() string { return "move" }

func (s *Move) Build(b *engine.Builder) error {
	d := b.Decl()
	s.pos, s.vel = ecs.Write[Pos](d), ecs.Read[Vel](d)
	s.pass = b.Chunks("move", ecs.NewQuery2(d, s.pos, s.vel), func(c *ecs.Chunk) {
		pos, vel := s.pos.Column(c), s.vel.Column(c)
		for i := range pos {
			pos[i].X += vel[i].X
			pos[i].Y += vel[i].Y
		}
	})
	return nil
}

func (s *Move) Schedule(f *engine.Frame) error { return f.Run(s.pass) }

// chasers makes a world with a sheep at (10, 0), a wolf that chases it,
// and a wolf whose prey is already gone. The wolves' Target is a
// placeholder until the buffer plays.
func chasers() *ecs.World {
	w := ecs.NewWorld(ecs.Options{})
	places, wolves := ecs.NewComponent[Pos](w), ecs.NewSpawner3[Pos, Vel, Chase](w)
	b := w.NewCommands()
	sheep, gone := b.Spawn(), b.Spawn()
	places.Add(b, sheep, Pos{10, 0})
	places.Add(b, gone, Pos{0, 5})
	b.Despawn(gone)
	wolves.Spawn(b, Pos{}, Vel{}, Chase{Target: sheep, Speed: 2})
	wolves.Spawn(b, Pos{}, Vel{}, Chase{Target: gone, Speed: 2})
	if _, err := w.Apply(b); err != nil {
		panic(err)
	}
	return w
}

func Example_seek() {
	w := chasers()
	eng, err := engine.New(w, engine.Config{Workers: 2})
	if err != nil {
		panic(err)
	}
	defer eng.Close()
	if err := eng.Add(engine.PreUpdate, &Seek{}); err != nil {
		panic(err)
	}
	if err := eng.Add(engine.Update, &Move{}); err != nil {
		panic(err)
	}
	if err := eng.Build(); err != nil {
		panic(err)
	}
	fmt.Print(eng.Explain())
	for range 3 {
		if err := eng.Tick(); err != nil {
			panic(err)
		}
	}
	wolves, err := w.Entities(ecs.NewComponent[Chase](w))
	if err != nil {
		panic(err)
	}
	for wolf := range wolves {
		at, _ := ecs.Get[Pos](w, wolf)
		fmt.Println("a wolf is at", at)
	}
	// Output:
	// systems (execution order):
	//   1. seek [PreUpdate] writes Vel; reads Pos, Chase; looks up Pos;
	//   2. move [Update] writes Pos; reads Vel;
	// edges:
	//   seek -> move
	//       lookup: seek reads Pos through a lookup (any entity), move writes it (stage order)
	//       conflict: seek writes Vel, move reads it (stage order)
	// ambiguities: none
	// a wolf is at {6 0}
	// a wolf is at {0 0}
}

// Census is the number of chasers whose target is alive, each step.
type Census struct{ Chasing int }

// Count counts, chunk by chunk, the chasers whose target is alive, and
// adds the chunks' counts into Census on the owner.
type Count struct {
	target ecs.LookupReader[Pos]
	chase  ecs.Reader[Chase]
	census ecs.ResWriter[Census]
	found  *ecs.Reduction[int]
	pass   *engine.Pass
}

func (s *Count) Name() string { return "count" }

func (s *Count) Build(b *engine.Builder) error {
	d := b.Decl()
	s.target, s.chase = ecs.ReadLookup[Pos](d), ecs.Read[Chase](d)
	s.census = ecs.WriteRes[Census](d)
	q := ecs.NewQuery1(d, s.chase)
	s.found = ecs.NewReduction[int](q) // one count per chunk
	s.pass = b.Chunks("count", q, func(c *ecs.Chunk) {
		n := 0
		for _, ch := range s.chase.Column(c) {
			if s.target.Has(ch.Target) {
				n++
			}
		}
		*s.found.Part(c) = n // the chunk's own partial: no race
	})
	return nil
}

func (s *Count) Schedule(f *engine.Frame) error { return f.Run(s.pass) }

// Merge runs on the owner after every job: it adds the chunks' counts in
// chunk order, so the sum is the same for every worker count.
func (s *Count) Merge(f *engine.Frame) error {
	sum := 0
	for _, n := range s.found.Parts() {
		sum += n
	}
	s.census.Get().Chasing = sum
	return nil
}

func Example_count() {
	w := chasers()
	census := &Census{}
	if err := ecs.AddResource(w, census); err != nil { // before Build
		panic(err)
	}
	eng, err := engine.New(w, engine.Config{Workers: 2})
	if err != nil {
		panic(err)
	}
	defer eng.Close()
	if err := eng.Add(engine.Update, &Count{}); err != nil {
		panic(err)
	}
	if err := eng.Build(); err != nil {
		panic(err)
	}
	if err := eng.Tick(); err != nil {
		panic(err)
	}
	fmt.Println("chasing:", census.Chasing)
	// Output:
	// chasing: 1
}

// Racy counts into the resource from the chunk jobs directly.
type Racy struct {
	chase  ecs.Reader[Chase]
	census ecs.ResWriter[Census]
	pass   *engine.Pass
}

func (s *Racy) Name() string { return "racy" }

func (s *Racy) Build(b *engine.Builder) error {
	d := b.Decl()
	s.chase, s.census = ecs.Read[Chase](d), ecs.WriteRes[Census](d)
	s.pass = b.Chunks("count", ecs.NewQuery1(d, s.chase), func(c *ecs.Chunk) {
		s.census.Get().Chasing += c.Len() // wrong: chunk jobs run at the same time
	})
	return nil
}

func (s *Racy) Schedule(f *engine.Frame) error { return f.Run(s.pass) }

func racyError() error {
	w := chasers()
	if err := ecs.AddResource(w, &Census{}); err != nil {
		panic(err)
	}
	eng, err := engine.New(w, engine.Config{Workers: 2})
	if err != nil {
		panic(err)
	}
	defer eng.Close()
	if err := eng.Add(engine.Update, &Racy{}); err != nil {
		panic(err)
	}
	if err := eng.Build(); err != nil {
		panic(err)
	}
	return eng.Tick()
}

// The error the guide shows is the one the engine gives.
func TestGuideRacyError(t *testing.T) {
	err := racyError()
	require.ErrorIs(t, err, ecs.ErrRacyWrite)
	var ee *ecs.Error
	require.ErrorAs(t, err, &ee)
	assert.True(t, strings.Contains(guideText(t), "```text\n"+ee.Error()+"\n```"), "the guide shows the error as it is:\n%s", ee.Error())
}
