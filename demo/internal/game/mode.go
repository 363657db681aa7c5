package game

import (
	"math"
	"math/rand/v2"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
)

// Mode is the game's state (engine.AddState): the title screen, playing or
// paused. The simulation's systems sit out the Paused steps; the camera
// and culling run in every mode, so a paused world can be looked around. Requests are applied at the start of the next step.
type Mode uint8

// The modes.
const (
	Title Mode = iota
	Playing
	Paused
)

func (m Mode) String() string { return [...]string{"title", "playing", "paused"}[m] }

// The run conditions of the simulation's systems: the fountain runs only
// while Playing; the rest also on the title screen, where the player's
// bursts fall (scoped to Title, they go when the game starts).
var (
	play     = engine.InState(Playing)
	unpaused = engine.WhileRes(func(s *engine.State[Mode]) bool { return s.Current() != Paused })
)

// ModeRequest is the owner-side action a recording keeps of a mode
// request (Start, TogglePause, StepPaused).
type ModeRequest struct {
	Mode    Mode
	Request bool // always set: tells it from a Burst
}

// addModes registers the modes, starting on the title screen if
// cfg.Title; leaving the title sets off the kickoff.
func (g *Game) addModes() error {
	first := Playing
	if g.cfg.Title {
		first = Title
	}
	err := engine.AddState(g.eng, first, Title, Playing, Paused)
	if err == nil {
		err = engine.OnTransition(g.eng, Title, Playing, kickoff{g.comps, g.cfg.Seed})
	}
	if err == nil {
		g.mode, err = engine.StateOf[Mode](g.w)
	}
	return err
}

// kickoff is the exclusive system that runs when the player leaves the
// title screen (engine.OnTransition): a ring of KickoffBodies bodies
// flies out of the world's centre, where the camera starts. Its
// randomness comes from the seed alone, so it is the same on every run.
type kickoff struct {
	c    *comps
	seed uint64
}

// KickoffBodies is the size of the kickoff's ring.
const KickoffBodies = 400

func (k kickoff) Name() string { return "kickoff" }

// Run spawns the ring. Executed only by the owner, at the transition.
func (k kickoff) Run(w *ecs.World, _ engine.Time) error {
	r := rand.New(rand.NewPCG(k.seed, 0x4B1C0FF))
	b, c := w.NewCommands(), k.c
	for i := range KickoffBodies {
		a := 2 * math.Pi * float64(i) / KickoffBodies
		v := 120 + r.Float64()*60
		c.spawnTinted(b, r, c.w/2+6*math.Cos(a), c.h/2+6*math.Sin(a), v*math.Cos(a), v*math.Sin(a)-40, newLife(r, false), fountainTint)
	}
	_, err := w.Apply(b)
	return err
}

// populate spawns cfg.Entities bodies spread over the world, one in 64
// a seeker chasing another body (seekers.go). Executed only by the
// owner, outside a frame.
func (c *comps) populate(w *ecs.World, cfg Config) error {
	r := rand.New(rand.NewPCG(cfg.Seed, 0x9E3779B97F4A7C15))
	setup := w.NewCommands()
	for range cfg.Entities {
		l := newLife(r, true)
		l.Age = r.Float64() * l.Span // staggered, so that bodies expire from the start
		c.spawn(setup, r, 4+r.Float64()*(c.w-8), 4+r.Float64()*(c.h-8), r.NormFloat64()*20, r.NormFloat64()*20, l)
	}
	if _, err := w.Apply(setup); err != nil {
		return err
	}
	cands, err := c.candidates(w)
	if err != nil {
		return err
	}
	b := w.NewCommands()
	if err := c.recruit(b, cands, SeekersFor(cfg.Entities), 0, ecs.Relate[ecs.ChildOf]); err != nil {
		return err
	}
	_, err = w.Apply(b)
	return err
}

// Mode is the game's mode in the last step; Requested the one asked for
// the next, if any.
func (g *Game) Mode() Mode { return g.mode.Current() }

// Requested is the mode asked for the next step, if any.
func (g *Game) Requested() (Mode, bool) { return g.mode.Next() }

// Start leaves the title screen at the next step, which spawns the world;
// in another mode it does nothing.
func (g *Game) Start() error {
	if g.Mode() != Title {
		return nil
	}
	return g.request(Playing)
}

// TogglePause pauses a playing game and resumes a paused one, from the
// next step on; on the title screen it does nothing.
func (g *Game) TogglePause() error {
	switch g.Mode() {
	case Playing:
		return g.request(Paused)
	case Paused:
		return g.request(Playing)
	}
	return nil
}

// StepPaused runs one step of play while paused: that step is Playing,
// and the next is Paused again. Otherwise it is Tick.
func (g *Game) StepPaused() error {
	if g.Mode() != Paused {
		return g.Tick()
	}
	if err := g.request(Playing); err != nil {
		return err
	}
	if err := g.Tick(); err != nil {
		return err
	}
	return g.request(Paused)
}

// request asks for mode m at the next step, and records the request. A
// request while another waits is dropped: one per step (WEFT-G017).
func (g *Game) request(m Mode) error {
	if _, waits := g.mode.Next(); waits {
		return nil
	}
	if g.rec != nil {
		_ = g.rec.Do(ModeRequest{Mode: m, Request: true}) // an error comes back from StopRecording
	}
	return g.mode.Set(m)
}
