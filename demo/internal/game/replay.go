package game

import (
	"errors"
	"io"
	"time"

	"github.com/weft-engine/weft/replay"
)

// The game is a replay.Sim: a recording keeps its input, camera, fountain
// switch, bursts and mode requests step by step, and plays them back into a game made
// from the recording's Meta.

// Burst is the owner-side action a recording keeps of SpawnBurst: played
// back, it makes the same bodies, from the owner's generator in the same
// state.
type Burst struct {
	X, Y float64
	N    int
}

// Meta is what a recording keeps of the game's configuration: the scene
// is made from it again. The worker count and batch size are not kept:
// a replay gives the same steps on any.
type Meta struct {
	Entities int
	Seed     uint64
	Title    bool // it started on the title screen
}

// Record starts recording the game into w from the next step on, until
// StopRecording or Close. Executed only by the owner, between steps.
func (g *Game) Record(w io.Writer) error {
	if g.rec != nil {
		return errors.New("game: Record while recording; call StopRecording first")
	}
	r, err := replay.NewRecorder(w, g, Meta{Entities: g.cfg.Entities, Seed: g.cfg.Seed, Title: g.cfg.Title})
	if err != nil {
		return err
	}
	g.rec = r
	return nil
}

// StopRecording ends the recording, if one runs, and returns its error.
func (g *Game) StopRecording() error {
	if g.rec == nil {
		return nil
	}
	err := g.rec.Close()
	g.rec = nil
	return err
}

// FromRecording makes the game that rec was recorded from, with cfg's
// worker count, batch size and checks, and a player that plays rec into
// it.
func FromRecording(rec *replay.Recording, cfg Config) (*Game, *replay.Player, error) {
	var m Meta
	if err := rec.Meta(&m); err != nil {
		return nil, nil, err
	}
	cfg.Entities, cfg.Seed, cfg.Title = m.Entities, m.Seed, m.Title
	g, err := New(cfg)
	if err != nil {
		return nil, nil, err
	}
	p, err := replay.NewPlayer(rec, g)
	if err != nil {
		return nil, nil, errors.Join(err, g.Close())
	}
	return g, p, nil
}

// Do carries out a recorded action again (replay.Sim).
func (g *Game) Do(action []byte) error {
	var a struct { // a Burst or a ModeRequest, told apart by Request
		Burst
		ModeRequest
	}
	if err := replay.Decode(action, &a); err != nil {
		return err
	}
	if a.Request {
		return g.mode.Set(a.Mode)
	}
	g.spawnBurst(a.X, a.Y, a.N)
	return nil
}

// Digest is the world's digest after a step (replay.Sim): the bodies'
// positions and velocities, as Hash covers them, by the cheaper
// ecs.World.Digest; the systems' digests cover the other components.
func (g *Game) Digest() (uint64, error) {
	c := g.comps
	return g.w.Digest(c.pos, c.vel)
}

// Resources are the resources the owner sets between steps (replay.Sim).
func (g *Game) Resources() []replay.Resource {
	return []replay.Resource{replay.Track("fountain", g.fountain)}
}

// frame tells the recording, if one runs, that a Step call of dt starts.
func (g *Game) frame(dt time.Duration) {
	if g.rec != nil {
		g.rec.Frame(dt)
	}
}
