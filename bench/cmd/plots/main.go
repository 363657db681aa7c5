// Command plots draws the comparison benchmarks (W1–W4) and the engine's
// frame benchmark as PNG figures for docs/PERFORMANCE.md.
//
//	cd bench && go run ./cmd/plots -results results/amd-epyc/peers.txt -frame results/amd-epyc/frame.txt -out ../docs/img
//
// (or make plots). It writes plot-w1.png ... plot-w4.png, a bar per impl
// with the median ns/op of the -count runs and the min–max as error bars
// (W2 has a panel per chunk size), and plot-frame.png, the step time of
// BenchmarkFrame in ms against the entity count, serial and parallel.
// The same input gives the same bytes: nothing depends on map order, time
// or the environment.
package main

import (
	"cmp"
	"errors"
	"flag"
	"fmt"
	"image/color"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/weft-engine/weft/bench/internal/results"
)

// Figure size: 9 × 4.5 in at 120 dpi is 1080 × 540 pixels, wide enough to
// read on GitHub without zooming.
const (
	figW = 9 * vg.Inch
	figH = 4.5 * vg.Inch
	dpi  = 120
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "plots:", err)
		os.Exit(1)
	}
}

func run(args []string, w io.Writer) error {
	fl := flag.NewFlagSet("plots", flag.ContinueOnError)
	// The defaults are the committed figures of bench/results/amd-epyc/
	// and docs/img, seen from bench/, where this module's commands run.
	resultsPath := fl.String("results", "results/amd-epyc/peers.txt", "`file` of make bench-peers (or make bench) output (W1–W4)")
	framePath := fl.String("frame", "results/amd-epyc/frame.txt", "`file` of make bench-frame output (BenchmarkFrame)")
	outDir := fl.String("out", "../docs/img", "output `dir`ectory for the PNGs")
	if err := fl.Parse(args); err != nil {
		return err
	}
	if fl.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fl.Args())
	}
	files, err := generate(*resultsPath, *framePath, *outDir)
	for _, f := range files {
		fmt.Fprintln(w, "wrote", f)
	}
	return err
}

// A workload is one figure of the comparison benchmarks.
type workload struct {
	prefix, file, title string
}

var workloads = []workload{
	{"W1", "plot-w1.png", "W1: empty jobs, one op = schedule + run + wait of one job"},
	{"W2", "plot-w2.png", "W2: parallel-for over 4,000,000 float32"},
	{"W3", "plot-w3.png", "W3: wide DAG, root + 1,000 jobs of ~2 µs + join"},
	{"W4", "plot-w4.png", "W4: fork-join fib(30)"},
}

// implOrder is the bar order; impls not listed follow in input order.
var implOrder = []string{"weft", "goroutines", "chanpool", "errgroup", "ants", "serial"}

// generate writes every figure and returns the paths written.
func generate(resultsPath, framePath, outDir string) ([]string, error) {
	// Sans reads better than the default serif at small sizes; the axes
	// and labels pick the font up when they are made.
	plot.DefaultFont.Variant = "Sans"
	plotter.DefaultFont.Variant = "Sans"

	res, err := load(resultsPath, "make bench")
	if err != nil {
		return nil, err
	}
	frame, err := load(framePath, "make bench-frame")
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return nil, err
	}
	var written []string
	for _, wl := range workloads {
		img, err := workloadFigure(res, wl)
		if err != nil {
			return written, fmt.Errorf("%w in %s: run make bench first", err, resultsPath)
		}
		p := filepath.Join(outDir, wl.file)
		if err := save(img, p); err != nil {
			return written, err
		}
		written = append(written, p)
	}
	img, err := frameFigure(frame)
	if err != nil {
		return written, fmt.Errorf("%w in %s: run make bench-frame first", err, framePath)
	}
	p := filepath.Join(outDir, "plot-frame.png")
	if err := save(img, p); err != nil {
		return written, err
	}
	return append(written, p), nil
}

// load parses a results file, naming the make target that writes it when
// it is missing.
func load(path, target string) (*results.Set, error) {
	s, err := results.ParseFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w: run %s first", err, target)
	}
	return s, err
}

func save(c *vgimg.Canvas, path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := (vgimg.PngCanvas{Canvas: c}).WriteTo(f); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	return f.Close()
}

// A bar is one impl's samples in one panel.
type bar struct {
	impl string
	ns   []float64
}

// workloadFigure draws one panel per variant (W2's chunk sizes), each with
// a bar per impl, under one title.
func workloadFigure(s *results.Set, wl workload) (*vgimg.Canvas, error) {
	var variants []string
	panels := map[string][]bar{}
	for _, b := range s.Benchmarks {
		if !strings.HasPrefix(b.Parts[0], wl.prefix) || len(b.Parts) < 2 {
			continue
		}
		v := strings.Join(b.Parts[2:], "/")
		if _, ok := panels[v]; !ok {
			variants = append(variants, v)
		}
		panels[v] = append(panels[v], bar{b.Parts[1], b.NsPerOp()})
	}
	if len(variants) == 0 {
		return nil, fmt.Errorf("no Benchmark%s lines", wl.prefix)
	}

	var plots [][]*plot.Plot
	for _, v := range variants {
		bars := panels[v]
		slices.SortStableFunc(bars, func(a, b bar) int { return cmp.Compare(implRank(a.impl), implRank(b.impl)) })
		p, err := barPanel(bars, v)
		if err != nil {
			return nil, err
		}
		plots = append(plots, []*plot.Plot{p})
	}
	var all []bar
	for _, v := range variants {
		all = append(all, panels[v]...)
	}

	// Panels are stacked, not side by side, so that the impl names under
	// the bars keep their full width.
	c := vgimg.NewWith(vgimg.UseWH(figW, figHeight(len(variants))), vgimg.UseDPI(dpi))
	dc := draw.New(c)
	dc = figureTitle(dc, wl.title+"\n"+runsNote(s, all))
	tiles := draw.Tiles{Rows: len(plots), Cols: 1, PadY: vg.Points(14),
		PadTop: vg.Points(2), PadBottom: vg.Points(4), PadLeft: vg.Points(4), PadRight: vg.Points(8)}
	for i, row := range plot.Align(plots, tiles, dc) {
		plots[i][0].Draw(row[0])
	}
	return c, nil
}

// figHeight is the height of a figure of that many stacked panels.
func figHeight(panels int) vg.Length {
	return figH + vg.Length(panels-1)*figH*0.75
}

// figureTitle writes the title centred at the top of c and returns the
// canvas below it.
func figureTitle(c draw.Canvas, title string) draw.Canvas {
	sty := plot.New().Title.TextStyle
	sty.XAlign, sty.YAlign = text.XCenter, text.YTop
	top := c.Max.Y - vg.Points(6)
	c.FillText(sty, vg.Point{X: (c.Min.X + c.Max.X) / 2, Y: top}, title)
	c.Max.Y = top - sty.Height(title) - vg.Points(6)
	return c
}

// implRank orders impls as implOrder does, unknown ones last.
func implRank(impl string) int {
	if i := slices.Index(implOrder, impl); i >= 0 {
		return i
	}
	return len(implOrder)
}

// weft's bar stands out from the peers' grey ones; serial, the baseline,
// is the lightest.
var (
	weftColor   = color.RGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff}
	peerColor   = color.RGBA{R: 0x99, G: 0x99, B: 0x99, A: 0xff}
	serialColor = color.RGBA{R: 0xd9, G: 0xd9, B: 0xd9, A: 0xff}
)

// barPanel is one bar chart: median ns/op per impl, min–max error bars and
// the median written above each bar.
func barPanel(bars []bar, title string) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = title
	p.Title.Padding = vg.Points(4)
	p.Y.Label.Text = "ns/op (lower is better)"
	p.Y.Tick.Marker = siTicks{}
	p.Y.Min = 0
	p.X.Padding = vg.Points(4)
	grid := plotter.NewGrid()
	grid.Vertical.Width = 0 // impls are names, not a scale
	p.Add(grid)
	p.X.Tick.Length = 0
	p.X.Tick.Label.Font.Size = vg.Points(11)

	width := figW / vg.Length(len(bars)) * 0.55
	var (
		mids    plotter.XYs
		errs    plotter.YErrors
		tops    plotter.XYs
		labels  []string
		names   []string
		highest float64
	)
	for i, b := range bars {
		med, lo, hi := spread(b.ns)
		bc, err := plotter.NewBarChart(plotter.Values{med}, width)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", b.impl, err)
		}
		bc.XMin = float64(i)
		bc.LineStyle.Width = 0
		bc.Color = peerColor
		switch b.impl {
		case "weft":
			bc.Color = weftColor
		case "serial":
			bc.Color = serialColor
		}
		p.Add(bc)
		mids = append(mids, plotter.XY{X: float64(i), Y: med})
		errs = append(errs, struct{ Low, High float64 }{med - lo, hi - med})
		tops = append(tops, plotter.XY{X: float64(i), Y: hi})
		labels = append(labels, formatSI(med))
		names = append(names, b.impl)
		highest = max(highest, hi)
	}
	eb, err := plotter.NewYErrorBars(errPoints{mids, errs})
	if err != nil {
		return nil, err
	}
	eb.LineStyle.Width = vg.Points(1.2)
	p.Add(eb)
	lb, err := plotter.NewLabels(plotter.XYLabels{XYs: tops, Labels: labels})
	if err != nil {
		return nil, err
	}
	for i := range lb.TextStyle {
		lb.TextStyle[i].XAlign = text.XCenter
		lb.TextStyle[i].Font.Size = vg.Points(9)
	}
	lb.Offset = vg.Point{Y: vg.Points(3)}
	p.Add(lb)
	p.NominalX(names...)
	p.X.Tick.Label.Font.Size = vg.Points(9) // ten names fit side by side
	p.X.Min, p.X.Max = -0.6, float64(len(bars))-0.4
	// Room above the tallest error bar for its label.
	p.Y.Max = highest * 1.12
	return p, nil
}

// spread is the median, min and max of a non-empty sample.
func spread(v []float64) (med, lo, hi float64) {
	return results.Median(v), slices.Min(v), slices.Max(v)
}

// errPoints gives YErrorBars its points and their errors.
type errPoints struct {
	plotter.XYs
	plotter.YErrors
}

// runsNote is the figure's subtitle: how many runs, and on what.
func runsNote(s *results.Set, bars []bar) string {
	lo, hi := math.MaxInt, 0
	for _, b := range bars {
		lo, hi = min(lo, len(b.ns)), max(hi, len(b.ns))
	}
	note := "one run each, no spread shown"
	if hi > 1 {
		runs := strconv.Itoa(lo)
		if hi != lo {
			runs += "–" + strconv.Itoa(hi)
		}
		note = "median of " + runs + " runs, error bars min–max"
	}
	if m := machine(s); m != "" {
		note += "; " + m
	}
	return note
}

// machine is "cpu, GOMAXPROCS=n" as far as the output tells it.
func machine(s *results.Set) string {
	var parts []string
	if s.CPU != "" {
		parts = append(parts, s.CPU)
	}
	if s.Procs != "" {
		parts = append(parts, "GOMAXPROCS="+s.Procs)
	}
	return strings.Join(parts, ", ")
}

// siTicks are the default ticks labelled 500k, 1M, 1.5M rather than
// 1.5e+06.
type siTicks struct{}

func (siTicks) Ticks(min, max float64) []plot.Tick {
	ts := plot.DefaultTicks{}.Ticks(min, max)
	for i := range ts {
		if ts[i].Label != "" {
			ts[i].Label = formatSI(ts[i].Value)
		}
	}
	return ts
}

// formatSI keeps three significant digits and a k or M suffix.
func formatSI(v float64) string {
	suffix := ""
	switch a := math.Abs(v); {
	case a >= 1e6:
		v, suffix = v/1e6, "M"
	case a >= 1e3:
		v, suffix = v/1e3, "k"
	}
	// Round through 'g', print through 'f': 'g' alone writes 1e+03.
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 3, 64), 64)
	return strconv.FormatFloat(r, 'f', -1, 64) + suffix
}

// frameFigure draws the median step time against the entity count, a line
// per mode (serial, parallel), with min–max error bars.
func frameFigure(s *results.Set) (*vgimg.Canvas, error) {
	type point struct {
		n  float64
		ns []float64
	}
	var modes []string
	lines := map[string][]point{}
	var counts []float64
	for _, b := range s.Benchmarks {
		if b.Parts[0] != "Frame" || len(b.Parts) != 3 {
			continue
		}
		n, err := entities(b.Parts[1])
		if err != nil {
			return nil, fmt.Errorf("Benchmark%s: %w", b.Name, err)
		}
		mode := b.Parts[2]
		if _, ok := lines[mode]; !ok {
			modes = append(modes, mode)
		}
		lines[mode] = append(lines[mode], point{n, b.NsPerOp()})
		if !slices.Contains(counts, n) {
			counts = append(counts, n)
		}
	}
	if len(modes) == 0 {
		return nil, errors.New("no BenchmarkFrame lines")
	}
	slices.Sort(counts)

	p := plot.New()
	var bars []bar // only for runsNote
	p.X.Label.Text = "entities"
	p.Y.Label.Text = "step time, ms (lower is better)"
	p.X.Min, p.Y.Min = 0, 0
	p.Legend.Top, p.Legend.Left = true, true
	p.Legend.Padding = vg.Points(4)
	p.Add(plotter.NewGrid())
	var ticks []plot.Tick
	for _, n := range counts {
		ticks = append(ticks, plot.Tick{Value: n, Label: formatSI(n)})
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	p.X.Max = counts[len(counts)-1] * 1.04 // room for the last error bar's cap
	p.Y.Tick.Marker = siTicks{}
	for i, mode := range modes {
		pts := lines[mode]
		slices.SortStableFunc(pts, func(a, b point) int { return cmp.Compare(a.n, b.n) })
		var (
			xys  plotter.XYs
			errs plotter.YErrors
		)
		for _, pt := range pts {
			med, lo, hi := spread(pt.ns)
			med, lo, hi = med/1e6, lo/1e6, hi/1e6 // ns/op to ms
			xys = append(xys, plotter.XY{X: pt.n, Y: med})
			errs = append(errs, struct{ Low, High float64 }{med - lo, hi - med})
			bars = append(bars, bar{mode, pt.ns})
		}
		l, sc, err := plotter.NewLinePoints(xys)
		if err != nil {
			return nil, err
		}
		c := plotutil.Color(i)
		if mode == "parallel" {
			c = weftColor
		}
		l.Color, sc.Color = c, c
		l.Width = vg.Points(2)
		sc.Shape = draw.CircleGlyph{}
		sc.Radius = vg.Points(3)
		eb, err := plotter.NewYErrorBars(errPoints{xys, errs})
		if err != nil {
			return nil, err
		}
		eb.Color = c
		p.Add(l, sc, eb)
		p.Legend.Add(modeLabel(mode, s.Procs), l, sc)
	}
	p.Title.Text = "Engine fixed step (physics, anim, cull) against entity count\n" + runsNote(s, bars)
	p.Title.Padding = vg.Points(6)

	c := vgimg.NewWith(vgimg.UseWH(figW, figH), vgimg.UseDPI(dpi))
	p.Draw(draw.New(c))
	return c, nil
}

// entities reads "entities=10k" as 10000.
func entities(part string) (float64, error) {
	v, ok := strings.CutPrefix(part, "entities=")
	if !ok {
		return 0, fmt.Errorf("want entities=<n>, have %q", part)
	}
	mul := 1.0
	if k, ok := strings.CutSuffix(v, "k"); ok {
		v, mul = k, 1000
	}
	n, err := strconv.ParseFloat(v, 64)
	if err != nil {
		return 0, fmt.Errorf("entities %q: %w", v, err)
	}
	return n * mul, nil
}

// modeLabel says what the benchmark's modes run on: serial is the serial
// executor, parallel the default pool of GOMAXPROCS-1 workers plus the
// owner.
func modeLabel(mode, procs string) string {
	switch mode {
	case "serial":
		return "serial executor"
	case "parallel":
		if n, err := strconv.Atoi(procs); err == nil && n > 1 {
			w := "workers"
			if n == 2 {
				w = "worker"
			}
			return fmt.Sprintf("parallel, %d %s + owner", n-1, w)
		}
	}
	return mode
}
