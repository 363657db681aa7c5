package engine

import (
	"fmt"
	"slices"

	"github.com/weft-engine/weft/internal/seam"
	"github.com/weft-engine/weft/safety"
)

// Event streams (ecs.Emit, ecs.ReadEvents) order systems: a reader runs
// after every writer of its stage and of earlier stages, so that it sees
// their events of this step; a writer of a later stage, or one the reader
// is explicitly Before, runs after it, and the reader sees that writer's
// events of the previous step. The ecs package keeps the events; the
// engine orders the systems and starts each step's streams.

// eventKeys are the event streams a emits that b reads.
func eventKeys(a, b *entry) []safety.Key {
	if a == b || a.decl == nil || b.decl == nil {
		return nil
	}
	emits, reads := reached(a, seam.Emits, nil), reached(b, seam.Reads, nil)
	var keys []safety.Key
	for _, k := range reads {
		if slices.Contains(emits, k) {
			keys = append(keys, k)
		}
	}
	return keys
}

// readsAfter reports whether reader r runs after writer w for their
// events: w is not in a later stage, and no constraint (its own or its
// sets', resolved by Build) puts r first.
func readsAfter(w, r *entry) bool {
	return w.stage <= r.stage && !slices.Contains(r.runBefore, w.name) && !slices.Contains(w.runAfter, r.name)
}

// eventAfter appends to after the names of the systems that r must run
// after to read their events of the same step. Executed only by the
// owner, in Build.
func (e *Engine) eventAfter(r *entry, after []string) []string {
	for _, w := range e.sched.par {
		if len(eventKeys(w, r)) > 0 && readsAfter(w, r) && !slices.Contains(after, w.name) {
			after = append(after, w.name)
		}
	}
	return after
}

// eventCauses are the Explain causes of the event streams that order a
// before b.
func (e *Engine) eventCauses(a, b *entry) []Cause {
	var cs []Cause
	if !readsAfter(a, b) {
		return nil
	}
	reg := e.world.Registry()
	for _, k := range eventKeys(a, b) {
		name := reg.Name(k)
		cs = append(cs, Cause{Kind: CauseEvents, Key: name, Text: fmt.Sprintf(
			"%s emits %s, %s reads them: it runs after, and sees this step's", a.name, name, b.name)})
	}
	return cs
}

// startEvents starts the step of every event stream. Executed only by the
// owner, at the start of a step, with no job in flight.
func (e *Engine) startEvents() { e.inside.StartStep() }
