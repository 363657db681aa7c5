package main

import (
	"errors"
	"fmt"
	"image"
	"os"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/ebitenutil"

	"github.com/weft-engine/weft/demo/internal/game"
	"github.com/weft-engine/weft/replay"
)

// newGame makes the window's game: from the recording with -replay (and
// the player that plays it), else a new scene, recording into a file with
// -record. done ends the recording and closes the file.
func newGame(o options) (g *game.Game, p *replay.Player, done func() error, err error) {
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
		g, p, err = game.FromRecording(rec, cfg)
		return g, p, done, err
	}
	cfg.Title = o.steps == 0 // a timed run (-steps) skips the title and starts playing
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
	return g, p, done, nil
}

// replayStep plays the next recorded frame instead of the player's input:
// the camera, the bursts and the fountain as they were, step for step,
// checked against the recording (a difference ends the demo with
// WEFT-R004). The settings keys still work: the replay is the same on
// any worker count and batch. When the recording ends the view holds; a
// -steps run ends there.
func (w *window) replayStep(run bool) error {
	if w.player.Done() {
		if w.o.steps > 0 {
			w.o.steps = w.st.Steps // the last frame: Draw saves it and Update ends the game
		}
		return nil
	}
	if !run || w.o.steps > 0 && w.st.Steps >= w.o.steps {
		return nil
	}
	n, _, err := w.player.Frame()
	w.st.Steps += n
	return err
}

// replayLine is what the window shows while it plays a recording: that
// the screen is a replay, not a game to play, and which of its steps it
// shows; "" when it plays no recording.
func (w *window) replayLine() string {
	if w.player == nil {
		return ""
	}
	s := fmt.Sprintf("REPLAY step %d/%d", w.player.Played(), w.player.Len())
	if w.player.Done() {
		s += " (ended)"
	}
	return s
}

// drawReplay draws replayLine over the world's top right, overlay or
// not, and keeps it for the run's stats. Executed only by Draw.
func (w *window) drawReplay(screen *ebiten.Image) {
	s := w.replayLine()
	if s == "" {
		return
	}
	const glyphW, glyphH, pad = 6, 16, 6 // ebitenutil's debug font
	x, y := game.ScreenW-len(s)*glyphW-3*pad, 3*pad
	box := image.Rect(x-pad, y-pad/2, x+len(s)*glyphW+pad, y+glyphH+pad/2)
	screen.SubImage(box).(*ebiten.Image).Fill(colVoid)
	ebitenutil.DebugPrintAt(screen, s, x, y)
	w.st.Replay = s
}
