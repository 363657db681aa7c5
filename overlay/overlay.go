package overlay

import (
	"image"
	"io"
	"os"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
	"github.com/weft-engine/weft/profile"
)

// Options configure an Overlay; the zero value is ready to use.
type Options struct {
	Toggle []ebiten.Key // show or hide the overlay (default F3)
	Freeze []ebiten.Key // freeze the timeline on the current step, or thaw it (default F)
	Trace  []ebiten.Key // write a Chrome trace of the next TraceSteps steps (default T)
	Hold   []ebiten.Key // hold the shown step as the baseline to compare with, or let it go (default K)
	Help   []ebiten.Key // the list of keys (default F1)
	Save   []ebiten.Key // write the window's steps as a capture file into TraceDir (default G)
	// Dismiss takes a file's message (a trace, a spike, a capture) off the
	// screen (default Backspace); until then it stays.
	Dismiss []ebiten.Key
	// Step the inspector through the entities that a system's queries
	// match: the next or previous one (defaults Page Down, Page Up), and
	// the next system with a query (default End).
	InspectNext, InspectPrev, InspectQuery []ebiten.Key
	Hidden                                 bool // start hidden
	// Budget is the step time the graph's red line marks (default 1/60 s).
	// With Capture, the first step over it freezes the timeline on it and
	// writes its trace into TraceDir, once the warm-up has passed: the
	// first second (60 steps) of the game and of every new worker count,
	// whose pool starts and whose buffers grow. A game that builds its
	// world in a step of its own calls Warm after it.
	Budget   time.Duration
	Capture  bool
	TraceDir string    // where traces go (default os.TempDir())
	Log      io.Writer // a line for each trace written (nil: none)
	// Keys are the game's own keys, listed after the overlay's in the help.
	Keys []KeyHelp
	// Hint is the line under the timeline (default: the overlay's keys).
	Hint string
	// Baseline is a capture (a profile.Report, as the Save key or
	// `headless -json` write it) that the systems table compares with
	// while no step is held (nil: none).
	Baseline *profile.Report
	// Profiler is the engine's profiler to show (nil: the overlay makes
	// its own).
	Profiler *profile.Profiler
	// NoRates leaves the display's rates out: Ebiten's FPS and TPS, the
	// frame time and its breakdown (the step times stay). For pictures
	// taken where the display is not the game's, as under Xvfb's software
	// rendering, whose frame rate would be taken for the game's. The
	// environment variable WEFT_OVERLAY_NORATES=1 sets it for any game
	// (scripts/screenshots.sh does).
	NoRates bool
}

// KeyHelp is a line of the help: the keys and what they do.
type KeyHelp struct{ Keys, Does string }

// TraceSteps is how many steps the Trace key's trace holds.
const TraceSteps = 30

// The overlay's settings that do not vary.
const (
	graphLen   = 400 // steps in the step graph, one pixel each
	textEvery  = 15  // frames between repaints of the numbers: readable, and few strings a second
	warmup     = 60  // steps Capture lets pass after the start and a new worker count: a new pool starts and its buffers grow
	leftW      = 432 // the left column, at most (half the screen on a narrow one)
	defaultBud = time.Second / 60
)

// Overlay is the in-game profiler: the frame and step times, the step
// graph, the systems with their markers and counters, the predicted step
// for other pool sizes and the selected step's timeline. A game creates
// one with New and calls Update and Draw from its own. Every method is
// executed only by Ebiten's game goroutine, which is the engine's owner:
// it reads the engine's timings between steps.
type Overlay struct {
	e    *engine.Engine
	prof *profile.Profiler
	opt  Options

	panels []placed
	pic    picture
	pt     painter
	cache  *ebiten.Image
	size   image.Point // the screen the picture was laid out for
	redo   int         // frames to the next repaint; <= 0 repaints at the next Draw

	visible, help bool
	frozen        bool // the timeline stays on its step
	hist          history
	tl            timeline // the step shown: the selected one, or the last
	base          timeline // the held baseline; base.lanes == 0: none
	cap           *capture // the baseline capture (Options.Baseline), compared with while no step is held
	view          tlView
	fr            frames
	tr            tracer
	lastStep      uint64
	captured      bool   // Capture froze on a step already
	warmUntil     uint64 // the last step of Capture's warm-up
	lanes         int    // the participants of the last step polled
	gameStatus    string // the game's status line (SetStatus)
	hover         hoverState
	inspected     ecs.Entity // followed by the inspector panel; zero: none
	stepping      stepping   // the query the inspector steps through (panel_inspect.go)
	geom          tlGeom

	// The layout of the last repaint, in the panels' coordinates, and the
	// window's summary it showed (computed once a repaint).
	sum                *profile.Summary
	graphY, graphShown int
	sysRows            []sysRow
}

// New makes the overlay for e: shown (unless opt.Hidden), live.
func New(e *engine.Engine, opt Options) *Overlay {
	def := func(k *[]ebiten.Key, d ebiten.Key) {
		if len(*k) == 0 {
			*k = []ebiten.Key{d}
		}
	}
	def(&opt.Toggle, ebiten.KeyF3)
	def(&opt.Freeze, ebiten.KeyF)
	def(&opt.Trace, ebiten.KeyT)
	def(&opt.Hold, ebiten.KeyK)
	def(&opt.Help, ebiten.KeyF1)
	def(&opt.Save, ebiten.KeyG)
	def(&opt.Dismiss, ebiten.KeyBackspace)
	def(&opt.InspectNext, ebiten.KeyPageDown)
	def(&opt.InspectPrev, ebiten.KeyPageUp)
	def(&opt.InspectQuery, ebiten.KeyEnd)
	if opt.Budget <= 0 {
		opt.Budget = defaultBud
	}
	if opt.TraceDir == "" {
		opt.TraceDir = os.TempDir()
	}
	if os.Getenv("WEFT_OVERLAY_NORATES") == "1" {
		opt.NoRates = true
	}
	o := &Overlay{e: e, prof: opt.Profiler, opt: opt, visible: !opt.Hidden, view: tlView{filter: -1, dragX: -1}}
	if o.prof == nil {
		o.prof = profile.New(e, profile.Options{})
	}
	o.tr = tracer{dir: opt.TraceDir, log: opt.Log}
	o.setBaseline(opt.Baseline, "capture")
	for _, p := range []Panel{o.framePanel(), o.stepPanel(), o.graphPanel(), o.inspectPanel(), o.systemsPanel(), o.predictPanel(), o.hintPanel(), o.timelinePanel()} {
		o.Add(p)
	}
	return o
}

// Add adds a panel after those of its dock: a game's own lines or
// graphs. Top panels added after New sit under the step line.
func (o *Overlay) Add(p Panel) {
	o.panels = append(o.panels, placed{Panel: p})
	o.redo = 0
}

// Visible reports whether the overlay is shown.
func (o *Overlay) Visible() bool { return o.visible }

// SetVisible shows or hides the overlay.
func (o *Overlay) SetVisible(on bool) { o.visible, o.redo = on, 0 }

// Frozen reports whether the timeline stays on one step.
func (o *Overlay) Frozen() bool { return o.frozen }

// TraceErr is the first trace (key T, or a step over the budget) that
// could not be written, or nil: the game goes on, and a program that exits
// after it reports it.
func (o *Overlay) TraceErr() error { return o.tr.err }

// Refresh repaints the numbers at the next Draw: before a screenshot, so
// that it shows the step it captures.
func (o *Overlay) Refresh() { o.redo = 0 }

// Update takes the overlay's keys and the pointer over it, and records
// the steps run since the last call. Call it first in the game's Update,
// before the step, every tick. It reports whether the pointer is on the
// overlay: the game should then not use this frame's clicks and wheel.
func (o *Overlay) Update() (pointerOnOverlay bool) {
	o.poll()
	o.keys()
	if !o.visible {
		return false
	}
	return o.pointer()
}

// Warm starts Capture's warm-up again from the next step: after a step
// the game knows to be no spike of play (a world loaded or built, a
// level started).
func (o *Overlay) Warm() { o.warmUntil = o.lastStep + warmup }

// Say shows msg on the overlay's message band for a few seconds, shown
// or hidden (a refused key, a file saved), and writes it to Options.Log.
func (o *Overlay) Say(msg string) {
	o.tr.say(msg)
	o.tr.logf()
}

// SetStatus sets the game's status line (a replay's step, a recording),
// shown at the top right, over the world, whether or not the overlay
// is; "" shows none. It is repainted with the numbers, a few times a
// second.
func (o *Overlay) SetStatus(s string) {
	if (s == "") != (o.gameStatus == "") {
		o.redo = 0
	}
	o.gameStatus = s
}

// SetHint sets the line of keys under the timeline (Options.Hint): a
// game shows the keys that apply now (on a title screen, while paused).
func (o *Overlay) SetHint(s string) {
	if s != o.opt.Hint {
		o.opt.Hint, o.redo = s, 0
	}
}

// keys reads the overlay's keys. All but Toggle, Help and Dismiss act
// only while the overlay is shown.
func (o *Overlay) keys() {
	if anyPressed(o.opt.Toggle) {
		o.SetVisible(!o.visible)
	}
	if anyPressed(o.opt.Dismiss) {
		o.tr.dismiss()
	}
	if anyPressed(o.opt.Help) { // hidden, it shows the overlay with the help
		o.help, o.visible, o.redo = !o.help || !o.visible, true, 0
	}
	if !o.visible {
		return
	}
	if anyPressed(o.opt.Freeze) {
		o.setFrozen(!o.frozen)
	}
	if anyPressed(o.opt.Trace) {
		o.tr.start(o.e)
	}
	if anyPressed(o.opt.Hold) {
		o.hold()
	}
	if anyPressed(o.opt.Save) {
		o.save()
	}
	o.inspectKeys()
}

func anyPressed(keys []ebiten.Key) bool {
	for _, k := range keys {
		if inpututil.IsKeyJustPressed(k) {
			return true
		}
	}
	return false
}

// pointer hands the mouse to the panel under it, or to the timeline
// while a drag that began there goes on.
func (o *Overlay) pointer() bool {
	mx, my := ebiten.CursorPosition()
	_, wheel := ebiten.Wheel()
	p := Pointer{Wheel: wheel, Click: inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonLeft),
		Held: ebiten.IsMouseButtonPressed(ebiten.MouseButtonLeft), RightClick: inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonRight)}
	return o.route(mx, my, p)
}

// route gives p, at screen point (mx, my), to the panel there and
// reports whether the point is on the overlay.
func (o *Overlay) route(mx, my int, p Pointer) bool {
	if o.help {
		return true // the help covers the screen's middle: clicks close nothing, but reach no game
	}
	on := o.view.dragX >= 0 // a timeline drag goes on off it
	for i := range o.panels {
		pl := &o.panels[i]
		if !(image.Point{mx, my}).In(pl.r) && !(on && pl.Name == "timeline") {
			continue
		}
		on = true
		if pl.Input != nil {
			p.X, p.Y = mx-pl.r.Min.X, my-pl.r.Min.Y
			pl.Input(p)
		}
	}
	return on
}

// poll records the steps the engine ran since the last call: their bar
// and timeline in the history, the trace in progress, and with Capture
// the first step over the budget.
func (o *Overlay) poll() {
	st := o.prof.Last()
	if st == nil || st.Step == o.lastStep || len(st.Workers) == 0 {
		return
	}
	o.lastStep = st.Step
	o.fr.cur.steps += ms(st.Total)
	o.hist.record(st, o.fr.last.frame)
	o.tr.add(o.e)
	if n := len(st.Workers); n != o.lanes { // the start, or a new pool: warm it up
		o.lanes, o.warmUntil = n, st.Step+warmup-1
	}
	if o.opt.Capture && !o.captured && st.Step > o.warmUntil && st.Total > o.opt.Budget {
		o.captured = true
		o.selectStep(st.Step)
		o.tr.spike(o.e, spikeMessage(st.Step, st.Total, o.opt.Budget))
	}
}

// setFrozen freezes the timeline on the step it shows, or thaws it.
func (o *Overlay) setFrozen(on bool) { o.frozen, o.redo = on, 0 }

// selectStep shows step n's timeline, frozen, and reports whether the
// history still holds it.
func (o *Overlay) selectStep(n uint64) bool {
	h := o.hist.find(n)
	if h == nil {
		return false
	}
	o.tl.copyTimeline(h)
	o.view.from, o.view.to = 0, 0
	o.setFrozen(true)
	return true
}

// hold keeps the shown step as the baseline, or lets the baseline go.
func (o *Overlay) hold() {
	if o.base.lanes > 0 {
		o.base.lanes = 0
	} else if o.tl.lanes > 0 {
		o.base.copyTimeline(&o.tl)
	}
	o.redo = 0
}

// Draw draws the overlay over screen: call it last in the game's Draw.
// It repaints its picture when due and blits it, then draws what follows
// the cursor.
func (o *Overlay) Draw(screen *ebiten.Image) {
	start := time.Now()
	defer o.fr.addOverlay(start)
	o.fr.begin(start) // the steps are recorded by Update, once a tick
	if o.tr.frame() || o.tr.fresh {
		o.tr.fresh, o.redo = false, 0
	}
	b := screen.Bounds()
	if o.redo--; o.redo <= 0 || o.cache == nil || o.size != b.Size() {
		o.repaint(b.Size())
		o.redo = textEvery
	}
	var op ebiten.DrawImageOptions
	screen.DrawImage(o.cache, &op)
	if !o.visible || o.help {
		return
	}
	mx, my := ebiten.CursorPosition()
	for i := range o.panels {
		if pl := &o.panels[i]; pl.Draw != nil && !pl.r.Empty() {
			pl.Draw(screen, pl.r, mx, my)
		}
	}
}

// repaint lays the picture out for a screen of size sz and paints it
// into the cache.
func (o *Overlay) repaint(sz image.Point) {
	if !o.frozen {
		o.tl.copyFrom(o.prof.Last())
	}
	o.layout(sz)
	if o.cache == nil || o.size != sz {
		if o.cache != nil {
			o.cache.Deallocate()
		}
		o.cache = ebiten.NewImage(sz.X, sz.Y)
	}
	o.size = sz
	o.cache.Clear()
	o.pt.paint(o.cache, &o.pic)
}

func ms(d time.Duration) float32 { return float32(d.Seconds() * 1000) }

// Boxes are the texts of the last repaint, where they were drawn: for a
// game's tests of its own panels (they stay on the screen, over no other
// text).
func (o *Overlay) Boxes() []Box { return o.pic.boxes }
