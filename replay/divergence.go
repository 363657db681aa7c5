package replay

import (
	"fmt"

	"github.com/weft-engine/weft/ecs"
)

// Divergence is where two runs of the same inputs first differ: a replay
// and its recording, or two runs played side by side (Find).
type Divergence struct {
	Step   uint64 // the first step whose hash or digests differ, from 1
	System string // the first system, in the order the systems ran, whose writes differ; "" if only the world hash does
	// The first entity (by ID, then generation) and component that the
	// system wrote differently, and both values; set by Find, which sees
	// both runs' rows. A row that one run wrote and the other did not has
	// nil on that side.
	Entity            ecs.Entity
	Component         string
	Want, Got         any
	WantHash, GotHash uint64 // the world hashes after the step
}

// rule is what a divergence breaks, for its message: the guide's chapter
// lists what breaks it.
const rule = "a system's writes must depend only on what it reads (its components, resources, the step's events and Time), never on a map's iteration order, time.Now, goroutines of its own or floats summed in the order jobs finish; see docs/guide/12-determinism.md"

// err is d as a WEFT-R004 error.
func (d *Divergence) err() *Error {
	return &Error{Code: ErrDiverged, Detail: d, Msg: d.String() + "; " + rule}
}

// String says where the runs differ.
func (d *Divergence) String() string {
	s := fmt.Sprintf("step %d differs (world hash %016x, want %016x)", d.Step, d.GotHash, d.WantHash)
	if d.System == "" {
		return s + ": every system's digest agrees, so what differs was not written by a system: the owner changed the world between steps without recording it (Recorder.Do, Track), or a system wrote memory that ecs does not see (a pointer, slice or map inside a component)"
	}
	s += fmt.Sprintf(": system %q is the first whose writes differ", d.System)
	if d.Component != "" {
		s += fmt.Sprintf(", first at entity %v, %s: want %+v, got %+v", d.Entity, d.Component, d.Want, d.Got)
	}
	return s
}
