package overlay

import (
	"fmt"

	"github.com/weft-engine/weft/profile"
)

const predH = lineH // a prediction's row: text never overlaps the next

// predictPanel is the parallelism (work / span) and the step time
// predicted for 1, 2, 4, 8 and 16 participants from the recorded job
// graph, each with a bar scaled to the one-participant time: the window's
// medians live, the selected step's with the median beside.
func (o *Overlay) predictPanel() Panel {
	return Panel{Name: "predict", Dock: Left, Layout: func(c *Canvas) int {
		sum := o.sum
		par := sum.Parallelism.P50
		head := "parallelism %.2f (work/span); predicted step p50:"
		if o.frozen && o.tl.lanes > 0 {
			par, head = o.tl.par, fmt.Sprintf("parallelism %%.2f at step %d; predicted step (p50):", o.tl.step)
		}
		y := c.Wrap(6, 0, fmt.Sprintf(head, par), 2)
		var pred [profile.NumPredicted]float64
		for i := range pred {
			pred[i] = sum.Predicted[i].P50
			if o.frozen && o.tl.lanes > 0 {
				pred[i] = msf(o.tl.pred[i])
			}
		}
		scale := max(pred[0], 1e-9)
		for i, p := range profile.PredictParticipants() {
			ry := y + i*predH
			text := fmt.Sprintf("%2d threads %6.2f ms", p, pred[i])
			if o.frozen && o.tl.lanes > 0 {
				text += fmt.Sprintf(" (%.2f)", sum.Predicted[i].P50)
			}
			c.rect(176, float32(ry+3), float32(pred[i]/scale*float64(c.W-184))+1, predH-6, colStep.scaled(0.8))
			c.Text(6, ry, text)
		}
		return y + len(pred)*predH + 4
	}}
}
