//go:build !weft_nochecks

package engine_test

// The guide's wrong declaration: caught only in checked mode.

import (
	"fmt"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
)

// Leaky declares Lifetime read-only, then writes it anyway.
type Leaky struct {
	life ecs.Reader[Lifetime]
	pass *engine.Pass
}

func (s *Leaky) Name() string { return "leaky" }

func (s *Leaky) Build(b *engine.Builder) error {
	d := b.Decl()
	s.life = ecs.Read[Lifetime](d) // wrong: the job below writes Lifetime
	s.pass = b.Chunks("tick", ecs.NewQuery1(d, s.life), func(c *ecs.Chunk) {
		life := s.life.Column(c)
		for i := range life {
			life[i].Left-- // compiles: a column is a slice
		}
	})
	return nil
}

func (s *Leaky) Schedule(f *engine.Frame) error { return f.Run(s.pass) }

func leakyError() error {
	eng, err := engine.New(spawnLives(10), engine.Config{Workers: 2})
	if err != nil {
		panic(err)
	}
	defer eng.Close()
	if err := eng.Add(engine.Update, &Leaky{}); err != nil {
		panic(err)
	}
	if err := eng.Build(); err != nil {
		panic(err)
	}
	return eng.Tick() // checks are on unless Config.NoChecks
}

func Example_leaky() {
	fmt.Println(leakyError())
	// Output:
	// engine: WEFT-G009: system "leaky" misused the world in step 1:
	// 	ecs: WEFT-E004: system "leaky" changed Lifetime in chunk 0 (rows 0..10 of table 0), which it declared read-only; declare it with ecs.Write[Lifetime] or stop writing to it
}
