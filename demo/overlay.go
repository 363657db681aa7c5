package main

import (
	"fmt"
	"image"
	"slices"
	"strings"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/ebitenutil"
	"github.com/hajimehoshi/ebiten/v2/vector"

	"github.com/weft-engine/weft/demo/internal/game"
	"github.com/weft-engine/weft/engine"
)

// The overlay's layout on the 1280×720 logical screen, in pixels.
// ebitenutil's debug font is 6×16.
const (
	charW, lineH = 6, 16
	topH         = 2*lineH + 2 // the top lines: the frame, then the step
	panelW       = 432         // the left panel: graph, frame, systems, prediction
	graphLen     = 400         // steps in the step-time graph, one pixel each
	graphH       = 80
	frameRowH    = lineH + 12 // the frame's breakdown: its text and bar
	rowH         = 18         // a system's row
	subRowH      = 14         // a marker's or counter's row
	predH        = 14         // a prediction's row
	laneLabelW   = 48         // "owner", "w1", ... left of the lanes
	helpH        = 18         // the help line at the bottom
	textEvery    = 15         // frames between refreshes of the numbers: readable, and few strings a second
)

// budgetMS is the frame budget at 60 Hz, the graph's red line unless
// -budget sets another.
const budgetMS = 1000.0 / 60

const helpLine = "H keys  O overlay  +/- workers  S serial  C checks  B batch  Space/click burst  P pause  N step  F freeze  T trace  click a bar: its step  click a system: filter  wheel/drag timeline  Esc quit"

// helpText is the full list of keys (H).
const helpText = `keys and clicks
  + / -        one worker more / fewer (0 workers is serial)
  S            serial <-> parallel (back to the last worker count)
  C            safety and ecs checks on / off
  B            batch size: adaptive, 64, 256, 1024, 4096
  Space, click a burst of bodies at the cursor
  J            fountain on / off (it runs every 30 steps while on)
  P            pause / resume;  N  one step while paused
  O, Tab       overlay on / off
  F            freeze the timeline on this step (hover its boxes)
  click a bar  of the step graph: open that step's timeline (F thaws)
  click a row  of the systems: show only its jobs (again: all)
  wheel, drag  over the timeline: zoom, pan (right-click: all)
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
	colGC       = rgba(0xff, 0x30, 0xd0, 0xff)
	colMarker   = rgba(0xff, 0xff, 0xff, 0xb0)
	// The frame's parts: update, draw, overlay, GC, present and wait.
	colParts = [...]col{colStep, rgba(0x60, 0xe0, 0x70, 0xff), rgba(0xa8, 0x78, 0xff, 0xff), colGC, rgba(0x70, 0x70, 0x78, 0xff)}
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

// sysRow is one row of the systems table: a system's medians over the
// timings window, or one of its markers' or counters'.
type sysRow struct {
	name             string
	sys              int32   // the system's index; -1 for a marker's or counter's row
	span, work, ents float64 // ms, ms, rows; a marker's time is its work
	text             string
	y                int // its top, in the left panel, at the last layout
}

// graphSample is one step's bar of the graph and the frame line above it.
type graphSample struct {
	step, frame float32 // ms
	gc          bool    // a GC cycle ended during the step
}

// overlay draws the timings. It changes only every textEvery frames
// (readable numbers, and few strings and paths a second), or when the
// timeline is opened, zoomed, panned or filtered: everything is then
// painted into a cached image, and each frame blits the cache's panels and
// draws only the hovered box and the status over them. Executed only by
// Ebiten's game goroutine.
type overlay struct {
	sh      shapes
	graph   [graphLen]graphSample // a ring
	hist    [graphLen]timeline    // the timelines of the graph's steps, the same ring
	head    int                   // the next slot of both
	tl      timeline              // the timeline shown
	view    tlView
	budget  float32 // ms, the graph's red line
	scale   float32 // ms, the graph's full height
	sys     []sysRow
	pred    [engine.NumPredicted]float64 // ms
	frame   frameSample                  // medians
	cache   *ebiten.Image
	panels  [3]*ebiten.Image // sub-images of cache: the top lines, the left panel, the timeline
	blit    ebiten.DrawImageOptions
	refresh int  // frames to the next repaint
	frozen  bool // the timeline was frozen at the last repaint

	top, top2, sysHead, predHead, tlHead, graphHead, frameText string
	predText                                                   [engine.NumPredicted]string

	hovered     int    // the slice under the cursor, or -1
	hoverText   string // of slice hoveredText of step hoverStep
	hoveredText int
	hoverStep   uint64

	ticks  []axisTick
	lineVs []ebiten.Vertex
	lineIs []uint16

	// The layout of the last repaint.
	graphY, frameY, sysY, predY, panelBottom, timelineTop, lh int
}

func newOverlay() *overlay {
	return &overlay{hovered: -1, budget: budgetMS, scale: 3 * budgetMS, view: tlView{filter: -1, dragX: -1}}
}

// record takes the last step's sample for the graph and keeps its
// timeline in the history: the step's time, the frame it ran in (the
// time between the last two Draws, rendering included; Ebiten runs
// several steps a frame when frames are slow), and whether a GC cycle
// ended during it.
func (o *overlay) record(g *game.Game, frame float32, gc bool) {
	st := g.Engine().Timings().Last()
	o.graph[o.head] = graphSample{step: ms(st.Total), frame: frame, gc: gc}
	o.hist[o.head].copyFrom(st, gc)
	o.head = (o.head + 1) % graphLen
}

// capture copies the last step's timeline, unless frozen on an earlier one.
func (o *overlay) capture(e *engine.Engine, frozen bool) {
	st := e.Timings().Last()
	if frozen && o.tl.lanes > 0 || st == nil || len(st.Workers) == 0 {
		return
	}
	if last := &o.hist[(o.head+graphLen-1)%graphLen]; last.step == st.Step && last.lanes > 0 {
		o.tl.copyTimeline(last)
	} else {
		o.tl.copyFrom(st, false)
	}
}

// open shows the timeline of the graph's bar col (0 is the oldest) and
// reports whether that step is kept; the caller freezes the timeline.
func (o *overlay) open(col int) bool {
	h := &o.hist[(o.head+col)%graphLen]
	if h.lanes == 0 {
		return false
	}
	o.tl.copyTimeline(h)
	o.view.from, o.view.to = 0, 0
	o.refresh = 0
	return true
}

func ms(d time.Duration) float32 { return float32(d.Seconds() * 1000) }

// graphScale is the graph's full height in ms: the larger of twice the
// budget and the window's p95 step and frame, rounded up to 25, 50, 100,
// 250, ... so that both the bars and the frame line stay readable.
func (o *overlay) graphScale() float32 {
	var steps, frames [graphLen]float32
	for i := range o.graph {
		steps[i], frames[i] = o.graph[i].step, o.graph[i].frame
	}
	slices.Sort(steps[:])
	slices.Sort(frames[:])
	top := max(2*o.budget, steps[graphLen*95/100], frames[graphLen*95/100])
	for s := float32(10); ; s *= 10 {
		for _, m := range [...]float32{2.5, 5, 10} {
			if top <= s*m {
				return s * m
			}
		}
	}
}

// texts rebuilds the numbers' texts from the window's summary and the
// frames' medians.
func (o *overlay) texts(w *window, fps, tps float64) {
	e := w.g.Engine()
	sum := e.Timings().Summary()
	f := w.fr.medians()
	o.frame = f
	m := &w.fr.mem
	o.top = fmt.Sprintf("frame ms p50 %.1f = update %.1f + draw %.1f + overlay %.1f + GC %.2f + present/wait %.1f   FPS %.1f   %d sprites, %d draw calls   heap %.0f MB",
		f.frame, f.update, f.draw, f.overlay, f.gc, f.rest(), fps, f.sprites, f.calls, float64(m.heap)/(1<<20))
	mode := "parallel"
	if e.Workers() == 0 {
		mode = "serial"
	}
	safety := "off"
	if e.Checks() {
		safety = "on"
	}
	batch := fmt.Sprint(e.Batch())
	if e.AdaptiveBatch() {
		batch = "adaptive " + batch
	}
	_, landings := w.g.Landings()
	o.top2 = fmt.Sprintf("step ms p50 %.2f p95 %.2f p99 %.2f   TPS %.1f   entities %d  visible %d  landings %d  jobs/step %.0f  workers %d %s  safety %s  batch %s   allocs/step %d  GC pauses %d (longest <= %.2f ms)",
		sum.Total.P50, sum.Total.P95, sum.Total.P99, tps, w.g.Len(), w.g.Visible(), landings, sum.Jobs.P50, e.Workers(), mode, safety, batch, m.stepAllocs, m.pauses, m.longest*1e3)
	o.scale = o.graphScale()
	o.graphHead = fmt.Sprintf("steps: bars step, line frame ms (0-%.0f); red %.1f; magenta GC", o.scale, o.budget)
	o.frameText = fmt.Sprintf("frame p50 %.1f ms: update, draw, overlay, GC, present/wait", f.frame)
	o.systemRows(sum)
	o.predHead = fmt.Sprintf("parallelism %.2f (work/span); predicted step:", sum.Parallelism.P50)
	for i, p := range engine.PredictParticipants() {
		o.pred[i] = sum.Predicted[i].P50
		o.predText[i] = fmt.Sprintf("%2d threads %6.2f ms", p, o.pred[i])
	}
	o.tlHead = o.timelineHead(w.ctl.Frozen)
}

// systemRows makes a row per system, each followed by its markers' and
// counters' rows.
func (o *overlay) systemRows(sum *engine.Summary) {
	o.sys = o.sys[:0]
	for i := range sum.Systems {
		s := &sum.Systems[i]
		text := fmt.Sprintf("%6.2f %6.2f ms %6.0f", s.Span.P50, s.Work.P50, s.Entities.P50)
		if s.Skipped > 0 { // a run condition held in only some steps: medians alone would read as "free"
			text = fmt.Sprintf("%6.2f %6.2f ms  ran %d/%d", s.Span.P99, s.Work.P99, s.Ran, s.Ran+s.Skipped)
		}
		o.sys = append(o.sys, sysRow{name: s.Name, sys: int32(i), span: s.Span.P50, work: s.Work.P50, ents: s.Entities.P50, text: text})
		for _, m := range sum.Markers {
			if int(m.System) == i {
				o.sys = append(o.sys, sysRow{name: "  " + m.Name[len(s.Name)+1:], sys: -1, work: m.Time.P50,
					text: fmt.Sprintf("       %6.2f ms %4.0f spans", m.Time.P50, m.Calls.P50)})
			}
		}
		for _, n := range sum.Counters {
			if int(n.System) == i {
				o.sys = append(o.sys, sysRow{name: "  " + n.Name[len(s.Name)+1:], sys: -1,
					text: fmt.Sprintf("       %6.0f /step (p99 %.0f)", n.Value.P50, n.Value.P99)})
			}
		}
	}
	o.sysHead = "systems (click: filter)  span / work p50    span   work    entities"
}

// timelineHead is the timeline's title: its step, state, view and path.
func (o *overlay) timelineHead(frozen bool) string {
	state := "live (F freezes)"
	if frozen {
		state = "FROZEN (F thaws)"
	}
	view := ""
	if o.view.to > o.view.from {
		view = fmt.Sprintf(", zoomed to %.3f-%.3f ms (right-click: all)", float64(o.view.from)/1e6, float64(o.view.to)/1e6)
	}
	if f := o.view.filter; f >= 0 && int(f) < len(o.tl.names) {
		view += ", only " + o.tl.names[f]
	}
	gc := ""
	if o.tl.gc {
		gc = ", GC cycle ended in this step (magenta)"
	}
	return fmt.Sprintf("step %d timeline, %s: %.2f ms, owner + %d workers, %d jobs, critical path %.2f ms in %d jobs (yellow)%s%s",
		o.tl.step, state, ms(o.tl.total), o.tl.lanes-1, o.tl.jobs, ms(o.tl.path), o.tl.pathLen, view, gc)
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
	o.frameY = o.graphY + graphH + 4
	o.sysY = o.frameY + frameRowH + 2
	y := o.sysY + lineH
	for i := range o.sys {
		o.sys[i].y = y
		if o.sys[i].sys >= 0 {
			y += rowH
		} else {
			y += subRowH
		}
	}
	o.predY = y + 4
	o.panelBottom = o.predY + lineH + len(o.pred)*predH + 4
	o.lh = laneH(o.tl.lanes)
	o.timelineTop = sh - helpH - 2*lineH - o.tl.lanes*o.lh - 6 // the title, the lanes, the ms axis
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
	o.sh.rect(panelW+20, topH+30, 460, float32(strings.Count(helpText, "\n")+1)*lineH+12, colPanel) // as tall as the text
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
	o.paintFrame(s)
	o.paintSystems(s)
	o.paintPrediction(s, o.predY+lineH)
	o.paintTimeline(s, b.Dx())
	s.flush()
	o.paintFrameLine(c)

	print := func(text string, x, y int) { ebitenutil.DebugPrintAt(c, text, x, y) }
	print(o.top, 4, 1)
	print(o.top2, 4, lineH+1)
	print(o.graphHead, 6, topH+2)
	print(o.frameText, 6, o.frameY)
	print(o.sysHead, 6, o.sysY)
	for i := range o.sys {
		dy := 0
		if o.sys[i].sys < 0 {
			dy = -2
		}
		print(o.sys[i].name, 6, o.sys[i].y+dy)
		print(o.sys[i].text, 232, o.sys[i].y+dy)
	}
	print(o.predHead, 6, o.predY)
	for i := range o.predText {
		print(o.predText[i], 6, o.predY+lineH+i*predH-2)
	}
	print(o.tlHead, 6, o.timelineTop)
	o.timelineLabels(print, b.Dx())
	print(helpLine, 6, b.Dy()-helpH+1)
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

// paintGraph adds the step-time bars, one pixel a step, oldest left, a
// GC tick over the steps a GC cycle ended in, and the budget line; longer
// steps are clipped to the scale.
func (o *overlay) paintGraph(s *shapes) {
	top := o.scale
	x0, base := float32(8), float32(o.graphY+graphH)
	for i := range graphLen {
		g := &o.graph[(o.head+i)%graphLen]
		c := colStep
		if g.step > o.budget {
			c = colOver
		}
		h := min(g.step/top, 1) * graphH
		s.rect(x0+float32(i), base-h, 1, h, c)
		if g.gc {
			s.rect(x0+float32(i), float32(o.graphY), 1, 6, colGC)
		}
	}
	s.rect(x0, base-min(o.budget/top, 1)*graphH, graphLen, 1, colBudget)
}

// paintFrame adds the frame's median breakdown as one stacked bar:
// update, draw, overlay, GC, present and wait, in that order.
func (o *overlay) paintFrame(s *shapes) {
	f := &o.frame
	if f.frame <= 0 {
		return
	}
	x, y, w := float32(8), float32(o.frameY+lineH), float32(graphLen)
	for i, part := range [...]float32{f.update, f.draw, f.overlay, f.gc, f.rest()} {
		pw := min(part/f.frame*w, 8+w-x)
		s.rect(x, y, pw, 8, colParts[i])
		x += pw
	}
}

// paintFrameLine strokes the wall time between Draws over the bars, with
// Ebiten's vector package, into reused vertex buffers.
func (o *overlay) paintFrameLine(dst *ebiten.Image) {
	top := o.scale
	var line vector.Path // a new one each time: v2.8's Path has no Reset
	x0, base := float32(8), float32(o.graphY+graphH)
	for i := range graphLen {
		v := o.graph[(o.head+i)%graphLen].frame
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

// paintSystems adds each system's span bar over its work bar, and each
// marker's time bar, all scaled to the largest; the filtered system's row
// is outlined.
func (o *overlay) paintSystems(s *shapes) {
	scale := 0.0
	for i := range o.sys {
		scale = max(scale, o.sys[i].work, o.sys[i].span)
	}
	const x0, wmax = 90, 136
	for i := range o.sys {
		r := &o.sys[i]
		ry := float32(r.y)
		if r.sys < 0 {
			if r.work > 0 && scale > 0 {
				s.rect(x0, ry+4, float32(r.work/scale*wmax)+1, 4, colMarker)
			}
			continue
		}
		c := systemColor(r.sys)
		s.rect(x0, ry+2, wmax, 13, colLane)
		if scale > 0 {
			s.rect(x0, ry+3, float32(r.span/scale*wmax)+1, 5, c)
			s.rect(x0, ry+9, float32(r.work/scale*wmax)+1, 5, c.scaled(0.6))
		}
		if r.sys == o.view.filter {
			s.frame(2, ry, panelW-4, rowH, 1, colText)
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

// hover finds the box under the cursor (mx, my) and outlines it.
func (o *overlay) hover(s *shapes, sw, mx, my int) {
	o.hovered = -1
	if my < o.timelineTop+lineH {
		return
	}
	fx, fy, width := float32(mx), float32(my), tlWidth(sw)
	in := func(bx, by, bw, bh float32) bool { return fx >= bx && fx < bx+max(bw, 2) && fy >= by && fy < by+bh+1 }
	var hx, hy, hw, hh float32
	for i := range o.tl.slices {
		if bx, by, bw, bh, ok := o.box(i, width); ok && in(bx, by, bw, bh) {
			o.hovered, hx, hy, hw, hh = i, bx, by, bw, bh
		}
	}
	for i := range o.tl.marks { // inside the jobs' boxes: they win
		if bx, by, bw, bh, ok := o.markBox(i, width); ok && in(bx, by, bw, bh) {
			o.hovered, hx, hy, hw, hh = len(o.tl.slices)+i, bx, by, bw, bh
		}
	}
	if o.hovered >= 0 {
		s.frame(hx, hy, hw, hh, 1, colText)
	}
}

// hoverLabel is the hovered box's details, rebuilt only when the box or
// the step changes.
func (o *overlay) hoverLabel() string {
	if o.hoverStep == o.tl.step && o.hoverText != "" && o.hovered == o.hoveredText {
		return o.hoverText
	}
	o.hoverStep, o.hoveredText = o.tl.step, o.hovered
	if i := o.hovered - len(o.tl.slices); i >= 0 {
		m := &o.tl.marks[i]
		o.hoverText = fmt.Sprintf("marker %s, nesting %d\n%s, start %.3f ms, duration %.3f ms",
			o.tl.markers[m.Marker], m.Depth, laneName(int(m.Worker)), float64(m.Start)/1e6, float64(m.End-m.Start)/1e6)
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
