package game

import (
	"math/rand/v2"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
)

// Fountain switches the fountain on and off: a resource that the game
// sets between steps (key J in the window) and that the fountain's run
// condition reads.
type Fountain struct{ On bool }

// The fountain's rhythm.
const (
	FountainEvery = 30  // steps between two jets
	FountainJet   = 120 // bodies per jet
)

// fountain shoots a jet of short-lived bodies up from the middle of the
// world. It shows run conditions: it is added with EveryN(FountainEvery)
// and WhileRes[Fountain], so it runs only in every 30th step while the
// fountain is on, and sits the other steps out (the overlay and the
// timings show it skipped). It is exclusive: it runs on the owner at the
// start of PreUpdate, the world unlocked, and spawns directly. Its
// randomness is seeded by the step, so the world is the same for every
// worker count and batch size.
type fountain struct {
	c    *comps
	seed uint64
	src  *rand.PCG
	rng  *rand.Rand
	cmd  *ecs.Commands
}

// fountainTint makes the fountain's bodies stand out.
var fountainTint = engine.Color{R: 0.35, G: 0.85, B: 1, A: 1}

func newFountain(c *comps, seed uint64, w *ecs.World) *fountain {
	src := rand.NewPCG(0, 0)
	return &fountain{c: c, seed: seed, src: src, rng: rand.New(src), cmd: w.NewCommands()}
}

func (f *fountain) Name() string { return "fountain" }

// Run records the jet and plays it back. Executed only by the owner, at
// the start of PreUpdate, in the steps where the fountain's conditions hold.
func (f *fountain) Run(w *ecs.World, t engine.Time) error {
	f.src.Seed(f.seed, t.Step)
	x, y := f.c.w/2+f.rng.NormFloat64()*f.c.w/20, f.c.h/2+f.c.h/6 // below the centre, where the camera starts
	for range FountainJet {
		f.c.spawnTinted(f.cmd, f.rng, x+f.rng.NormFloat64()*3, y, f.rng.NormFloat64()*12, -150-f.rng.Float64()*80, newLife(f.rng, false), fountainTint)
	}
	_, err := w.Apply(f.cmd)
	return err
}

// SetFountain switches the fountain on or off from the next step on.
func (g *Game) SetFountain(on bool) { g.fountain.On = on }

// FountainOn reports whether the fountain is on.
func (g *Game) FountainOn() bool { return g.fountain.On }
