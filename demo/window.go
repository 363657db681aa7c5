package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"

	"github.com/weft-engine/weft/demo/internal/game"
	"github.com/weft-engine/weft/overlay"
	"github.com/weft-engine/weft/profile"
)

// stats are what a run measured, printed with -steps and checked by the
// tests.
type stats struct {
	Steps    int           // fixed steps run
	Entities int           // alive at the end
	Visible  int           // drawn in the last frame
	Lanes    int           // participants in the last step: the timeline's lanes
	TPS, FPS float64       // ebiten.ActualTPS and ActualFPS, averaged over the run after the first second
	MinTPS   float64       // the lowest one-second ActualTPS after the first second
	Overlay  time.Duration // the overlay's Draw, its mean per frame after the first second
	Wall     time.Duration
	Replay   string // the replay's status line in the last frame drawn ("" when not replaying)
	// Verdict is a replay's: that every step was equal, or where the
	// first difference lies (Diverged); "" when not replaying or not ended.
	Verdict  string
	Diverged bool

	ov *overlay.Overlay // the overlay at the end, for the tests to read
}

func (s stats) String() string {
	line := fmt.Sprintf("steps %d, entities %d, visible %d, lanes %d, tps %.1f (min %.1f), fps %.1f, overlay %.3f ms/frame, wall %.1f s",
		s.Steps, s.Entities, s.Visible, s.Lanes, s.TPS, s.MinTPS, s.FPS, float64(s.Overlay)/1e6, s.Wall.Seconds())
	if s.Replay != "" {
		line += ", shown: " + s.Replay
	}
	return line
}

// play opens the window and runs the game until it is closed, Esc is
// pressed, or o.steps steps ran. Ebiten allows one RunGame a process.
func play(o options, log io.Writer) (st stats, err error) {
	g, rp, done, err := newGame(o)
	if err != nil {
		return st, err
	}
	defer func() { err = errors.Join(err, done(), g.Close()) }()
	if rp == nil {
		g.Engine().Camera().Zoom = o.zoom
	}
	w, err := newWindow(g, o, log)
	if err != nil {
		return st, err
	}
	w.rp = rp
	if o.netplay() {
		if w.net, err = newNetWin(g, o); err != nil {
			return st, err
		}
		defer func() { err = errors.Join(err, w.net.close()) }()
		w.ov.Add(w.netPanel())
	}
	ebiten.SetWindowSize(game.ScreenW, game.ScreenH)
	ebiten.SetWindowTitle("weft demo")
	ebiten.SetWindowResizingMode(ebiten.WindowResizingModeEnabled)
	ebiten.SetScreenClearedEveryFrame(false) // Draw fills it
	start := time.Now()
	err = ebiten.RunGame(w)
	w.st.Wall = time.Since(start)
	w.st.Entities, w.st.Visible, w.st.Lanes = g.Len(), len(g.Engine().Snapshot().Items), len(g.Profile().Last().Workers)
	w.st.ov = w.ov
	if rp != nil {
		w.st.Verdict, w.st.Diverged = rp.verdict, rp.diverged
	}
	if w.ovFrames > 0 {
		w.st.Overlay = w.ovSum / time.Duration(w.ovFrames)
	}
	if w.rates > 0 {
		w.st.TPS, w.st.FPS = w.sumTPS/float64(w.rates), w.sumFPS/float64(w.rates)
	} else {
		w.st.TPS, w.st.FPS, w.st.MinTPS = ebiten.ActualTPS(), ebiten.ActualFPS(), ebiten.ActualTPS()
	}
	return w.st, errors.Join(err, w.err, w.ov.TraceErr())
}

// window is the ebiten.Game. Its methods are executed only by Ebiten's
// game goroutine, which is the engine's owner: Update steps the engine,
// Draw reads its published snapshot between steps, and the overlay its
// timings.
type window struct {
	g   *game.Game
	o   options
	ctl game.Controls
	ptr game.Pointer
	// rp plays a recording (-replay) instead of the player's input.
	rp    *replaying
	net   *netWin // playing together (-host, -join, -spectate; netwin.go)
	ov    *overlay.Overlay
	title []*ebiten.Image // the title card's lines (status.go)
	spr   *sprites
	st    stats
	err   error     // from Draw, which cannot return one
	log   io.Writer // where the rewind, save and load keys report

	updates, rates int
	sumTPS, sumFPS float64
	ovSum          time.Duration // the overlay's Draw time after the first second
	ovFrames       int
	shot           bool // the last frame is drawn (and saved, with -screenshot)
}

func newWindow(g *game.Game, o options, log io.Writer) (*window, error) {
	base, err := readBaseline(o.baseline) // first: a wrong file opens nothing
	if err != nil {
		return nil, err
	}
	spr, err := newSprites()
	if err != nil {
		return nil, err
	}
	w := &window{g: g, o: o, ctl: game.NewControls(g.Engine()), spr: spr, log: log}
	if err := g.KeepRewind(); err != nil {
		return nil, err
	}
	keys := gameKeys
	if o.netplay() {
		keys = netKeys(o.spectate != "")
	}
	w.ov = overlay.New(g.Engine(), overlay.Options{
		Profiler: g.Profile(),
		Toggle:   []ebiten.Key{ebiten.KeyO, ebiten.KeyTab}, Help: []ebiten.Key{ebiten.KeyH, ebiten.KeyF1},
		Hidden: o.noOverlay, Budget: o.budget, Capture: o.budget > 0, TraceDir: o.tracedir, Log: log,
		Keys: keys, Baseline: base,
	})
	w.ov.Add(w.gamePanel())
	return w, nil
}

// readKeys is this frame's hotkeys, from Ebiten.
func readKeys() game.Keys {
	return game.Keys{
		WorkersUp:   pressed(ebiten.KeyEqual, ebiten.KeyKPAdd, ebiten.KeyBracketRight),
		WorkersDown: pressed(ebiten.KeyMinus, ebiten.KeyKPSubtract, ebiten.KeyBracketLeft),
		Serial:      pressed(ebiten.KeyS),
		Checks:      pressed(ebiten.KeyC),
		Batch:       pressed(ebiten.KeyB),
		Burst:       pressed(ebiten.KeySpace),
		Fountain:    pressed(ebiten.KeyJ),
		Start:       pressed(ebiten.KeyEnter, ebiten.KeyNumpadEnter),
		Pause:       pressed(ebiten.KeyP),
		Step:        pressed(ebiten.KeyN, ebiten.KeyPeriod),
		Rewind:      pressed(ebiten.KeyR),
		Save:        pressed(ebiten.KeyF5),
		Load:        pressed(ebiten.KeyF9),
		Quit:        pressed(ebiten.KeyEscape),
	}
}

// pressed reports whether any of keys went down this frame.
func pressed(keys ...ebiten.Key) bool {
	for _, k := range keys {
		if inpututil.IsKeyJustPressed(k) {
			return true
		}
	}
	return false
}

// readInput is this frame's camera and mouse input, from Ebiten; over
// the overlay (onOverlay) the pointer neither drags, clicks nor zooms.
func (w *window) readInput(onOverlay bool) game.Input {
	in := game.Input{
		Left:  ebiten.IsKeyPressed(ebiten.KeyArrowLeft),
		Right: ebiten.IsKeyPressed(ebiten.KeyArrowRight),
		Up:    ebiten.IsKeyPressed(ebiten.KeyArrowUp),
		Down:  ebiten.IsKeyPressed(ebiten.KeyArrowDown),
	}
	if !onOverlay {
		_, in.Wheel = ebiten.Wheel()
	}
	mx, my := ebiten.CursorPosition()
	w.ptr.Update(float64(mx), float64(my), ebiten.IsMouseButtonPressed(ebiten.MouseButtonLeft), onOverlay, &in)
	return in
}

// Update runs once a tick (60 a second): input, settings, then one fixed
// step. Ebiten calls Update at a fixed rate and catches up by calling it
// more often, so one engine.Tick an Update is the fixed step; engine.Step
// with the wall-clock interval would catch up a second time.
func (w *window) Update() error {
	onOverlay := w.ov.Update()
	switch {
	case w.err != nil:
		return w.err
	case w.shot:
		return ebiten.Termination
	}
	w.sampleRates()

	if w.rp == nil { // the game's mode is the pause; a replay's is the recording's
		w.ctl.Paused = w.g.Mode() == game.Paused
	}
	act := w.ctl.Press(readKeys())
	if act.Quit {
		return ebiten.Termination
	}
	e := w.g.Engine()
	if err := w.ctl.Apply(e); err != nil {
		return err
	}
	defer w.showStatus()
	if w.rp != nil {
		if act.Rewind || act.Save || act.Load || act.Burst || act.Fountain || act.Start {
			w.say("a replay plays the recording's own input: R, F5, F9, Space, J and Enter are off (the settings keys work)")
		}
		return w.replayStep(w.ctl.Runs(act))
	}
	if w.net != nil {
		return w.netStep(act, onOverlay)
	}
	w.timeKeys(act)
	w.inspectKeys()
	in := w.readInput(onOverlay)
	in.Click = in.Click || act.Burst
	if act.Fountain {
		w.g.SetFountain(!w.g.FountainOn())
	}
	w.g.HandleInput(in)
	if w.o.steps > 0 && w.st.Steps >= w.o.steps {
		return nil // done, waiting for Draw to finish the last frame
	}
	if err := w.modeKeys(act); err != nil {
		return err
	}
	w.st.Steps++
	return nil
}

// modeKeys carries out the title and pause keys and runs the frame's
// step: the game steps in every mode (a paused one runs no simulation
// system), and N while paused runs one step of play.
func (w *window) modeKeys(act game.Actions) error {
	var err error
	if act.Start {
		err = w.g.Start()
	}
	if act.Pause && err == nil && w.g.Mode() == game.Title {
		w.say("P pauses a game in play: on the title screen, Enter plays")
		w.ctl.Paused = false
	} else if act.Pause && err == nil {
		err = w.g.TogglePause()
	}
	if err != nil {
		return err
	}
	if act.Step {
		return w.g.StepPaused()
	}
	return w.g.Tick()
}

// sampleRates adds the actual TPS and FPS to the run's averages once a
// second, after the first second (Ebiten averages over about a second).
func (w *window) sampleRates() {
	w.updates++
	if w.updates <= ebiten.TPS() || w.updates%ebiten.TPS() != 0 {
		return
	}
	tps := ebiten.ActualTPS()
	if w.rates == 0 || tps < w.st.MinTPS {
		w.st.MinTPS = tps
	}
	w.sumTPS, w.sumFPS, w.rates = w.sumTPS+tps, w.sumFPS+ebiten.ActualFPS(), w.rates+1
}

// Draw renders the snapshot, then the overlay; after the last frame of a
// -steps run it saves the screen and lets Update end the game. The frame
// it saves shows the numbers of its step: the overlay repaints for it.
func (w *window) Draw(screen *ebiten.Image) {
	e := w.g.Engine()
	w.spr.draw(screen, e.Snapshot(), *e.Camera(), w.g.Width, w.g.Height)
	w.drawInspected(screen)
	w.drawCursors(screen)
	w.drawTitle(screen)
	w.st.Replay = w.replayStatus()
	last := w.o.steps > 0 && w.st.Steps >= w.o.steps && !w.shot
	if last {
		w.ov.Refresh()
	}
	start := time.Now()
	w.ov.Draw(screen)
	if w.updates > ebiten.TPS() {
		w.ovSum, w.ovFrames = w.ovSum+time.Since(start), w.ovFrames+1
	}
	if last {
		w.shot = true
		if w.o.screenshot != "" {
			if err := overlay.SaveScreen(screen, w.o.screenshot); err != nil {
				w.err = err
			}
		}
	}
}

// Layout keeps the logical screen at the camera's size; Ebiten scales it
// into a resized window.
func (w *window) Layout(int, int) (int, int) { return game.ScreenW, game.ScreenH }

// readBaseline reads the capture file to compare with; "" is none.
func readBaseline(path string) (*profile.Report, error) {
	if path == "" {
		return nil, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("-baseline: %w", err)
	}
	defer f.Close()
	return profile.ReadReport(f)
}

// timeKeys carries out the rewind, save and load keys, and says on
// screen (and in the log) what each did: a refusal (a rewind or a load
// while recording, a file that does not load) says why and leaves the
// game running as it was. A rewind or a load starts the overlay's
// -budget warm-up again: its step is no spike of play.
func (w *window) timeKeys(act game.Actions) {
	path := filepath.Join(w.o.tracedir, "weft.save")
	if act.Rewind {
		if n, err := w.g.Rewind(); err != nil {
			w.say("rewind refused: " + err.Error())
		} else {
			w.say(fmt.Sprintf("rewound %d steps", n))
			w.ov.Warm()
		}
	}
	if act.Save {
		if err := w.g.Save(path); err != nil {
			w.say("save failed: " + err.Error())
		} else {
			w.say("saved the world to " + path + " (F9 loads it)")
		}
	}
	if act.Load {
		if err := w.g.Load(path); err != nil {
			w.say("load refused: " + err.Error())
		} else {
			w.say("loaded the world from " + path)
			w.ov.Warm()
		}
	}
}

// showStatus gives the overlay the keys that apply now and the window's
// status line. Executed only by Update.
func (w *window) showStatus() {
	w.ov.SetHint(w.hint())
	w.ov.SetStatus(w.status())
}
