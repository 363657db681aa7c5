package game

import (
	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
	"github.com/weft-engine/weft/systems"
	"github.com/weft-engine/weft/systems/seek"
)

// Lost counts the seekers despawned since the start.
type Lost struct{ Seekers int }

// Puff marks the puffs that seekers leave.
type Puff struct{}

// wake is an observer: when a seeker is despawned (its life ended, or
// the title's state left), it counts the loss and leaves a red puff
// where the seeker was, a sprite that grows and fades for puffSpan
// seconds and is despawned by lifetime like any body. The lifetime
// system that despawns bodies knows nothing of it. It runs at playback,
// in playback order, so the puffs are the same for every worker count.
type wake struct {
	c    *comps
	puff ecs.Component[Puff]
	pos  ecs.LookupReader[systems.Position]
	lost ecs.ResWriter[Lost]
}

// puffSpan is how long a puff lasts, in seconds.
const puffSpan = 0.8

func (o *wake) Name() string { return "wake" }

func (o *wake) Build(b *engine.ObserverBuilder) error {
	d := b.Decl()
	o.pos, o.lost = ecs.ReadLookup[systems.Position](d), ecs.WriteRes[Lost](d)
	o.puff = ecs.NewComponent[Puff](b.World())
	ecs.Observe[seek.Seeker](d, ecs.OnDespawn)
	return nil
}

// Observe runs on the owner while the seeker is still there.
func (o *wake) Observe(ev ecs.Observed) error {
	o.lost.Get().Seekers++
	p, ok := o.pos.Get(ev.Entity)
	if !ok {
		return nil
	}
	c, b := o.c, ev.Commands
	e := b.Spawn() // plays in this playback
	c.pos.Add(b, e, p)
	c.fading(b, e, 3, 1.5, [4]float64{1, 0.3, 0.25, 0.8}, [4]float64{1, 0.6, 0.4, 0}, puffSpan)
	o.puff.Add(b, e, Puff{})
	return nil
}

// addWake adds the wake observer and its Lost resource. Executed only by
// the owner, before Build.
func (g *Game) addWake() error {
	g.lost = &Lost{}
	if err := ecs.AddResource(g.w, g.lost); err != nil {
		return err
	}
	return g.eng.AddObserver(&wake{c: g.comps})
}

// SeekersLost is the number of seekers despawned since the start, each
// marked by a puff (the wake observer).
func (g *Game) SeekersLost() int { return g.lost.Seekers }
