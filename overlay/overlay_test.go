package overlay

import (
	"fmt"
	"image"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
)

// These tests import Ebiten, which panics at init without a display: run
// them under xvfb-run (make test does). None opens a window: the overlay's
// picture is data (boxes and shapes) until it is painted.

// pos is the test world's one component.
type pos struct{ X, Y float64 }

// mover is a system with a chunk pass, a marker inside it and a counter.
type mover struct {
	p     ecs.Writer[pos]
	pass  *engine.Pass
	mark  engine.Marker
	count engine.Counter
}

func (s *mover) Name() string { return "mover" }

func (s *mover) Build(b *engine.Builder) error {
	d := b.Decl()
	s.p = ecs.Write[pos](d)
	s.pass = b.Chunks("step", ecs.NewQuery1(d, s.p), s.step)
	s.mark, s.count = b.Marker("inner"), b.Counter("moved")
	return nil
}

func (s *mover) Schedule(f *engine.Frame) error { return f.Run(s.pass) }

func (s *mover) step(c *ecs.Chunk) {
	sp := s.mark.Begin(c.Worker())
	p := s.p.Column(c)
	for i := range p {
		p[i].X += 1
	}
	sp.End()
	s.count.Add(c.Worker(), int64(len(p)))
}

// newEngine is a small engine with the mover over n entities, stepped
// steps times with the overlay polling after each step.
func newEngine(t *testing.T, workers, n, steps int, opt Options, more ...engine.System) (*engine.Engine, *Overlay) {
	t.Helper()
	w := ecs.NewWorld(ecs.Options{})
	comp := ecs.NewComponent[pos](w)
	cmds := w.NewCommands()
	for range n {
		comp.Add(cmds, cmds.Spawn(), pos{})
	}
	e, err := engine.New(w, engine.Config{Workers: workers, Serial: workers == 0, Batch: 64})
	require.NoError(t, err)
	t.Cleanup(func() { assert.NoError(t, e.Close()) })
	require.NoError(t, e.Add(engine.Update, &mover{}))
	for _, m := range more {
		require.NoError(t, e.Add(engine.Update, m))
	}
	require.NoError(t, e.Build())
	_, err = w.Apply(cmds)
	require.NoError(t, err)
	o := New(e, opt)
	for range steps {
		require.NoError(t, e.Tick())
		o.poll()
	}
	return e, o
}

// The screens the layout must fit.
var screens = []image.Point{{1280, 720}, {800, 600}}

// checkBoxes fails the test for every text box that leaves the screen
// or overlaps another.
func checkBoxes(t *testing.T, what string, sz image.Point, boxes []Box) {
	t.Helper()
	scr := image.Rectangle{Max: sz}
	for i, b := range boxes {
		assert.True(t, b.R.In(scr), "%s at %v: %s's %q at %v leaves the screen", what, sz, b.Panel, b.Text, b.R)
		for _, c := range boxes[i+1:] {
			assert.False(t, b.R.Overlaps(c.R), "%s at %v: %s's %q at %v overlaps %s's %q at %v", what, sz, b.Panel, b.Text, b.R, c.Panel, c.Text, c.R)
		}
	}
}

// longestMessages are the longest messages the overlay prints on its
// band: a spike's with the default trace folder, and a trace that
// failed on a bad folder.
func longestMessages(t *testing.T, e *engine.Engine) []string {
	spike := spikeMessage(math.MaxUint64, 99999*time.Millisecond, 16600*time.Microsecond) + "; its trace: " +
		filepath.Join(os.TempDir(), fmt.Sprintf("weft-spike-step-%d-20060102-150405.000.json", uint64(math.MaxUint64)))
	tr := tracer{dir: filepath.Join(t.TempDir(), "no", strings.Repeat("such-folder-", 8))}
	tr.start(e)
	for range TraceSteps {
		require.NoError(t, e.Tick())
		tr.add(e)
	}
	require.Contains(t, tr.msg, "trace failed: ")
	return []string{spike, tr.msg}
}

// longestStatus is about the longest status a game sets: the demo's
// replay verdict when a step differs, with its divergence report.
var longestStatus = "REPLAY DIFFERS at step 18446744073709551615 of 18446744073709551615: " +
	strings.Repeat("system stun-look, entity 4294967295v4294967295, component game.Alert: want {Left:2147483647}, got {Left:-2147483648}; ", 3) + "(Esc quits, exit code 1)"

// At 1280×720 and 800×600, with the longest messages and every status
// on, no text leaves the screen or overlaps another: the panels, the
// floating bands, the help, the hint while hidden.
func TestLayoutFits(t *testing.T) {
	e, o := newEngine(t, 3, 5000, 20, Options{})
	msgs := longestMessages(t, e)
	o.opt.TraceDir = filepath.Join(t.TempDir(), "no", strings.Repeat("such-folder-", 8))
	o.save()
	require.Contains(t, o.tr.msg, "capture failed: ")
	msgs = append(msgs, o.tr.msg)
	o.setBaseline(o.prof.Report(), "capture") // its status line too
	o.poll()
	o.tl.copyFrom(o.prof.Last())
	o.hold()                          // a baseline held
	require.True(t, o.selectStep(18)) // a step selected: frozen
	o.view.filter = 0                 // filtered
	o.view.from, o.view.to = 0, 10000 // zoomed
	o.SetStatus(longestStatus)
	for _, sz := range screens {
		for _, msg := range msgs {
			o.tr.say(msg)
			o.tr.sticky = true
			o.layout(sz)
			checkBoxes(t, "panels", sz, o.pic.boxes)
			texts := boxTexts(o.pic.boxes)
			assert.Contains(t, panelsOf(o.pic.boxes), "message", "the message is on screen")
			assert.Contains(t, panelsOf(o.pic.boxes), "gamestatus", "the game's status is on screen")
			assert.Contains(t, texts, "timeline FROZEN on step")
			assert.Contains(t, texts, "baseline: step")
			for _, name := range []string{"frame", "step", "graph", "systems", "predict", "timeline", "hint"} {
				assert.Contains(t, panelsDrawn(o), name, "at %v every panel fits", sz)
			}
		}
		o.help = true
		o.layout(sz)
		checkBoxes(t, "help", sz, o.pic.boxes)
		o.help, o.visible = false, false
		o.layout(sz)
		checkBoxes(t, "hidden", sz, o.pic.boxes)
		assert.Equal(t, []string{"hint", "gamestatus", "message"}, panelsOf(o.pic.boxes), "hidden, the hint, the game's status and the message")
		assert.Equal(t, "F3 overlay  F1 keys", o.pic.boxes[0].Text)
		o.SetStatus("")
		o.tr.dismiss()
		o.layout(sz)
		assert.Equal(t, []string{"F3 overlay  F1 keys"}, boxTexts2(o.pic.boxes), "hidden, with nothing to say, only the hint")
		o.SetStatus(longestStatus)
		o.visible = true
	}
}

func panelsOf(boxes []Box) []string {
	var s []string
	for _, b := range boxes {
		s = append(s, b.Panel)
	}
	return s
}

func boxTexts(boxes []Box) string { return strings.Join(boxTexts2(boxes), "\n") }

func boxTexts2(boxes []Box) []string {
	var s []string
	for _, b := range boxes {
		s = append(s, b.Text)
	}
	return s
}

func panelsDrawn(o *Overlay) []string {
	var s []string
	for _, p := range o.panels {
		if !p.r.Empty() {
			s = append(s, p.Name)
		}
	}
	return s
}

// The help's keys stay in their column: every description starts at the
// same column, after the longest key.
func TestHelpColumns(t *testing.T) {
	_, o := newEngine(t, 0, 100, 1, Options{Keys: []KeyHelp{{Keys: "a very long key name of the game's", Does: strings.Repeat("does a lot ", 20)}}})
	for _, sz := range screens {
		o.help = true
		o.layout(sz)
		require.Len(t, o.pic.boxes, 1)
		lines := strings.Split(o.pic.boxes[0].Text, "\n")[1:]
		col := -1
		for _, l := range lines {
			if l == "..." {
				continue
			}
			i := strings.Index(l, "  ") // the gap after the key column
			for i < len(l) && l[i] == ' ' {
				i++
			}
			if col < 0 {
				col = i
			}
			assert.Equal(t, col, i, "at %v, %q", sz, l)
		}
		checkBoxes(t, "help", sz, o.pic.boxes)
	}
}

// The tooltip stays on the screen, off the timeline's title and off the
// line of keys under the timeline, wherever the cursor is over the lanes.
func TestTooltipPlace(t *testing.T) {
	for _, sz := range screens {
		scr := image.Rectangle{Max: sz}
		title := image.Rect(0, sz.Y-140, sz.X, sz.Y-108)
		keys := image.Rect(0, sz.Y-34, sz.X, sz.Y)
		for y := sz.Y - 108; y < sz.Y-34; y += 3 {
			for _, x := range []int{0, 5, sz.X / 2, sz.X - 5} {
				r := tooltipAt(x, y, 300, 2*lineH+4, scr, title, keys)
				assert.True(t, r.In(scr), "cursor (%d, %d): %v", x, y, r)
				assert.False(t, r.Overlaps(title), "cursor (%d, %d): %v covers the title", x, y, r)
				assert.False(t, r.Overlaps(keys), "cursor (%d, %d): %v covers the keys", x, y, r)
			}
		}
	}
}

// Short times read in µs or ns, never "0.000 ms"; the axis's ticks too.
func TestShortTimes(t *testing.T) {
	assert.Equal(t, "400 ns", dur(400))
	assert.Equal(t, "12.5 µs", dur(12500))
	assert.Equal(t, "1.500 ms", dur(1.5e6))
	assert.Equal(t, "5 µs", tickLabel(0.005, 0.005))
	assert.Equal(t, "0.2 µs", tickLabel(0.0002, 0.0001))
	assert.Equal(t, 2, chars("µs"))
}

// wrap keeps to the width and the line count; ellipsis marks a cut.
func TestWrap(t *testing.T) {
	path := "/tmp/" + strings.Repeat("long-folder-name/", 10) + "weft-trace.json"
	for _, n := range []int{20, 60} {
		lines := wrap("trace written to "+path+" (open it)", n, 0)
		for _, l := range lines {
			assert.LessOrEqual(t, chars(l), n, "%q", l)
		}
		nospace := func(s string) string { return strings.ReplaceAll(s, " ", "") }
		assert.Equal(t, nospace("trace written to "+path+" (open it)"), nospace(strings.Join(lines, "")), "nothing lost")
	}
	lines := wrap(strings.Repeat("word ", 100), 20, 3)
	assert.Len(t, lines, 3)
	assert.True(t, strings.HasSuffix(lines[2], "..."), lines[2])
	assert.Equal(t, "abcdefg...", ellipsis("abcdefghijklmn", 10))
	assert.Equal(t, "short", ellipsis("short", 10))
}

// A trace that cannot be written (a spike's here) is kept for TraceErr,
// so that a program that exits after it does not report success.
func TestTraceErr(t *testing.T) {
	e, o := newEngine(t, 0, 10, 1, Options{TraceDir: filepath.Join(t.TempDir(), "gone")})
	require.NoError(t, o.TraceErr())
	o.tr.spike(e, "why")
	assert.Error(t, o.TraceErr())
	assert.Contains(t, o.tr.msg, "its trace failed")
}

// idle is a component no entity has: readers of it order freely.
type idle struct{ N int }

// reader is a system with a chunk pass over idle, named as one of a
// game's: with a marker and a counter when marked.
type reader struct {
	name   string
	marked bool
	p      ecs.Reader[idle]
	pass   *engine.Pass
	mark   engine.Marker
	count  engine.Counter
}

func (s *reader) Name() string { return s.name }

func (s *reader) Build(b *engine.Builder) error {
	d := b.Decl()
	s.p = ecs.Read[idle](d)
	s.pass = b.Chunks("read", ecs.NewQuery1(d, s.p), func(c *ecs.Chunk) {
		if s.marked {
			sp := s.mark.Begin(c.Worker())
			defer sp.End()
			s.count.Add(c.Worker(), int64(c.Len()))
		}
	})
	if s.marked {
		s.mark, s.count = b.Marker("part"), b.Counter("rows")
	}
	return nil
}

func (s *reader) Schedule(f *engine.Frame) error { return f.Run(s.pass) }

// At the default settings of a game the size of the demo (a game panel,
// 16 systems, 3 of them with a marker and a counter, a status line),
// with the pool of a 2-core machine (1 worker) or of a 16-core one (15),
// every panel shows at 1280×720 and 800×600, the parallelism and
// predictions included: the systems table leaves them room.
func TestLayoutDemoSize(t *testing.T) {
	for _, workers := range []int{1, 15} {
		var more []engine.System
		for i := range 15 {
			more = append(more, &reader{name: fmt.Sprintf("system-%d", i), marked: i%5 == 0})
		}
		e, o := newEngine(t, workers, 5000, 20, Options{}, more...)
		o.Add(Panel{Name: "game", Dock: Top, Layout: func(c *Canvas) int {
			return c.Wrap(4, 1, "entities 23210  visible 2097  landings 4012 (hard 2799)  seekers lost 163   sprites 2097 in 3 draw calls", 2) + 2
		}})
		o.SetStatus("REC step 12345 into /tmp/weft-run.replay (R rewind and F9 load are off while recording)")
		for _, sz := range screens {
			o.layout(sz)
			checkBoxes(t, fmt.Sprintf("%d workers", workers), sz, o.pic.boxes)
			for _, name := range []string{"frame", "step", "game", "graph", "systems", "predict", "timeline", "hint"} {
				assert.Contains(t, panelsDrawn(o), name, "%d workers, %v: every panel fits", workers, sz)
			}
			texts := boxTexts(o.pic.boxes)
			assert.Contains(t, texts, "parallelism ")
			assert.Contains(t, texts, "16: ", "the prediction for 16 threads")
			assert.Contains(t, panelsOf(o.pic.boxes), "gamestatus")
		}
		// An entity that every system reaches: a long inspector leaves
		// the systems table's title and the predictions their room.
		w := e.World()
		b := w.NewCommands()
		ent := b.Spawn()
		ecs.NewComponent[pos](w).Add(b, ent, pos{})
		ecs.NewComponent[idle](w).Add(b, ent, idle{})
		rep, err := w.Apply(b)
		require.NoError(t, err)
		ent, err = rep.Spawned(ent)
		require.NoError(t, err)
		require.NoError(t, e.Tick())
		o.poll()
		o.Inspect(ent)
		for _, sz := range screens {
			o.layout(sz)
			checkBoxes(t, fmt.Sprintf("%d workers, inspecting", workers), sz, o.pic.boxes)
			for _, name := range []string{"inspect", "systems", "predict", "timeline"} {
				assert.Contains(t, panelsDrawn(o), name, "%d workers, %v, inspecting: every panel fits", workers, sz)
			}
		}
	}
}

// NoRates (or WEFT_OVERLAY_NORATES=1) leaves the display's rates out of
// the picture: no FPS, TPS, frame time or frame line; the step times stay.
func TestNoRates(t *testing.T) {
	t.Setenv("WEFT_OVERLAY_NORATES", "1")
	_, o := newEngine(t, 1, 1000, 10, Options{})
	require.True(t, o.opt.NoRates)
	o.layout(screens[0])
	texts := boxTexts(o.pic.boxes)
	for _, rate := range []string{"FPS", "TPS", "frame ms", "line: frame", "frame p50"} {
		assert.NotContains(t, texts, rate)
	}
	assert.Contains(t, texts, "step ms p50 ")
	assert.Contains(t, texts, "left out")
	checkBoxes(t, "NoRates", screens[0], o.pic.boxes)
}
