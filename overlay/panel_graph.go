package overlay

import "fmt"

// The graph's geometry, in the panel's pixels.
const (
	graphX = 8
	graphH = 80
)

// graphPanel is the last steps' graph: a bar per step on the steps'
// scale (blue, orange over the budget), the frame time as a white line on
// its own scale, the GC pauses as magenta marks over the bars of the
// frames they fell in, the selected step marked white and the baseline
// cyan; then the frame's breakdown as one stacked bar. Clicking a bar
// selects its step.
func (o *Overlay) graphPanel() Panel {
	return Panel{Name: "graph", Dock: Left, Layout: o.layoutGraph, Input: func(p Pointer) bool {
		i := p.X - graphX
		if !p.Click || p.Y < o.graphY || p.Y >= o.graphY+graphH || i < 0 || i >= o.graphShown {
			return false
		}
		g, _ := o.hist.at(graphLen - o.graphShown + i)
		return o.selectStep(g.n)
	}}
}

func (o *Overlay) layoutGraph(c *Canvas) int {
	n := min(graphLen, c.W-2*graphX)
	o.graphShown = n
	stepTop := niceScale(max(o.hist.p95(func(g *graphSample) float32 { return g.step })*1.2, 0.1))
	frameTop := niceScale(max(o.hist.p95(func(g *graphSample) float32 { return g.frame })*1.2, 1))
	budget := ms(o.opt.Budget)
	head := fmt.Sprintf("steps: bars 0-%g ms (red: budget %.1f); line: frame 0-%g ms; magenta: GC", stepTop, budget, frameTop)
	if o.opt.NoRates {
		head = fmt.Sprintf("steps: bars 0-%g ms (red: budget %.1f); magenta: GC", stepTop, budget)
	}
	y := c.Wrap(6, 1, head, 2) + 2
	o.graphY = y
	c.rect(graphX, float32(y), float32(n), graphH, colLane)
	base := float32(y + graphH)
	line := c.line(colWall)
	for i := range n {
		g, _ := o.hist.at(graphLen - n + i)
		x := float32(graphX + i)
		col := colStep
		if g.step > budget {
			col = colOver
		}
		h := min(g.step/stepTop, 1) * graphH
		c.rect(x, base-h, 1, h, col)
		if g.gc > 0 {
			c.rect(x, float32(y), 1, 3+min(g.gc/stepTop, 1)*20, colGC)
		}
		o.markBar(c, g.n, x, float32(y))
		if !o.opt.NoRates {
			c.point(line, x, base-min(g.frame/frameTop, 1)*graphH)
		}
	}
	if budget < stepTop {
		c.rect(graphX, base-budget/stepTop*graphH, float32(n), 1, colBudget)
	}
	y += graphH + 4
	if o.opt.NoRates {
		return y
	}
	return y + o.layoutFrameBar(c, y, n)
}

// markBar marks step n's bar if it is the selected step or the baseline.
func (o *Overlay) markBar(c *Canvas, n uint64, x, y float32) {
	switch {
	case n == 0:
	case o.frozen && n == o.tl.step:
		c.rect(x-1, y-3, 3, 3, colText)
		c.rect(x, y, 1, graphH, colText.scaled(0.8))
	case o.base.lanes > 0 && n == o.base.step:
		c.rect(x-1, y-3, 3, 3, colBase)
		c.rect(x, y, 1, graphH, colBase)
	}
}

// layoutFrameBar is the frame's median breakdown as one stacked bar n
// pixels wide: steps, overlay, GC, the rest, in that order.
func (o *Overlay) layoutFrameBar(c *Canvas, y, n int) int {
	f := &o.fr.med
	h := c.Wrap(6, y, fmt.Sprintf("frame p50 %.1f ms: steps, overlay, GC, other", f.frame), 1)
	if f.frame <= 0 {
		return h + 4
	}
	x, w := float32(graphX), float32(n)
	for i, part := range [...]float32{f.steps, f.overlay, f.gc / max(float32(o.fr.n), 1), f.rest()} {
		pw := min(part/f.frame*w, graphX+w-x)
		c.rect(x, float32(y+h), pw, 8, colParts[i])
		x += pw
	}
	return h + 12
}
