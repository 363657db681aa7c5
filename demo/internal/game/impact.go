package game

import (
	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
	"github.com/weft-engine/weft/systems"
)

// Impacts counts the hard landings since the start, and the dust clouds
// left this step (at most maxDust a step).
type Impacts struct {
	Hard int
	Step uint64 // the step that Dust counts for
	Dust int
}

// Dust marks the clouds that hard landings raise.
type Dust struct{}

const (
	hardLanding = 60  // world units/s: a landing at least this fast is hard
	maxDust     = 16  // dust clouds a step
	dustSpan    = 0.6 // seconds a cloud lasts
)

// impact is an observer of the Landed events that landing emits from its
// chunk jobs: every hard landing is counted, and raises a pale cloud of
// dust on the floor. Neither landing nor sparks knows of it. It runs at
// the playback that ends landing's frame, once per event, in the event
// stream's order, so the clouds are the same for every worker count.
type impact struct {
	c    *comps
	dust ecs.Component[Dust]
	time ecs.ResReader[engine.Time]
	seen ecs.ResWriter[Impacts]
}

func (o *impact) Name() string { return "impact" }

func (o *impact) Build(b *engine.ObserverBuilder) error {
	d := b.Decl()
	o.time, o.seen = ecs.ReadRes[engine.Time](d), ecs.WriteRes[Impacts](d)
	o.dust = ecs.NewComponent[Dust](b.World())
	ecs.ObserveEvent[Landed](d)
	return nil
}

// Observe runs on the owner, once per Landed event.
func (o *impact) Observe(ev ecs.Observed) error {
	l, _ := ecs.EventOf[Landed](ev)
	if l.Speed < hardLanding {
		return nil
	}
	s := o.seen.Get()
	s.Hard++
	if step := o.time.Get().Step; s.Step != step {
		s.Step, s.Dust = step, 0
	}
	if s.Dust == maxDust {
		return nil
	}
	s.Dust++
	c, b := o.c, ev.Commands
	e := b.Spawn() // plays in this playback
	c.pos.Add(b, e, systems.Position{X: l.X, Y: l.Y - 2})
	c.fading(b, e, 5, 1.2, [4]float64{0.85, 0.85, 0.95, 0.6}, [4]float64{0.6, 0.6, 0.7, 0}, dustSpan)
	o.dust.Add(b, e, Dust{})
	return nil
}

// addImpact adds the impact observer and its Impacts resource. Executed
// only by the owner, before Build.
func (g *Game) addImpact() error {
	g.impacts = &Impacts{}
	if err := ecs.AddResource(g.w, g.impacts); err != nil {
		return err
	}
	return g.eng.AddObserver(&impact{c: g.comps})
}

// HardLandings is the number of hard landings since the start, each
// raising a cloud of dust (the impact observer) while fewer than maxDust
// did in its step.
func (g *Game) HardLandings() int { return g.impacts.Hard }
