package game

import (
	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/systems"
	"github.com/weft-engine/weft/systems/seek"
)

// seekerEvery is how many bodies of the first world make one seeker.
const seekerEvery = 64

// addSeekers makes every 64th body of the world a seeker: it chases the
// body 32 places after it (in the world's table order, so the same for
// every run of a seed), tinted red and larger. The seek system steers it
// through a lookup of its target's Position; when the target expires,
// the seeker keeps its course. Executed only by the owner, before Build.
func (c *comps) addSeekers(w *ecs.World) error {
	seeker, alert := ecs.NewComponent[seek.Seeker](w), ecs.NewComponent[Alert](w)
	var bodies []ecs.Entity
	all, err := w.Entities(c.pos)
	if err != nil {
		return err
	}
	for e := range all {
		bodies = append(bodies, e)
	}
	b := w.NewCommands()
	for i := 0; i+seekerEvery/2 < len(bodies); i += seekerEvery {
		seeker.Add(b, bodies[i], seek.Seeker{Target: bodies[i+seekerEvery/2], Speed: 45, Gain: 3})
		alert.Add(b, bodies[i], Alert{}) // on: hunting (stun.go)
		c.look.Set(b, bodies[i], systems.Look{Scale: 1.6, Color: seekerColor})
	}
	_, err = w.Apply(b)
	return err
}
