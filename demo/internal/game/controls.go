package game

import (
	"errors"
	"math"
	"slices"

	"github.com/weft-engine/weft/engine"
)

// Keys are the hotkeys that went down this frame, as plain data: the
// window fills them from Ebiten, a test by hand.
type Keys struct {
	WorkersUp, WorkersDown bool // one worker more or fewer
	Serial                 bool // switch between serial and parallel
	Checks                 bool // safety and ecs checks on or off
	Batch                  bool // the next batch size of BatchSizes (adaptive among them)
	Burst                  bool // a burst at the cursor, as a click
	Fountain               bool // switch the fountain on or off
	Start                  bool // leave the title screen
	Pause                  bool // pause or resume the simulation
	Step                   bool // one step while paused
	Rewind                 bool // back two seconds (Game.Rewind)
	Save, Load             bool // the world to its file and back (Game.Save, Game.Load)
	Quit                   bool
}

// BatchSizes are the batch sizes the Batch key cycles through: 0 is
// adaptive (the engine picks the batch after each step).
var BatchSizes = [...]int{0, 64, 256, 1024, 4096}

// The limits of the hotkeys.
const (
	MaxWorkers = 15 // the most + reaches: the largest pool the overlay predicts for (16), less the owner
)

// Controls are the settings the hotkeys change. Workers, Batch and Checks
// are applied to the engine with Apply, and take effect from the next step.
// Every method is executed only by the owner.
type Controls struct {
	Workers  int // worker goroutines besides the owner; 0 is serial
	Parallel int // the worker count Serial switches back to
	Batch    int // rows per chunk; 0 is adaptive
	Checks   bool
	Paused   bool
}

// Actions are a frame's one-shot requests, which the window carries out.
type Actions struct {
	Step bool // run one step although paused
	// Start leaves the title screen (Game.Start); Pause asks for the
	// pause to switch (Game.TogglePause) where the game owns it.
	Start, Pause bool
	Burst        bool // spawn a burst at the cursor
	// Fountain switches the fountain (Game.SetFountain): its system runs
	// only while it is on, under run conditions.
	Fountain bool
	// Rewind, Save and Load ask for Game.Rewind, Save and Load.
	Rewind, Save, Load bool
	Quit               bool
}

// NewControls starts from e's settings.
func NewControls(e *engine.Engine) Controls {
	c := Controls{Workers: e.Workers(), Parallel: e.Workers(), Batch: e.Batch(), Checks: e.Checks()}
	if e.AdaptiveBatch() {
		c.Batch = 0
	}
	if c.Parallel == 0 {
		c.Parallel = 1
	}
	return c
}

// Press applies the keys that went down this frame and returns the
// one-shot actions they ask for.
func (c *Controls) Press(k Keys) Actions {
	if k.WorkersUp {
		c.setWorkers(c.Workers + 1)
	}
	if k.WorkersDown {
		c.setWorkers(c.Workers - 1)
	}
	if k.Serial {
		if c.Workers > 0 {
			c.Workers = 0 // Parallel keeps the count to come back to
		} else {
			c.Workers = c.Parallel
		}
	}
	if k.Checks {
		c.Checks = !c.Checks
	}
	if k.Batch {
		c.Batch = NextBatch(c.Batch)
	}
	if k.Pause {
		c.Paused = !c.Paused
	}
	return Actions{Step: k.Step && c.Paused, Start: k.Start, Pause: k.Pause, Burst: k.Burst, Fountain: k.Fountain, Rewind: k.Rewind, Save: k.Save, Load: k.Load, Quit: k.Quit}
}

// setWorkers clamps n to [0, MaxWorkers], or to the count the program
// started with if that is more; a parallel count is remembered for Serial.
func (c *Controls) setWorkers(n int) {
	c.Workers = min(max(n, 0), max(MaxWorkers, c.Workers))
	if c.Workers > 0 {
		c.Parallel = c.Workers
	}
}

// NextBatch is the batch size after b in BatchSizes, wrapping around; a
// size not in the list goes to the next larger one.
func NextBatch(b int) int {
	i, _ := slices.BinarySearch(BatchSizes[:], b+1)
	return BatchSizes[i%len(BatchSizes)]
}

// Runs reports whether the simulation steps this frame.
func (c *Controls) Runs(a Actions) bool { return !c.Paused || a.Step }

// Apply sets e's worker count, batch size and checks to c's, for the next
// step; it changes only what differs.
func (c *Controls) Apply(e *engine.Engine) error {
	var errs []error
	if e.Workers() != c.Workers {
		errs = append(errs, e.SetWorkers(c.Workers))
	}
	if e.AdaptiveBatch() != (c.Batch == 0) || c.Batch != 0 && e.Batch() != c.Batch {
		errs = append(errs, e.SetBatch(c.Batch))
	}
	if e.Checks() != c.Checks {
		e.SetChecks(c.Checks)
	}
	return errors.Join(errs...)
}

// ClickSlop is how far, in screen pixels, the cursor may move between
// press and release for the gesture to be a click rather than a drag.
const ClickSlop = 4

// Pointer turns the main mouse button into drags and clicks. Every
// method is executed only by the owner.
type Pointer struct {
	held, ignored bool
	x, y, moved   float64
}

// Update takes the cursor (screen pixels) and whether the button is held,
// and fills in's cursor, DragX, DragY and Click: while held, the cursor's
// movement drags the world; a release within ClickSlop of the press is a
// click. A press that starts where blocked is set (over the overlay) is
// ignored until released.
func (p *Pointer) Update(x, y float64, held, blocked bool, in *Input) {
	in.MouseX, in.MouseY = x, y
	switch {
	case held && !p.held: // pressed
		p.held, p.ignored, p.x, p.y, p.moved = true, blocked, x, y, 0
	case held:
		if !p.ignored {
			in.DragX, in.DragY = x-p.x, y-p.y
		}
		p.moved += math.Abs(x-p.x) + math.Abs(y-p.y)
		p.x, p.y = x, y
	case p.held: // released
		p.held = false
		if !p.ignored && p.moved <= ClickSlop {
			in.Click = true
		}
	}
}
