package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/weft-engine/weft/demo/internal/game"
	"github.com/weft-engine/weft/replay"
)

// replaying is what the window keeps of the recording it plays
// (-replay): the recording, its player, and the verdict once it ended.
type replaying struct {
	path     string
	rec      *replay.Recording
	player   *replay.Player
	cfg      game.Config // the game's, for finding a divergence
	verdict  string      // "" while playing; then that every step was equal, or where one differed
	diverged bool
}

// newGame makes the window's game: from the recording with -replay (and
// what plays it), else a new scene, recording into a file with -record.
// done ends the recording and closes the file.
func newGame(o options) (g *game.Game, rp *replaying, done func() error, err error) {
	cfg := o.Config
	cfg.Seed = 1
	done = func() error { return nil }
	if o.replay != "" {
		f, err := os.Open(o.replay)
		if err != nil {
			return nil, nil, nil, err
		}
		rec, err := replay.Read(f)
		if err = errors.Join(err, f.Close()); err != nil {
			return nil, nil, nil, err
		}
		g, p, err := game.FromRecording(rec, cfg)
		return g, &replaying{path: o.replay, rec: rec, player: p, cfg: cfg}, done, err
	}
	cfg.Title = o.steps == 0 || o.title // a timed run (-steps) skips the title and starts playing, unless -title
	cfg.Netplay = o.netplay()
	cfg.Title = cfg.Title && !cfg.Netplay // a game played together starts playing
	if g, err = game.New(cfg); err != nil {
		return nil, nil, nil, err
	}
	if o.record != "" {
		f, err := os.Create(o.record)
		if err == nil {
			err = g.Record(f)
		}
		if err != nil {
			return nil, nil, nil, errors.Join(err, g.Close())
		}
		done = func() error { return errors.Join(g.StopRecording(), f.Close()) }
	}
	return g, nil, done, nil
}

// replayStep plays the next recorded frame instead of the player's input:
// the camera, the bursts and the fountain as they were, step for step,
// checked against the recording. The settings keys still work: the
// replay is the same on any worker count and batch. When the recording
// ends, or a step differs from it, the view holds and the verdict shows
// (a -steps run ends there): every step equal, or where the first
// difference lies, found by playing the recording again into the serial
// executor beside this configuration.
func (w *window) replayStep(run bool) error {
	rp := w.rp
	if rp.verdict != "" || !run || w.o.steps > 0 && w.st.Steps >= w.o.steps {
		return nil
	}
	if !rp.player.Done() {
		n, _, err := rp.player.Frame()
		w.st.Steps += n
		if err != nil {
			cfg := rp.cfg
			cfg.Workers, cfg.Batch = w.g.Engine().Workers(), w.ctl.Batch
			rp.verdict, rp.diverged = fmt.Sprintf("replay %s: %v\n%v", rp.path, err, game.Divergence(rp.rec, cfg)), true
			w.endSteps()
			return nil
		}
	}
	if rp.player.Done() { // in the frame of the last step: its Draw shows the verdict
		rp.verdict = game.EqualVerdict(rp.path, rp.rec, w.g.Engine().Workers(), w.ctl.Batch)
		w.endSteps()
	}
	return nil
}

// endSteps makes a -steps run end at this frame: Draw saves it and
// Update ends the game.
func (w *window) endSteps() {
	if w.o.steps > 0 {
		w.o.steps = w.st.Steps
	}
}

// replayStatus is the status line while the window plays a recording:
// that the screen is a replay, not a game to play, and which of its
// steps it shows, or the verdict once it ended; "" when it plays none.
func (w *window) replayStatus() string {
	rp := w.rp
	switch {
	case rp == nil:
		return ""
	case rp.diverged:
		return "REPLAY DIFFERS: " + rp.verdict + "   (Esc quits, exit code 1)"
	case rp.verdict != "":
		return "REPLAY ENDED: " + rp.verdict + "   (Esc quits)"
	}
	return fmt.Sprintf("REPLAY step %d/%d of %s, every step checked", rp.player.Played(), rp.player.Len(), rp.path)
}
