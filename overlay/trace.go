package overlay

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/weft-engine/weft/engine"
	"github.com/weft-engine/weft/profile"
)

// tracer gathers the job traces of TraceSteps steps and writes them as
// one Chrome trace file, and writes a spike's step alone. Its message
// (progress, the file, or the error) shows on a band under the top
// lines. Executed only by Ebiten's game goroutine, the engine's owner.
type tracer struct {
	dir       string
	log       io.Writer
	trace     profile.Trace // reused between traces
	left      int           // steps still to gather
	steps     int           // steps gathered
	pool      int           // the worker count the trace began with
	path      string        // the last file written
	msg       string        // its path, or the error, for the screen
	shown     int           // frames the message has been on screen
	sticky    bool          // the message stays until dismissed (a file written or failed)
	one       profile.Trace // a spike's
	spikePath string        // the last spike's trace file
	fresh     bool          // a new message: repaint
	err       error         // the first trace that could not be written
}

// msgFrames is how long a passing message (progress, Overlay.Say) stays
// on screen; a file's path or failure stays until dismissed.
const msgFrames = 360

func (t *tracer) start(e *engine.Engine) {
	t.trace.Reset()
	t.left, t.steps, t.pool = TraceSteps, 0, e.Workers()
	t.say(fmt.Sprintf("tracing the next %d steps...", TraceSteps))
}

// add gathers the last step's trace; after the last one it writes the
// file. A new worker count means a new pool, whose job handles and clock
// start again, so the trace ends early with the steps of the old one. A
// write error does not stop the game: it shows on screen.
func (t *tracer) add(e *engine.Engine) {
	if t.left == 0 {
		return
	}
	// Settings apply before the step, so the step just run used e.Workers().
	cut := e.Workers() != t.pool
	if !cut {
		t.trace.Add(e.LastRecord())
		t.steps++
		if t.left--; t.left > 0 {
			return
		}
	}
	t.left = 0
	if t.steps == 0 {
		t.say("trace cancelled: the worker count changed before its first step")
		t.sticky = true
		t.logf()
		return
	}
	path := filepath.Join(t.dir, fmt.Sprintf("weft-trace-%s.json", time.Now().Format("20060102-150405.000")))
	if err := writeFile(path, t.trace.Write); err != nil {
		t.failed(err)
		t.say("trace failed: " + err.Error())
	} else {
		t.path = path
		msg := fmt.Sprintf("trace of %d steps written to %s (open it in ui.perfetto.dev)", t.steps, path)
		if cut {
			msg += "; cut short: the worker count changed"
		}
		t.say(msg)
	}
	t.sticky = true
	t.logf()
}

// spikeMessage says which step went over the budget, by how much, and
// what the overlay did.
func spikeMessage(step uint64, took, budget time.Duration) string {
	return fmt.Sprintf("step %d took %.2f ms, over the %v budget: the timeline is frozen on it", step, ms(took), budget)
}

// spike writes a trace of e's last step alone, and says why with its path.
// A trace in progress goes on: the spike's step is in it too.
func (t *tracer) spike(e *engine.Engine, why string) {
	t.one.Reset()
	t.one.Add(e.LastRecord())
	path := filepath.Join(t.dir, fmt.Sprintf("weft-spike-step-%d-%s.json", e.Time().Step, time.Now().Format("20060102-150405.000")))
	if err := writeFile(path, t.one.Write); err != nil {
		t.failed(err)
		t.say(why + "; its trace failed: " + err.Error())
	} else {
		t.spikePath = path
		t.say(why + "; its trace: " + path)
	}
	t.sticky = true
	t.logf()
}

// failed keeps the first trace that could not be written, for TraceErr.
func (t *tracer) failed(err error) {
	if t.err == nil {
		t.err = err
	}
}

func writeFile(path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	return errors.Join(write(f), f.Close())
}

func (t *tracer) logf() {
	if t.log != nil {
		fmt.Fprintln(t.log, "overlay:", t.msg)
	}
}

// say puts msg on screen, for msgFrames frames: the callers that write a
// file make it sticky.
func (t *tracer) say(msg string) { t.msg, t.shown, t.fresh, t.sticky = msg, 0, true, false }

// dismiss takes a sticky message off the screen, and reports whether
// there was one.
func (t *tracer) dismiss() bool {
	if !t.sticky || t.msg == "" {
		return false
	}
	t.msg, t.sticky, t.fresh = "", false, true
	return true
}

// message is what the band shows this frame: a sticky message until it
// is dismissed, another while tracing and for msgFrames frames after,
// then nothing.
func (t *tracer) message() string {
	if t.sticky || t.left > 0 || t.shown < msgFrames {
		return t.msg
	}
	return ""
}

// frame counts a frame a passing message was shown, and reports whether
// it just expired (the picture is then repainted without it).
func (t *tracer) frame() bool {
	if t.msg == "" || t.sticky || t.left > 0 || t.shown >= msgFrames {
		return false
	}
	t.shown++
	return t.shown == msgFrames
}
