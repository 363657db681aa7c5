package game

import (
	"errors"
	"os"
	"path/filepath"
)

// RewindSteps is how far back Rewind goes: two seconds of steps.
const RewindSteps = 120

// rewindEvery is the steps between the snapshots kept for Rewind: a copy
// of the world every tenth step, thirteen of them.
const rewindEvery = 10

// KeepRewind starts keeping what Rewind needs. Executed only by the
// owner, between steps.
func (g *Game) KeepRewind() error { return g.eng.SetRewind(RewindSteps/rewindEvery+1, rewindEvery) }

// Rewind puts the world back about two seconds (RewindSteps, or to the
// start if it ran fewer), to the newest step kept that far back, and
// returns how many steps it went. Bursts asked for and not yet applied
// stay: they join the next step. While recording, it is refused: a
// recording is one run forward. Executed only by the owner, between
// steps.
func (g *Game) Rewind() (int, error) {
	if g.rec != nil {
		return 0, errors.New("game: no rewinding while recording (-record): a recording is one run forward")
	}
	return g.eng.Rewind(min(RewindSteps, int(g.eng.Time().Step)))
}

// Save writes the world to path, through a temporary file so that a
// failed write leaves the previous save whole. Executed only by the
// owner, between steps.
func (g *Game) Save(path string) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".weft-save-*")
	if err != nil {
		return err
	}
	err = g.eng.Save(tmp)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}

// Load replaces the world with the one saved at path; a file that cannot
// load changes nothing (ecs.World.Load). While recording, it is refused,
// as Rewind is. Executed only by the owner, between steps.
func (g *Game) Load(path string) error {
	if g.rec != nil {
		return errors.New("game: no loading while recording (-record): a recording is one run forward")
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return g.eng.Load(f)
}
