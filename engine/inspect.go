package engine

import "github.com/weft-engine/weft/ecs"

// Inspect is ecs.World.Inspect of ent, with how each system listed took
// part in the last step (ecs.SystemTouch.Last: ran, skipped by a run
// condition, disabled, failed, blocked): the systems whose declarations
// reach the entity and whether they did this step. Executed only by the
// owner, between steps.
func (e *Engine) Inspect(ent ecs.Entity) (ecs.Inspection, error) {
	in, err := e.world.Inspect(ent)
	rec := e.LastRecord()
	if err != nil || rec.Layout == nil {
		return in, err
	}
	for i := range in.Systems {
		for j, s := range rec.Layout.Systems {
			if s.Name == in.Systems[i].System && j < len(rec.Systems) {
				in.Systems[i].Last = rec.Systems[j].State.String()
			}
		}
	}
	return in, nil
}
