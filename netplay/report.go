package netplay

import (
	"fmt"
	"strings"

	"github.com/weft-engine/weft/ecs"
)

// Report says where two runs of the same step differ: two peers' runs of a
// confirmed step (a desync), or a step and its run again (the sync test).
// Each part is filled as far as it was found: the step always, then the
// first system (in the order the systems ran) whose digest differs, then
// the first entity and component that system wrote differently (by
// entity, then component) with both values as text.
type Report struct {
	Step       uint64 // the session's step, from 0
	Peer       int    // the other peer's player index; -1 in a sync test
	System     string // "" if not found (yet)
	Entity     ecs.Entity
	Component  string // "" if not found (yet)
	Local      string // the value this run wrote ("" if it wrote no such row)
	Remote     string // the other run's: the peer's, or the second run's
	LocalHash  uint64 // the world digests after the step
	RemoteHash uint64
}

func (r *Report) String() string {
	var b strings.Builder
	other := "the run again"
	if r.Peer >= 0 {
		other = fmt.Sprintf("player %d", r.Peer)
	}
	fmt.Fprintf(&b, "step %d differs from %s (world digest %#x here, %#x there)", r.Step, other, r.LocalHash, r.RemoteHash)
	if r.System == "" {
		return b.String()
	}
	fmt.Fprintf(&b, "; the first system whose writes differ is %q", r.System)
	if r.Component == "" {
		return b.String()
	}
	fmt.Fprintf(&b, ": entity %d (generation %d), component %s: %s here, %s there",
		r.Entity.ID(), r.Entity.Gen(), r.Component, orNone(r.Local), orNone(r.Remote))
	return b.String()
}

func orNone(s string) string {
	if s == "" {
		return "no such row"
	}
	return s
}
