package overlay

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/weft-engine/weft/profile"
)

// A capture is the profiler's window saved as a profile.Report (the same
// JSON as `headless -json`): the Save key writes one, and a game passes
// one back as Options.Baseline (the demo's -baseline file), so that the
// systems table compares with it. A held step (Hold) wins over it.

// capture is the baseline capture's figures, by kind, name and measure.
type capture struct {
	name string // what the table's title calls it
	figs map[string]float64
}

func figKey(kind, name, measure string) string { return kind + "\x00" + name + "\x00" + measure }

// setBaseline makes r the capture the systems table compares with; nil
// drops it.
func (o *Overlay) setBaseline(r *profile.Report, name string) {
	if r == nil {
		o.cap = nil
		return
	}
	c := &capture{name: fmt.Sprintf("%s (%d steps)", name, r.Window), figs: map[string]float64{}}
	for _, f := range r.Figures() {
		c.figs[figKey(f.Kind, f.Name, f.Measure)] = f.Value
	}
	o.cap, o.redo = c, 0
}

// capFig is the baseline capture's figure, and whether it has it.
func (o *Overlay) capFig(kind, name, measure string) (float64, bool) {
	if o.cap == nil || o.base.lanes > 0 {
		return 0, false
	}
	v, ok := o.cap.figs[figKey(kind, name, measure)]
	return v, ok
}

// save writes the profiler's window as a capture file into the trace
// folder, and says where on the message band.
func (o *Overlay) save() {
	r := o.prof.Report()
	path := filepath.Join(o.opt.TraceDir, fmt.Sprintf("weft-capture-%s.json", time.Now().Format("20060102-150405.000")))
	err := writeFile(path, func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	})
	if err != nil {
		o.tr.say("capture failed: " + err.Error())
	} else {
		o.tr.say(fmt.Sprintf("capture of %d steps written to %s (compare: headless -compare, or the game's baseline)", r.Window, path))
	}
	o.tr.sticky = true
	o.tr.logf()
}
