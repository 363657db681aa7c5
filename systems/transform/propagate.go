package transform

import (
	"fmt"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
)

// DefaultMaxDepth is the deepest hierarchy New's system propagates.
const DefaultMaxDepth = 32

// System is the propagation system: one query over the entities with
// Local and World (ChildOf optional), and one Chunks pass per depth, made
// at Build; Schedule runs as many as the world's deepest link needs. It
// reads Local and ChildOf and writes World, so the systems that move
// entities (write Local) or re-parent them run before it, and those that
// draw or collide from World after it; put it late in PostUpdate.
type System struct {
	// MaxDepth is the deepest hierarchy it propagates (one pass each); a
	// deeper one fails the system's Schedule, which names the depth.
	MaxDepth int

	local  ecs.Reader[Local]
	world  ecs.Writer[World]
	parent ecs.RelationReader[ecs.ChildOf]
	passes []*engine.Pass
}

// New makes the propagation system for hierarchies of up to
// DefaultMaxDepth links.
func New() *System { return &System{MaxDepth: DefaultMaxDepth} }

// Name is "transform".
func (s *System) Name() string { return "transform" }

// Build declares the access and makes the passes, one per depth.
// Executed only by the owner.
func (s *System) Build(b *engine.Builder) error {
	d := b.Decl()
	s.local, s.world = ecs.Read[Local](d), ecs.Write[World](d)
	s.parent = ecs.ReadRelation[ecs.ChildOf](d)
	q := ecs.NewQuery2(d, s.local, s.world, ecs.Optional(s.parent))
	s.passes = s.passes[:0]
	for depth := range max(s.MaxDepth, 0) + 1 {
		s.passes = append(s.passes, b.Chunks(fmt.Sprintf("depth%d", depth), q, s.level(depth)))
	}
	return nil
}

// Schedule runs the passes of depths 0 to the deepest link, in order.
// Executed only by the owner.
func (s *System) Schedule(f *engine.Frame) error {
	n := s.parent.Depths()
	if n > len(s.passes) {
		return fmt.Errorf("transform: the deepest ChildOf link is at depth %d, past MaxDepth %d; raise System.MaxDepth before Build, or make the hierarchy flatter", n-1, len(s.passes)-1)
	}
	for _, p := range s.passes[:n] {
		if err := f.Run(p); err != nil {
			return err
		}
	}
	return nil
}

// level is the body of depth d's pass: the World of each row of the
// chunk at depth d, from its parent's World (finished by pass d-1).
// Executed by the job that owns c.
func (s *System) level(d int) func(c *ecs.Chunk) {
	return func(c *ecs.Chunk) {
		rows := s.parent.AtDepth(c, d)
		if len(rows) == 0 {
			return
		}
		l, w := s.local.Column(c), s.world.Column(c)
		up := ecs.TargetsOf(s.world, s.parent, c)
		for _, i := range rows {
			p, ok := up.Get(i)
			if !ok {
				w[i] = Root(l[i])
				continue
			}
			w[i] = Compose(p, l[i])
		}
	}
}
