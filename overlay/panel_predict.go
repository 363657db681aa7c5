package overlay

import (
	"fmt"
	"strings"

	"github.com/weft-engine/weft/profile"
)

// predictPanel is the parallelism (work / span) and the step time
// predicted for 1, 2, 4, 8 and 16 participants from the recorded job
// graph, each value in a cell over a bar scaled to the one-participant
// time: the window's medians live, the selected step's with the medians
// on the line under them.
func (o *Overlay) predictPanel() Panel {
	return Panel{Name: "predict", Dock: Left, Layout: func(c *Canvas) int {
		sum := o.sum
		head, step := o.predictHead()
		y := c.Wrap(6, 0, head, 2)
		var pred [profile.NumPredicted]float64
		for i := range pred {
			pred[i] = sum.Predicted[i].P50
			if step {
				pred[i] = msf(o.tl.pred[i])
			}
		}
		parts := profile.PredictParticipants()
		cell := (c.W - 12) / len(parts)
		scale := max(pred[0], 1e-9)
		var vals, meds strings.Builder
		for i, p := range parts {
			vals.WriteString(pad(fmt.Sprintf("%d: %.2f", p, pred[i]), cell/charW))
			meds.WriteString(pad(fmt.Sprintf("   %.2f", sum.Predicted[i].P50), cell/charW))
			c.rect(float32(6+i*cell), float32(y+lineH+1), float32(pred[i]/scale*float64(cell-8))+1, 4, colStep.scaled(0.8))
		}
		c.Text(6, y, strings.TrimRight(vals.String(), " "))
		y += lineH + 6
		if step {
			y += c.Text(6, y, strings.TrimRight(meds.String(), " "))
		}
		return y + 4
	}}
}

// predictHead is the prediction panel's title, and whether it shows a
// selected step's figures (with the medians on a line of their own).
func (o *Overlay) predictHead() (string, bool) {
	if o.frozen && o.tl.lanes > 0 {
		return fmt.Sprintf("parallelism %.2f at step %d; predicted step ms by threads (p50 under):", o.tl.par, o.tl.step), true
	}
	return fmt.Sprintf("parallelism %.2f (work/span); predicted step p50, ms by threads:", o.sum.Parallelism.P50), false
}

// predictHeight is the height the prediction panel takes at width w: the
// systems table leaves it that much of the left column, so that it shows
// on every screen.
func (o *Overlay) predictHeight(w int) int {
	head, step := o.predictHead()
	h := len(wrap(head, (w-8)/charW, 2))*lineH + lineH + 10
	if step {
		h += lineH
	}
	return h
}

// pad is s cut or filled with spaces to n characters.
func pad(s string, n int) string {
	s = ellipsis(s, n)
	return s + strings.Repeat(" ", max(n-chars(s), 0))
}
