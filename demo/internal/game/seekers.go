package game

import (
	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
	"github.com/weft-engine/weft/systems"
	"github.com/weft-engine/weft/systems/anim"
	"github.com/weft-engine/weft/systems/seek"
)

// seekerEvery is how many bodies of the world make one seeker.
const seekerEvery = 64

// RecruitEvery is how many steps apart the recruiter tops the seekers up.
const RecruitEvery = 30

// SeekersFor is the number of seekers a world of n bodies keeps: one in
// 64, at least one.
func SeekersFor(n int) int { return max(1, n/seekerEvery) }

// Seekers is the number of seekers alive. Executed only by the owner.
func (g *Game) Seekers() int { return g.w.Count(ecs.NewComponent[seek.Seeker](g.w)) }

// candidates are the bodies that may become seekers, in the world's
// table order (the same for every run of a seed): the animated bodies
// (no spark, puff or dust). populate calls it before any body is a
// seeker. Executed only by the owner, outside a frame.
func (c *comps) candidates(w *ecs.World) ([]ecs.Entity, error) {
	all, err := w.Entities(c.life, c.body, c.anim)
	if err != nil {
		return nil, err
	}
	var cands []ecs.Entity
	for e := range all {
		cands = append(cands, e)
	}
	return cands, nil
}

// recruit records into b how n of the bodies in cands become seekers,
// spread evenly over the list from offset off: each chases the body half
// a stride after it, tinted red and larger, with an Alert (on: hunting,
// stun.go), a transform and two turrets (turrets.go). The seek system
// steers it through a lookup of its target's Position; when the target
// expires, the seeker keeps its course. It reads only cands, so the
// owner (populate) and a job (the recruiter) call it alike.
func (c *comps) recruit(b *ecs.Commands, cands []ecs.Entity, n, off int, relate relateFunc) error {
	m := len(cands)
	n = min(n, m/2)
	if n <= 0 {
		return nil
	}
	stride := m / n
	for k := range n {
		i := (k*stride + off%stride) % m
		ship, target := cands[i], cands[(i+stride/2)%m]
		c.seeker.Add(b, ship, seek.Seeker{Target: target, Speed: 45, Gain: 3})
		c.alert.Add(b, ship, Alert{})
		c.look.Set(b, ship, systems.Look{Scale: 1.6, Color: seekerColor})
		if err := c.addTurrets(b, ship, relate); err != nil {
			return err
		}
	}
	return nil
}

// recruiter keeps the world's seekers at their number (SeekersFor):
// every RecruitEvery steps it makes plain bodies seekers in place of
// those whose life ended, so ships, turrets, stuns and the wake's puffs
// go on for as long as the game runs. Its gather pass lists the
// candidates chunk by chunk in chunk order, which is the world's table
// order for every batch size; its pick job chooses from the list by the
// step and records the changes into its buffer. The choice depends only
// on the world and the step, so the world is the same for every worker
// count and batch size.
type recruiter struct {
	c     *comps
	want  int
	w     *ecs.World
	d     *ecs.Decl
	ents  ecs.Reader[systems.Body]
	link  ecs.RelationWriter[ecs.ChildOf]
	time  ecs.ResReader[engine.Time]
	lack  int
	cands []ecs.Entity // the gather pass's list, reused
	buf   *ecs.Commands
	err   error // the pick job's, returned by Merge

	gather, pick *engine.Pass
}

// newRecruiter makes the recruiter of a world of n bodies, its list
// sized for them.
func newRecruiter(c *comps, n int) *recruiter {
	return &recruiter{c: c, want: SeekersFor(n), cands: make([]ecs.Entity, 0, n)}
}

func (r *recruiter) Name() string { return "recruit" }

func (r *recruiter) Build(b *engine.Builder) error {
	r.w, r.d = b.World(), b.Decl()
	r.ents, r.time = ecs.Read[systems.Body](r.d), ecs.ReadRes[engine.Time](r.d)
	r.link = ecs.WriteRelation[ecs.ChildOf](r.d)
	b.Commands()
	q := ecs.NewQuery1(r.d, r.ents, ecs.With[Life](), ecs.With[anim.Animation](), ecs.Without[seek.Seeker]())
	r.gather = b.ChunksInOrder("gather", q, func(c *ecs.Chunk) { r.cands = append(r.cands, c.Entities()...) })
	r.pick = b.Range("pick", func(int, int) {
		r.err = r.c.recruit(r.buf, r.cands, r.lack, int(r.time.Get().Step/RecruitEvery), r.relate)
	})
	return nil
}

// relate records a turret's link to its ship from the pick job.
func (r *recruiter) relate(b *ecs.Commands, child, parent ecs.Entity) error {
	r.link.Set(b, child, parent)
	return nil
}

// Schedule runs the passes if seekers are missing. Executed only by the
// owner.
func (r *recruiter) Schedule(f *engine.Frame) error {
	r.lack, r.cands, r.err = r.want-r.w.Count(r.c.seeker), r.cands[:0], nil
	if r.lack <= 0 {
		return nil
	}
	r.buf = r.d.Commands(0)
	if err := f.Run(r.gather); err != nil {
		return err
	}
	return f.RunRange(r.pick, 1, 1)
}

// Merge reports the pick job's error.
func (r *recruiter) Merge(*engine.Frame) error { return r.err }
