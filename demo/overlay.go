package main

import (
	"fmt"
	"image"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/ebitenutil"
	"github.com/hajimehoshi/ebiten/v2/vector"

	"github.com/weft-engine/weft/demo/game"
	"github.com/weft-engine/weft/engine"
)

// The overlay's layout on the 1280×720 logical screen, in pixels.
// ebitenutil's debug font is 6×16.
const (
	charW, lineH = 6, 16
	topH         = 18  // the top line
	panelW       = 432 // the left panel: graph, systems, prediction
	graphLen     = 400 // frames in the frame-time graph, one pixel each
	graphH       = 80
	rowH         = 18 // a system's row
	predH        = 14 // a prediction's row
	laneLabelW   = 48 // "owner", "w1", ... left of the lanes
	helpH        = 18 // the help line at the bottom
	textEvery    = 15 // steps between refreshes of the numbers: readable, and few strings a second
)

// budgetMS is the frame budget at 60 Hz, the graph's red line.
const budgetMS = 1000.0 / 60

const helpLine = "H keys  O overlay  +/- workers  S serial  C checks  B batch  Space/click burst  P pause  N step  F freeze  T trace  drag/arrows pan  wheel zoom  Esc quit"

// helpText is the full list of keys (H).
const helpText = `keys
  + / -        one worker more / fewer (0 workers is serial)
  S            serial <-> parallel (back to the last worker count)
  C            safety and ecs checks on / off
  B            batch size: 64, 256, 1024, 4096
  Space, click a burst of bodies at the cursor
  P            pause / resume;  N  one step while paused
  O, Tab       overlay on / off
  F            freeze the timeline on this step (hover its boxes)
  T            write a Chrome trace of the next 30 steps (Perfetto)
  arrows, drag pan;  wheel  zoom about the cursor
  H, F1        this list;  Esc  quit`

// The colours of the overlay.
var (
	colPanel    = rgba(0x08, 0x0a, 0x12, 0xd8)
	colText     = rgba(0xff, 0xff, 0xff, 0xff)
	colGrid     = rgba(0x40, 0x48, 0x60, 0xff)
	colBudget   = rgba(0xff, 0x40, 0x40, 0xff)
	colStep     = rgba(0x50, 0xa0, 0xff, 0xff)
	colOver     = rgba(0xff, 0x70, 0x50, 0xff)
	colWall     = rgba(0xe8, 0xe8, 0xe8, 0xff)
	colCritical = rgba(0xff, 0xe0, 0x30, 0xff)
	colEngine   = rgba(0x90, 0x90, 0x98, 0xff)
	colLane     = rgba(0x14, 0x18, 0x26, 0xff)
	// By system index, in execution order.
	colSystems = [...]col{
		rgba(0xa8, 0x78, 0xff, 0xff), rgba(0x40, 0xb8, 0xff, 0xff), rgba(0x60, 0xe0, 0x70, 0xff), rgba(0xff, 0xa0, 0x30, 0xff),
		rgba(0xff, 0x68, 0xb0, 0xff), rgba(0x40, 0xe0, 0xd0, 0xff), rgba(0xe0, 0xe0, 0x50, 0xff), rgba(0xc0, 0x80, 0x60, 0xff),
	}
)

func systemColor(i int32) col {
	if i < 0 {
		return colEngine
	}
	return colSystems[int(i)%len(colSystems)]
}

// timeline is one step's job slices, copied from the engine's timings so
// that it can be frozen; its buffers are reused.
type timeline struct {
	slices  []engine.Slice
	names   []string // system names, by index
	lanes   int      // participants: the owner and the workers
	step    uint64
	jobs    uint64
	end     int64 // the last slice's end, ns since the first start
	span    time.Duration
	path    time.Duration // the critical path's cost
	pathLen int
}

func (t *timeline) copyFrom(st *engine.StepTimings) {
	t.slices = append(t.slices[:0], st.Timeline...)
	t.names = t.names[:0]
	for i := range st.Systems {
		t.names = append(t.names, st.Systems[i].Name)
	}
	t.lanes, t.step, t.jobs, t.span, t.end, t.path = len(st.Workers), st.Step, st.Jobs, st.Span, 0, 0
	for i := range t.slices {
		t.end = max(t.end, t.slices[i].End)
	}
	for _, p := range st.Critical {
		t.path += p.Cost
	}
	t.pathLen = len(st.Critical)
}

// sysRow is one system's row: medians over the timings window.
type sysRow struct {
	name             string
	span, work, ents float64 // ms, ms, rows
	text             string
}

// overlay draws the timings. It changes only every textEvery steps
// (readable numbers, and few strings and paths a second): everything is
// then painted into a cached image, and each frame blits the cache's
// panels and draws only the hovered box and the status over them.
// Executed only by Ebiten's game goroutine.
type overlay struct {
	sh      shapes
	graph   [graphLen]struct{ step, wall float32 } // ms, a ring
	head    int                                    // the next slot of graph
	tl      timeline
	sys     []sysRow
	pred    [engine.NumPredicted]float64 // ms
	cache   *ebiten.Image
	panels  [3]*ebiten.Image // sub-images of cache: the top line, the left panel, the timeline
	blit    ebiten.DrawImageOptions
	refresh int  // frames to the next repaint
	frozen  bool // the timeline was frozen at the last repaint

	top, sysHead, predHead, tlHead, graphHead string
	predText                                  [engine.NumPredicted]string

	hovered     int    // the slice under the cursor, or -1
	hoverText   string // of slice hoveredText of step hoverStep
	hoveredText int
	hoverStep   uint64

	lineVs []ebiten.Vertex
	lineIs []uint16

	// The layout of the last repaint.
	graphY, sysY, predY, panelBottom, timelineTop, lh int
}

func newOverlay() *overlay { return &overlay{hovered: -1} }

// record takes the last step's sample for the graph: the step's time and
// frame, the wall time between the last two Draws (rendering included;
// Ebiten runs several steps a frame when frames are slow).
func (o *overlay) record(g *game.Game, frame time.Duration) {
	st := g.Engine().Timings().Last()
	o.graph[o.head] = struct{ step, wall float32 }{ms(st.Total), ms(frame)}
	o.head = (o.head + 1) % graphLen
}

// capture copies the last step's timeline, unless frozen on an earlier one.
func (o *overlay) capture(e *engine.Engine, frozen bool) {
	if st := e.Timings().Last(); (!frozen || o.tl.lanes == 0) && st != nil && len(st.Workers) > 0 {
		o.tl.copyFrom(st)
	}
}

func ms(d time.Duration) float32 { return float32(d.Seconds() * 1000) }

// texts rebuilds the numbers' texts from the window's summary.
func (o *overlay) texts(w *window, fps, tps float64) {
	e := w.g.Engine()
	sum := e.Timings().Summary()
	mode := "parallel"
	if e.Workers() == 0 {
		mode = "serial"
	}
	safety := "off"
	if e.Checks() {
		safety = "on"
	}
	o.top = fmt.Sprintf("FPS %4.1f  TPS %4.1f  frame ms p50 %.2f p95 %.2f p99 %.2f  entities %d  visible %d  jobs/frame %.0f  workers %d  %s  safety %s  batch %d",
		fps, tps, sum.Total.P50, sum.Total.P95, sum.Total.P99, w.g.Len(), w.g.Visible(), sum.Jobs.P50, e.Workers(), mode, safety, e.Batch())
	o.graphHead = fmt.Sprintf("last %d steps: bars step ms, line frame ms; red %.1f", graphLen, budgetMS)
	o.sys = o.sys[:0]
	for i := range sum.Systems {
		s := &sum.Systems[i]
		o.sys = append(o.sys, sysRow{name: s.Name, span: s.Span.P50, work: s.Work.P50, ents: s.Entities.P50,
			text: fmt.Sprintf("%6.2f %6.2f ms %6.0f", s.Span.P50, s.Work.P50, s.Entities.P50)})
	}
	o.sysHead = "systems, in order   span / work (p50)       span   work    entities"
	o.predHead = fmt.Sprintf("parallelism %.2f (work/span); predicted step:", sum.Parallelism.P50)
	for i, p := range engine.PredictParticipants() {
		o.pred[i] = sum.Predicted[i].P50
		o.predText[i] = fmt.Sprintf("%2d threads %6.2f ms", p, o.pred[i])
	}
	state := "live (F freezes)"
	if w.ctl.Frozen {
		state = "FROZEN (F thaws)"
	}
	o.tlHead = fmt.Sprintf("step %d timeline, %s: owner + %d workers, %d jobs, span %.2f ms, critical path %.2f ms in %d jobs (bright, yellow)",
		o.tl.step, state, o.tl.lanes-1, o.tl.jobs, ms(o.tl.span), ms(o.tl.path), o.tl.pathLen)
}

// laneH is a timeline lane's height for n lanes: 16 lanes fit.
func laneH(n int) int { return min(max(160/max(n, 1), 9), 18) }

// covers reports whether the screen point is on the overlay, where the
// pointer neither drags nor clicks.
func (o *overlay) covers(x, y int) bool {
	if o.timelineTop == 0 {
		return false // not laid out yet
	}
	return y < topH || x < panelW && y < o.panelBottom || y >= o.timelineTop
}

// layout places the panels for the current texts and timeline.
func (o *overlay) layout(sh int) {
	o.graphY = topH + 2 + lineH
	o.sysY = o.graphY + graphH + 6
	o.predY = o.sysY + lineH + len(o.sys)*rowH + 4
	o.panelBottom = o.predY + lineH + len(o.pred)*predH + 4
	o.lh = laneH(o.tl.lanes)
	o.timelineTop = sh - helpH - lineH - o.tl.lanes*o.lh - 6
}

// draw draws the overlay onto screen, repainting the cache when due.
func (o *overlay) draw(screen *ebiten.Image, w *window, fps, tps float64) {
	b := screen.Bounds()
	if o.refresh--; o.refresh <= 0 || o.cache == nil || o.frozen != w.ctl.Frozen {
		o.capture(w.g.Engine(), w.ctl.Frozen)
		o.texts(w, fps, tps)
		o.layout(b.Dy())
		o.paint(b)
		o.refresh, o.frozen = textEvery, w.ctl.Frozen
	}
	for _, p := range o.panels {
		o.blit.GeoM.Reset()
		o.blit.GeoM.Translate(float64(p.Bounds().Min.X), float64(p.Bounds().Min.Y))
		screen.DrawImage(p, &o.blit)
	}
	mx, my := ebiten.CursorPosition()
	o.sh.begin(screen)
	o.hover(&o.sh, b.Dx(), mx, my)
	o.sh.flush()
	o.drawHover(screen, mx, my)
}

// drawHelp shows the list of keys (H), with the overlay on or off.
func (o *overlay) drawHelp(screen *ebiten.Image) {
	o.sh.begin(screen)
	o.sh.rect(panelW+20, topH+30, 460, 12*lineH+12, colPanel)
	o.sh.flush()
	ebitenutil.DebugPrintAt(screen, helpText, panelW+28, topH+36)
}

// paint draws the slowly changing parts into the cache: the panels'
// backgrounds, texts and bars, and the timeline.
func (o *overlay) paint(b image.Rectangle) {
	if o.cache == nil || o.cache.Bounds() != b {
		o.cache = ebiten.NewImage(b.Dx(), b.Dy())
	}
	c := o.cache
	c.Clear()
	o.panels = [3]*ebiten.Image{
		c.SubImage(image.Rect(0, 0, b.Dx(), topH)).(*ebiten.Image),
		c.SubImage(image.Rect(0, topH, panelW, o.panelBottom)).(*ebiten.Image),
		c.SubImage(image.Rect(0, o.timelineTop, b.Dx(), b.Dy())).(*ebiten.Image),
	}
	s := &o.sh
	s.begin(c)
	for _, p := range o.panels {
		r := p.Bounds()
		s.rect(float32(r.Min.X), float32(r.Min.Y), float32(r.Dx()), float32(r.Dy()), colPanel)
	}
	s.rect(8, float32(o.graphY), graphLen, graphH, colLane)
	o.paintGraph(s)
	o.paintSystems(s, o.sysY+lineH)
	o.paintPrediction(s, o.predY+lineH)
	o.paintTimeline(s, b.Dx())
	s.flush()
	o.paintFrameLine(c)

	ebitenutil.DebugPrintAt(c, o.top, 4, 1)
	ebitenutil.DebugPrintAt(c, o.graphHead, 6, topH+2)
	ebitenutil.DebugPrintAt(c, o.sysHead, 6, o.sysY)
	for i := range o.sys {
		ebitenutil.DebugPrintAt(c, o.sys[i].name, 6, o.sysY+lineH+i*rowH)
		ebitenutil.DebugPrintAt(c, o.sys[i].text, 232, o.sysY+lineH+i*rowH)
	}
	ebitenutil.DebugPrintAt(c, o.predHead, 6, o.predY)
	for i := range o.predText {
		ebitenutil.DebugPrintAt(c, o.predText[i], 6, o.predY+lineH+i*predH-2)
	}
	ebitenutil.DebugPrintAt(c, o.tlHead, 6, o.timelineTop)
	for l := range o.tl.lanes {
		ebitenutil.DebugPrintAt(c, laneName(l), 6, o.timelineTop+lineH+l*o.lh+(o.lh-lineH)/2)
	}
	ebitenutil.DebugPrintAt(c, helpLine, 6, b.Dy()-helpH+1)
}

// laneNames are the lanes' labels: the owner, then the workers.
var laneNames = func() (n [game.MaxWorkers + 1]string) {
	n[0] = "owner"
	for i := 1; i < len(n); i++ {
		n[i] = fmt.Sprintf("w%d", i)
	}
	return n
}()

func laneName(l int) string {
	if l < len(laneNames) {
		return laneNames[l]
	}
	return "w?"
}

// paintGraph adds the frame-time bars, one pixel a step, oldest left, and
// the budget line a third of the way up; longer frames are clipped.
func (o *overlay) paintGraph(s *shapes) {
	top := o.graphTop()
	x0, base := float32(8), float32(o.graphY+graphH)
	for i := range graphLen {
		v := o.graph[(o.head+i)%graphLen].step
		c := colStep
		if v > budgetMS {
			c = colOver
		}
		h := min(v/top, 1) * graphH
		s.rect(x0+float32(i), base-h, 1, h, c)
	}
	s.rect(x0, base-float32(budgetMS/top*graphH), graphLen, 1, colBudget)
}

// graphTop is the graph's full scale, in ms: fixed, so that the first
// steps' warm-up does not squash it, and three budgets, so that frames of
// software GL (Xvfb: 30 to 50 ms) still show.
func (o *overlay) graphTop() float32 { return 3 * budgetMS }

// paintFrameLine strokes the wall time between Draws over the bars, with
// Ebiten's vector package, into reused vertex buffers.
func (o *overlay) paintFrameLine(dst *ebiten.Image) {
	top := o.graphTop()
	var line vector.Path // a new one each time: v2.8's Path has no Reset
	x0, base := float32(8), float32(o.graphY+graphH)
	for i := range graphLen {
		v := o.graph[(o.head+i)%graphLen].wall
		py := base - min(v/top, 1)*graphH
		if i == 0 {
			line.MoveTo(x0, py)
		} else {
			line.LineTo(x0+float32(i), py)
		}
	}
	o.lineVs, o.lineIs = line.AppendVerticesAndIndicesForStroke(o.lineVs[:0], o.lineIs[:0], &vector.StrokeOptions{Width: 1})
	for i := range o.lineVs {
		v := &o.lineVs[i]
		v.SrcX, v.SrcY = 1, 1
		v.ColorR, v.ColorG, v.ColorB, v.ColorA = colWall.r, colWall.g, colWall.b, 0.8
	}
	dst.DrawTriangles(o.lineVs, o.lineIs, white, &ebiten.DrawTrianglesOptions{AntiAlias: true})
}

// paintSystems adds each system's span bar over its work bar, both
// scaled to the largest.
func (o *overlay) paintSystems(s *shapes, y int) {
	scale := 0.0
	for i := range o.sys {
		scale = max(scale, o.sys[i].work, o.sys[i].span)
	}
	const x0, wmax = 90, 136
	for i := range o.sys {
		r := &o.sys[i]
		c := systemColor(int32(i))
		ry := float32(y + i*rowH)
		s.rect(x0, ry+2, wmax, 13, colLane)
		if scale > 0 {
			s.rect(x0, ry+3, float32(r.span/scale*wmax)+1, 5, c)
			s.rect(x0, ry+9, float32(r.work/scale*wmax)+1, 5, c.scaled(0.6))
		}
	}
}

// paintPrediction adds a bar per pool size, scaled to the one-thread time.
func (o *overlay) paintPrediction(s *shapes, y int) {
	scale := max(o.pred[0], 1e-9)
	for i, p := range o.pred {
		ry := float32(y + i*predH)
		s.rect(136, ry+2, float32(p/scale*280)+1, predH-4, colStep.scaled(0.8))
	}
}

// box is slice i's box in the timeline; the timeline spans width pixels
// of the screen from laneLabelW.
func (o *overlay) box(i int, width float32) (x, y, w, h float32) {
	sl := &o.tl.slices[i]
	end := float32(max(o.tl.end, 1))
	x = laneLabelW + float32(sl.Start)/end*width
	w = max(float32(sl.End-sl.Start)/end*width, 1)
	return x, float32(o.timelineTop + lineH + int(sl.Worker)*o.lh), w, float32(o.lh - 1)
}

func tlWidth(sw int) float32 { return float32(sw - laneLabelW - 8) }

// paintTimeline adds the lanes, millisecond ticks and a box per job:
// coloured by system, bright with a yellow foot on the critical path,
// dimmed elsewhere.
func (o *overlay) paintTimeline(s *shapes, sw int) {
	y, width := float32(o.timelineTop+lineH), tlWidth(sw)
	for l := range o.tl.lanes {
		s.rect(laneLabelW, y+float32(l*o.lh), width, float32(o.lh-1), colLane)
	}
	end := float32(max(o.tl.end, 1)) / 1e6 // ms
	// A tick every 0.1, 0.2, 0.5, 1, 2, 5, ... ms: at most 10.
	tick := float32(0.1)
	for _, t := range [...]float32{0.2, 0.5, 1, 2, 5, 10, 20, 50} {
		if end/tick > 10 {
			tick = t
		}
	}
	for t := float32(0); t <= end; t += tick {
		s.rect(laneLabelW+t/end*width, y, 1, float32(o.tl.lanes*o.lh), colGrid)
	}
	for i := range o.tl.slices {
		sl := &o.tl.slices[i]
		bx, by, bw, bh := o.box(i, width)
		c := systemColor(sl.System)
		if !sl.Critical {
			c = c.scaled(0.55)
		}
		s.rect(bx, by, bw, bh, c)
		if sl.Critical {
			s.rect(bx, by+bh-2, bw, 2, colCritical)
		}
	}
}

// hover finds the box under the cursor (mx, my) and outlines it.
func (o *overlay) hover(s *shapes, sw, mx, my int) {
	o.hovered = -1
	if my < o.timelineTop+lineH {
		return
	}
	fx, fy, width := float32(mx), float32(my), tlWidth(sw)
	for i := range o.tl.slices {
		bx, by, bw, bh := o.box(i, width)
		if fx >= bx && fx < bx+max(bw, 2) && fy >= by && fy < by+bh+1 {
			o.hovered = i
			s.frame(bx, by, bw, bh, 1, colText)
		}
	}
}

// hoverLabel is the hovered box's details, rebuilt only when the box or
// the step changes.
func (o *overlay) hoverLabel() string {
	if o.hoverStep == o.tl.step && o.hoverText != "" && o.hovered == o.hoveredText {
		return o.hoverText
	}
	sl := &o.tl.slices[o.hovered]
	name := "(engine)"
	if sl.System >= 0 && int(sl.System) < len(o.tl.names) {
		name = o.tl.names[sl.System]
	}
	crit := ""
	if sl.Critical {
		crit = ", on the critical path"
	}
	o.hoverText = fmt.Sprintf("%s: %s chunk %d, %d entities\n%s, start %.3f ms, duration %.3f ms%s",
		name, sl.Label, sl.Chunk, sl.Rows, laneName(int(sl.Worker)), float64(sl.Start)/1e6, float64(sl.End-sl.Start)/1e6, crit)
	o.hoverStep, o.hoveredText = o.tl.step, o.hovered
	return o.hoverText
}

// drawHover shows the hovered box's details by the cursor.
func (o *overlay) drawHover(screen *ebiten.Image, mx, my int) {
	if o.hovered < 0 {
		return
	}
	text := o.hoverLabel()
	tw := 0 // the longest line, in characters
	for n, i := 0, 0; i < len(text); i++ {
		if text[i] == '\n' {
			n = 0
			continue
		}
		n++
		tw = max(tw, n)
	}
	x := min(mx+12, screen.Bounds().Dx()-tw*charW-12)
	y := my - 2*lineH - 12
	w := float32(tw*charW + 10)
	o.sh.begin(screen)
	o.sh.rect(float32(x-4), float32(y-2), w, 2*lineH+4, rgba(0x00, 0x00, 0x00, 0xf0))
	o.sh.frame(float32(x-4), float32(y-2), w, 2*lineH+4, 1, colText)
	o.sh.flush()
	ebitenutil.DebugPrintAt(screen, text, x, y)
}

// drawStatus shows pause and freeze under the top line, with the overlay
// on or off.
func (o *overlay) drawStatus(screen *ebiten.Image, ctl *game.Controls) {
	msg := ""
	switch {
	case ctl.Paused:
		msg = "PAUSED (P resumes, N steps)"
	case ctl.Frozen:
		msg = "timeline FROZEN (F thaws)"
	}
	if msg != "" {
		ebitenutil.DebugPrintAt(screen, msg, panelW+12, topH+2)
	}
}

// hint is what shows while the overlay is off.
func (o *overlay) hint(screen *ebiten.Image) {
	ebitenutil.DebugPrintAt(screen, "O overlay  H keys", 4, 1)
}
