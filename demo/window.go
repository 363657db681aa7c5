package main

import (
	"errors"
	"fmt"
	"image"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/ebitenutil"
	"github.com/hajimehoshi/ebiten/v2/inpututil"

	"github.com/weft-engine/weft/demo/game"
	"github.com/weft-engine/weft/engine"
	"github.com/weft-engine/weft/jobs"
)

// stats are what a run measured, printed with -frames and checked by the
// tests.
type stats struct {
	Frames   int     // fixed steps run
	Entities int     // alive at the end
	Visible  int     // drawn in the last frame
	Lanes    int     // timeline lanes the overlay drew last
	TPS, FPS float64 // ebiten.ActualTPS and ActualFPS, averaged over the run after the first second
	MinTPS   float64 // the lowest one-second ActualTPS after the first second
	Wall     time.Duration
}

func (s stats) String() string {
	return fmt.Sprintf("frames %d, entities %d, visible %d, lanes %d, tps %.1f (min %.1f), fps %.1f, wall %.1f s",
		s.Frames, s.Entities, s.Visible, s.Lanes, s.TPS, s.MinTPS, s.FPS, s.Wall.Seconds())
}

// play opens the window and runs the game until it is closed, Esc is
// pressed, or o.frames steps ran. Ebiten allows one RunGame a process.
func play(o options, log io.Writer) (st stats, err error) {
	cfg := o.Config
	cfg.Seed = 1
	g, err := game.New(cfg)
	if err != nil {
		return st, err
	}
	defer func() { err = errors.Join(err, g.Close()) }()
	g.Engine().Camera().Zoom = o.zoom
	w, err := newWindow(g, o, log)
	if err != nil {
		return st, err
	}
	ebiten.SetWindowSize(game.ScreenW, game.ScreenH)
	ebiten.SetWindowTitle("weft demo")
	ebiten.SetWindowResizingMode(ebiten.WindowResizingModeEnabled)
	ebiten.SetScreenClearedEveryFrame(false) // Draw fills it
	start := time.Now()
	err = ebiten.RunGame(w)
	w.st.Wall = time.Since(start)
	w.st.Entities, w.st.Visible, w.st.Lanes = g.Len(), len(g.Engine().Snapshot().Items), w.ov.tl.lanes
	if w.rates > 0 {
		w.st.TPS, w.st.FPS = w.sumTPS/float64(w.rates), w.sumFPS/float64(w.rates)
	} else {
		w.st.TPS, w.st.FPS, w.st.MinTPS = ebiten.ActualTPS(), ebiten.ActualFPS(), ebiten.ActualTPS()
	}
	return w.st, errors.Join(err, w.err)
}

// window is the ebiten.Game. Its methods are executed only by Ebiten's
// game goroutine, which is the engine's owner: Update steps the engine,
// Draw reads its published snapshot and timings between steps.
type window struct {
	g   *game.Game
	o   options
	log io.Writer
	ctl game.Controls
	ptr game.Pointer
	ov  *overlay
	spr *sprites
	tr  tracer
	st  stats
	err error // from Draw, which cannot return one

	lastDraw       time.Time     // the previous Draw
	frame          time.Duration // between the last two Draws
	updates, rates int
	sumTPS, sumFPS float64
	shot           bool // the last frame is drawn (and saved, with -screenshot)
}

func newWindow(g *game.Game, o options, log io.Writer) (*window, error) {
	spr, err := newSprites()
	if err != nil {
		return nil, err
	}
	w := &window{g: g, o: o, log: log, ctl: game.NewControls(g.Engine()), ov: newOverlay(), spr: spr, tr: tracer{dir: o.tracedir, log: log}}
	w.ctl.Overlay = !o.noOverlay
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
		Pause:       pressed(ebiten.KeyP),
		Step:        pressed(ebiten.KeyN, ebiten.KeyPeriod),
		Overlay:     pressed(ebiten.KeyO, ebiten.KeyTab),
		Freeze:      pressed(ebiten.KeyF),
		Trace:       pressed(ebiten.KeyT),
		Help:        pressed(ebiten.KeyH, ebiten.KeyF1),
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

// readInput is this frame's camera and mouse input, from Ebiten.
func (w *window) readInput() game.Input {
	in := game.Input{
		Left:  ebiten.IsKeyPressed(ebiten.KeyArrowLeft),
		Right: ebiten.IsKeyPressed(ebiten.KeyArrowRight),
		Up:    ebiten.IsKeyPressed(ebiten.KeyArrowUp),
		Down:  ebiten.IsKeyPressed(ebiten.KeyArrowDown),
	}
	_, in.Wheel = ebiten.Wheel()
	mx, my := ebiten.CursorPosition()
	w.ptr.Update(float64(mx), float64(my), ebiten.IsMouseButtonPressed(ebiten.MouseButtonLeft), w.ctl.Overlay && w.ov.covers(mx, my), &in)
	return in
}

// Update runs once a tick (60 a second): input, settings, then one fixed
// step. Ebiten calls Update at a fixed rate and catches up by calling it
// more often, so one engine.Tick an Update is the fixed step; engine.Step
// with the wall-clock interval would catch up a second time.
func (w *window) Update() error {
	switch {
	case w.err != nil:
		return w.err
	case w.shot:
		return ebiten.Termination
	}
	w.sampleRates()

	act := w.ctl.Press(readKeys())
	if act.Quit {
		return ebiten.Termination
	}
	e := w.g.Engine()
	if err := w.ctl.Apply(e); err != nil {
		return err
	}
	in := w.readInput()
	in.Click = in.Click || act.Burst
	if act.Fountain {
		w.g.SetFountain(!w.g.FountainOn())
	}
	w.g.HandleInput(in)
	if act.Trace {
		w.tr.start(e)
	}
	if w.o.frames > 0 && w.st.Frames >= w.o.frames || !w.ctl.Runs(act) {
		return nil // done, waiting for Draw to finish the last frame; or paused
	}
	if err := w.g.Tick(); err != nil {
		return err
	}
	w.st.Frames++
	w.tr.add(e)
	w.ov.record(w.g, w.frame)
	return nil
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
// -frames run it saves the screen and lets Update end the game.
func (w *window) Draw(screen *ebiten.Image) {
	if now := time.Now(); !w.lastDraw.IsZero() {
		w.frame, w.lastDraw = now.Sub(w.lastDraw), now
	} else {
		w.lastDraw = now
	}
	e := w.g.Engine()
	w.spr.draw(screen, e.Snapshot(), *e.Camera(), w.g.Width, w.g.Height)
	if w.ctl.Overlay {
		w.ov.draw(screen, w, ebiten.ActualFPS(), ebiten.ActualTPS())
	} else {
		w.ov.hint(screen)
	}
	w.ov.drawStatus(screen, &w.ctl)
	w.tr.draw(screen)
	if w.ctl.Help {
		w.ov.drawHelp(screen)
	}
	if w.o.frames > 0 && w.st.Frames >= w.o.frames && !w.shot {
		w.shot = true
		if w.o.screenshot != "" {
			if err := saveScreen(screen, w.o.screenshot); err != nil {
				w.err = err
			}
		}
	}
}

// Layout keeps the logical screen at the camera's size; Ebiten scales it
// into a resized window.
func (w *window) Layout(int, int) (int, int) { return game.ScreenW, game.ScreenH }

// saveScreen writes the screen as PNG to path.
func saveScreen(screen *ebiten.Image, path string) error {
	b := screen.Bounds()
	img := image.NewRGBA(b)
	screen.ReadPixels(img.Pix)
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("screenshot: %w", err)
	}
	if err := errors.Join(png.Encode(f, img), f.Close()); err != nil {
		return fmt.Errorf("screenshot %s: %w", path, err)
	}
	return nil
}

// tracer gathers the job traces of TraceFrames steps and writes them as
// one Chrome trace file. Executed only by the owner.
type tracer struct {
	dir    string
	log    io.Writer
	events []jobs.Event // reused between traces
	left   int          // steps still to gather
	steps  int          // steps gathered
	pool   int          // the worker count the trace began with
	path   string       // the last file written
	msg    string       // its path, or the error, for the screen
}

func (t *tracer) start(e *engine.Engine) {
	t.events, t.left, t.steps, t.pool = t.events[:0], game.TraceFrames, 0, e.Workers()
	t.msg = fmt.Sprintf("tracing the next %d steps...", game.TraceFrames)
}

// add gathers the last step's trace; after the last one it writes the
// file. A new worker count means a new pool, whose job handles and clock
// start again, so the trace ends early with the steps of the old one. A
// write error does not stop the game: it shows on screen.
func (t *tracer) add(e *engine.Engine) {
	if t.left == 0 {
		return
	}
	// Settings apply before the step, so the step just run used e.Workers().
	cut := e.Workers() != t.pool
	if !cut {
		t.events = e.AppendTrace(t.events)
		t.steps++
		if t.left--; t.left > 0 {
			return
		}
	}
	t.left = 0
	if t.steps == 0 {
		t.msg = "trace cancelled: the worker count changed before its first step"
		fmt.Fprintln(t.log, "demo:", t.msg)
		return
	}
	path := filepath.Join(t.dir, fmt.Sprintf("weft-trace-%s.json", time.Now().Format("20060102-150405.000")))
	if err := t.write(path); err != nil {
		t.msg = "trace failed: " + err.Error()
	} else {
		t.path = path
		t.msg = fmt.Sprintf("trace of %d steps written to %s (open it in ui.perfetto.dev)", t.steps, path)
		if cut {
			t.msg += "; cut short: the worker count changed"
		}
	}
	fmt.Fprintln(t.log, "demo:", t.msg)
}

// draw shows the trace's progress or its file, under the top line.
func (t *tracer) draw(screen *ebiten.Image) {
	if t.msg != "" {
		ebitenutil.DebugPrintAt(screen, t.msg, panelW+12, topH+lineH+2)
	}
}

func (t *tracer) write(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	return errors.Join(jobs.WriteChromeTrace(f, t.events), f.Close())
}
