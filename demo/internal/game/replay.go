package game

import (
	"errors"
	"fmt"
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

// Recording reports whether the game records (Record).
func (g *Game) Recording() bool { return g.rec != nil }

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

// EqualVerdict says that a replay of rec, from path, played every step
// equal to the recording on workers and batch: the line the window and
// the headless command print.
func EqualVerdict(path string, rec *replay.Recording, workers, batch int) string {
	return fmt.Sprintf("replay %s: %d steps equal (world hash and %d system digests each) on %d workers, batch %s",
		path, len(rec.Steps), len(rec.Header.Systems), workers, BatchName(batch))
}

// BatchName is a batch size as the verdicts print it: "adaptive" for 0.
func BatchName(b int) string {
	if b == 0 {
		return "adaptive"
	}
	return fmt.Sprint(b)
}

// Divergence plays rec into the serial executor and cfg side by side and
// returns where they first differ (step, system, entity, component, both
// values), as an error; nil if they agree, which means the difference lay
// in the recorded run. It plays up to the divergence twice: seconds for
// a large world.
func Divergence(rec *replay.Recording, cfg Config) error {
	oracle := cfg
	oracle.Workers = 0
	a, _, err := FromRecording(rec, oracle)
	if err != nil {
		return err
	}
	defer a.Close()
	b, _, err := FromRecording(rec, cfg)
	if err != nil {
		return err
	}
	defer b.Close()
	d, err := replay.Find(rec, a, b)
	switch {
	case err != nil:
		return err
	case d == nil:
		return fmt.Errorf("played again, the serial executor and %d workers agree on every step: the difference lies in the recorded run (another build, or a system that differs from run to run)", cfg.Workers)
	}
	return fmt.Errorf("played again into the serial executor (want) and %d workers (got): %s", cfg.Workers, d)
}
