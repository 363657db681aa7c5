// Package transform places entities in a hierarchy: each entity's Local transform is relative to its parent (ecs.ChildOf), and the propagation system computes every World transform, parents before children, one chunk-parallel pass per depth.
//
// A root (an entity with no parent, or whose parent has no World) has
// World = Local. A child's World is its parent's World composed with its
// Local: the child's offset is turned by the parent's rotation and
// scaled by its scale, rotations add and scales multiply. Entities need
// both Local and World to take part; set Scale to 1 for no scaling.
//
// The system runs pass d over the rows at depth d (ecs.RelationReader.
// AtDepth): every row of a depth is computed from its parent's World,
// finished by the pass before, so a pass's chunk jobs read only rows no
// job of theirs writes and the result is the same, bit for bit, for
// every worker count and batch size.
package transform

import "math"

// Local is an entity's transform relative to its parent (to the world
// for a root): an offset, a rotation in radians and a scale.
type Local struct{ X, Y, Rot, Scale float64 }

// World is an entity's transform in the world, written by the
// propagation system only.
type World struct{ X, Y, Rot, Scale float64 }

// Compose is the World of a child whose parent's World is p and whose
// Local is l.
func Compose(p World, l Local) World {
	sin, cos := math.Sincos(p.Rot)
	return World{
		X:     p.X + p.Scale*(cos*l.X-sin*l.Y),
		Y:     p.Y + p.Scale*(sin*l.X+cos*l.Y),
		Rot:   p.Rot + l.Rot,
		Scale: p.Scale * l.Scale,
	}
}

// Root is the World of an entity with no parent.
func Root(l Local) World { return World(l) }
