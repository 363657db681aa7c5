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

	"github.com/weft-engine/weft/demo/internal/game"
	"github.com/weft-engine/weft/engine"
)

// stats are what a run measured, printed with -steps and checked by the
// tests.
type stats struct {
	Steps    int     // fixed steps run
	Entities int     // alive at the end
	Visible  int     // drawn in the last frame
	Lanes    int     // timeline lanes the overlay drew last
	TPS, FPS float64 // ebiten.ActualTPS and ActualFPS, averaged over the run after the first second
	MinTPS   float64 // the lowest one-second ActualTPS after the first second
	Wall     time.Duration

	parts frameSample // the frames' medians at the end
	ov    *overlay    // the overlay at the end, for the tests to read
}

func (s stats) String() string {
	return fmt.Sprintf("steps %d, entities %d, visible %d, lanes %d, tps %.1f (min %.1f), fps %.1f, wall %.1f s",
		s.Steps, s.Entities, s.Visible, s.Lanes, s.TPS, s.MinTPS, s.FPS, s.Wall.Seconds())
}

// play opens the window and runs the game until it is closed, Esc is
// pressed, or o.steps steps ran. Ebiten allows one RunGame a process.
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
	w.st.parts, w.st.ov = w.fr.medians(), w.ov
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

	fr             frames // the frames' breakdown and memory
	updates, rates int
	sumTPS, sumFPS float64
	shot           bool // the last frame is drawn (and saved, with -screenshot)
	overBudget     bool // a step went over -budget
}

func newWindow(g *game.Game, o options, log io.Writer) (*window, error) {
	spr, err := newSprites()
	if err != nil {
		return nil, err
	}
	w := &window{g: g, o: o, log: log, ctl: game.NewControls(g.Engine()), ov: newOverlay(), spr: spr, tr: tracer{dir: o.tracedir, log: log}}
	if o.budget > 0 {
		w.ov.budget = ms(o.budget)
	}
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
	over := w.ctl.Overlay && (w.ov.covers(mx, my) || w.ov.view.dragX >= 0) // a timeline drag goes on off it
	if over {
		w.overlayInput(mx, my, &in)
	}
	w.ptr.Update(float64(mx), float64(my), ebiten.IsMouseButtonPressed(ebiten.MouseButtonLeft), over, &in)
	return in
}

// overlayInput is the pointer over the overlay: a click on the graph opens
// that step's timeline, frozen; a click on a system filters the timeline;
// the wheel and dragging zoom and pan the timeline (not the camera), and
// a right click shows all of it again.
func (w *window) overlayInput(mx, my int, in *game.Input) {
	if inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonLeft) && w.ov.clickAt(mx, my) {
		w.ctl.Frozen = true
	}
	if w.ov.zoomAt(mx, my, in.Wheel) {
		in.Wheel = 0
	}
	w.ov.dragAt(mx, my, ebiten.IsMouseButtonPressed(ebiten.MouseButtonLeft))
	if inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonRight) && w.ov.onTimeline(mx, my) {
		w.ov.wholeStep()
	}
}

// Update runs once a tick (60 a second): input, settings, then one fixed
// step. Ebiten calls Update at a fixed rate and catches up by calling it
// more often, so one engine.Tick an Update is the fixed step; engine.Step
// with the wall-clock interval would catch up a second time.
func (w *window) Update() error {
	defer w.fr.addUpdate(time.Now())
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
	w.g.HandleInput(in)
	if act.Trace {
		w.tr.start(e)
	}
	if w.o.steps > 0 && w.st.Steps >= w.o.steps || !w.ctl.Runs(act) {
		return nil // done, waiting for Draw to finish the last frame; or paused
	}
	w.fr.mem.stepBegin()
	err := w.g.Tick()
	w.fr.mem.stepEnd()
	if err != nil {
		return err
	}
	w.stepped(e)
	return nil
}

// budgetWarmup is the steps -budget lets pass at the start: the first
// ones start the pool and grow the buffers, and are always slow.
const budgetWarmup = 60

// stepped records the step just run: the trace in progress, the graph and
// the history, and with -budget the first step over it after the warm-up,
// which the timeline freezes on and a trace of its own keeps.
func (w *window) stepped(e *engine.Engine) {
	w.st.Steps++
	w.tr.add(e)
	w.ov.record(w.g, w.fr.last.frame, w.fr.mem.stepGC)
	st := e.Timings().Last()
	if w.o.budget <= 0 || w.overBudget || st.Step <= budgetWarmup || st.Total <= w.o.budget {
		return
	}
	w.overBudget = true
	w.ctl.Frozen = w.ov.open(graphLen - 1) // the newest bar
	w.tr.spike(e, fmt.Sprintf("step %d took %.2f ms, over the %v budget: the timeline is frozen on it (F thaws)", st.Step, ms(st.Total), w.o.budget))
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
// -steps run it saves the screen and lets Update end the game.
func (w *window) Draw(screen *ebiten.Image) {
	start := time.Now()
	w.fr.begin(start)
	e := w.g.Engine()
	w.spr.draw(screen, e.Snapshot(), *e.Camera(), w.g.Width, w.g.Height)
	w.fr.cur.calls, w.fr.cur.sprites = w.spr.calls, w.spr.drawn
	ov := time.Now()
	w.fr.cur.draw = ms(ov.Sub(start))
	defer w.fr.addOverlay(ov)
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
	if w.o.steps > 0 && w.st.Steps >= w.o.steps && !w.shot {
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
	dir       string
	log       io.Writer
	trace     engine.Trace  // reused between traces
	left      int           // steps still to gather
	steps     int           // steps gathered
	pool      int           // the worker count the trace began with
	path      string        // the last file written
	msg       string        // its path, or the error, for the screen
	shown     int           // frames the finished trace's message has been on screen
	one       engine.Trace  // a spike's
	spikePath string        // the last spike's trace file
	img       *ebiten.Image // msg, painted on its band
	imgMsg    string        // the msg img shows
}

func (t *tracer) start(e *engine.Engine) {
	t.trace.Reset()
	t.left, t.steps, t.pool = game.TraceFrames, 0, e.Workers()
	t.say(fmt.Sprintf("tracing the next %d steps...", game.TraceFrames))
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
		t.trace.Add(e)
		t.steps++
		if t.left--; t.left > 0 {
			return
		}
	}
	t.left = 0
	if t.steps == 0 {
		t.say("trace cancelled: the worker count changed before its first step")
		fmt.Fprintln(t.log, "demo:", t.msg)
		return
	}
	path := filepath.Join(t.dir, fmt.Sprintf("weft-trace-%s.json", time.Now().Format("20060102-150405.000")))
	if err := t.write(path); err != nil {
		t.say("trace failed: " + err.Error())
	} else {
		t.path = path
		msg := fmt.Sprintf("trace of %d steps written to %s (open it in ui.perfetto.dev)", t.steps, path)
		if cut {
			msg += "; cut short: the worker count changed"
		}
		t.say(msg)
	}
	fmt.Fprintln(t.log, "demo:", t.msg)
}

// spike writes a trace of e's last step alone, and says why with its path.
// A trace in progress goes on: the spike's step is in it too.
func (t *tracer) spike(e *engine.Engine, why string) {
	t.one.Reset()
	t.one.Add(e)
	path := filepath.Join(t.dir, fmt.Sprintf("weft-spike-step-%d-%s.json", e.Time().Step, time.Now().Format("20060102-150405.000")))
	f, err := os.Create(path)
	if err == nil {
		err = errors.Join(t.one.Write(f), f.Close())
	}
	if err != nil {
		t.say(why + "; its trace failed: " + err.Error())
	} else {
		t.spikePath = path
		t.say(why + "; its trace: " + path)
	}
	fmt.Fprintln(t.log, "demo:", t.msg)
}

// The trace's message stays on screen for msgFrames frames once the
// trace is done, fading out over the last fadeFrames.
const msgFrames, fadeFrames = 360, 90

// say puts msg on screen, from full opacity.
func (t *tracer) say(msg string) { t.msg, t.shown = msg, 0 }

// alpha is the message's opacity this frame: full while tracing and for a
// while after, then fading to 0.
func (t *tracer) alpha() float32 {
	if t.msg == "" || t.left > 0 {
		return min(float32(len(t.msg)), 1)
	}
	return min(1, max(0, float32(msgFrames-t.shown)/fadeFrames))
}

// frame is this frame's alpha, counting the frames a finished trace's
// message was shown.
func (t *tracer) frame() float32 {
	a := t.alpha()
	if a > 0 && t.left == 0 {
		t.shown++
	}
	return a
}

// draw shows the trace's progress or its file under the top line, on a
// dark band so that it reads over the sprites, and counts the frames it
// was shown. Its text is painted into an image once per message.
func (t *tracer) draw(screen *ebiten.Image) {
	a := t.frame()
	if a <= 0 {
		return
	}
	if t.img == nil || t.imgMsg != t.msg {
		if t.img != nil {
			t.img.Deallocate()
		}
		t.img = ebiten.NewImage(len(t.msg)*charW+8, lineH+2)
		t.img.Fill(colPanel.color())
		ebitenutil.DebugPrintAt(t.img, t.msg, 4, 0)
		t.imgMsg = t.msg
	}
	var op ebiten.DrawImageOptions
	op.GeoM.Translate(panelW+8, topH+lineH+2)
	op.ColorScale.ScaleAlpha(a)
	screen.DrawImage(t.img, &op)
}

func (t *tracer) write(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	return errors.Join(t.trace.Write(f), f.Close())
}
