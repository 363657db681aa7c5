package overlay

import (
	"fmt"

	"github.com/hajimehoshi/ebiten/v2"
)

// framePanel is the first top line: the frame's breakdown (medians over
// frameWindow frames), the GC pauses summed over those frames, Ebiten's
// FPS and the live heap.
func (o *Overlay) framePanel() Panel {
	return Panel{Name: "frame", Dock: Top, Layout: func(c *Canvas) int {
		f := o.fr.medians()
		s := fmt.Sprintf("frame ms p50 %.1f = steps %.1f + overlay %.1f + other %.1f (game, present, wait)   GC %.2f ms in the last %d frames (%d pauses)   FPS %.1f   heap %.0f MB",
			f.frame, f.steps, f.overlay, f.rest(), f.gc, o.fr.n, f.pauses, ebiten.ActualFPS(), float64(o.fr.mem.heap)/(1<<20))
		if o.opt.NoRates {
			s = fmt.Sprintf("frame: its times and rates are left out (NoRates: the display is not the game's)   GC %.2f ms in the last %d frames (%d pauses)   heap %.0f MB",
				f.gc, o.fr.n, f.pauses, float64(o.fr.mem.heap)/(1<<20))
		}
		return c.Wrap(4, 1, s, 3) + 2
	}}
}

// stepPanel is the second top line: the step's quantiles over the
// engine's window, TPS, and the engine's settings.
func (o *Overlay) stepPanel() Panel {
	return Panel{Name: "step", Dock: Top, Layout: func(c *Canvas) int {
		e := o.e
		sum := o.sum
		mode := "parallel"
		if e.Workers() == 0 {
			mode = "serial"
		}
		checks := "off"
		if e.Checks() {
			checks = "on"
		}
		batch := fmt.Sprint(e.Batch())
		if e.AdaptiveBatch() {
			batch = "adaptive " + batch
		}
		tps := fmt.Sprintf("   TPS %.1f", ebiten.ActualTPS())
		if o.opt.NoRates {
			tps = ""
		}
		s := fmt.Sprintf("step ms p50 %.2f p95 %.2f p99 %.2f%s   jobs/step %.0f  workers %d %s  checks %s  batch %s   dropped %d  lost events %d",
			sum.Total.P50, sum.Total.P95, sum.Total.P99, tps, sum.Jobs.P50, e.Workers(), mode, checks, batch, e.Dropped(), o.prof.Last().Lost)
		return c.Wrap(4, 1, s, 3) + 2
	}}
}

// hintPanel is the line of keys at the bottom.
func (o *Overlay) hintPanel() Panel {
	return Panel{Name: "hint", Dock: Bottom, Layout: func(c *Canvas) int {
		s := o.opt.Hint
		if s == "" {
			s = fmt.Sprintf("%s overlay  %s freeze  %s hold baseline  %s trace  %s capture  %s keys  click a bar: its step  click a system: filter  wheel/drag: timeline",
				keyName(o.opt.Toggle), keyName(o.opt.Freeze), keyName(o.opt.Hold), keyName(o.opt.Trace), keyName(o.opt.Save), keyName(o.opt.Help))
		}
		return c.Wrap(6, 1, s, 2) + 2
	}}
}
