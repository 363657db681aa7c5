package game

import (
	"math"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
	"github.com/weft-engine/weft/systems"
	"github.com/weft-engine/weft/systems/transform"
)

// Ships and their turrets: every seeker is a ship with two turrets, its
// children (ecs.ChildOf). A ship's transform follows its body (helm);
// the transform system propagates it to the turrets, which sit off the
// ship's bow and turn with its heading; turretPlace puts each turret's
// sprite where its World transform says. When a ship's life ends, the
// lifetime system despawns it, and playback despawns its turrets with it.

// Turret marks a turret's sprite.
type Turret struct{}

// turretOffsets are the turrets' places relative to their ship's
// heading, in world units.
var turretOffsets = [...]transform.Local{{X: 3, Y: -4, Scale: 1}, {X: 3, Y: 4, Scale: 1}}

// relateFunc records a ChildOf link into b: ecs.Relate in the owner's
// buffers, a RelationWriter's Set in a system's.
type relateFunc func(b *ecs.Commands, child, parent ecs.Entity) error

// addTurrets records into b how ship gets a transform and two turrets,
// its children. Called by whoever records b.
func (c *comps) addTurrets(b *ecs.Commands, ship ecs.Entity, relate relateFunc) error {
	c.local.Add(b, ship, transform.Local{Scale: 1})
	c.world.Add(b, ship, transform.World{Scale: 1})
	for _, off := range turretOffsets {
		t := b.Spawn()
		c.pos.Add(b, t, systems.Position{})
		c.spr.Add(b, t, systems.Sprite{Sheet: 1, Layer: 3, Extent: 1.2})
		c.look.Add(b, t, systems.Look{Scale: 0.6, Color: engine.Color{R: 1, G: 0.85, B: 0.2, A: 1}})
		c.local.Add(b, t, off)
		c.world.Add(b, t, transform.World{})
		c.turret.Add(b, t, Turret{})
		if err := relate(b, t, ship); err != nil {
			return err
		}
	}
	return nil
}

// helm sets each ship's transform from its body: its position, and its
// heading along its velocity. It runs after physics and before the
// transform system.
type helm struct {
	pos   ecs.Reader[systems.Position]
	vel   ecs.Reader[systems.Velocity]
	local ecs.Writer[transform.Local]
	pass  *engine.Pass
}

func (s *helm) Name() string { return "helm" }

func (s *helm) Build(b *engine.Builder) error {
	d := b.Decl()
	s.pos, s.vel, s.local = ecs.Read[systems.Position](d), ecs.Read[systems.Velocity](d), ecs.Write[transform.Local](d)
	s.pass = b.Chunks("steer", ecs.NewQuery3(d, s.pos, s.vel, s.local), s.chunk)
	return nil
}

func (s *helm) Schedule(f *engine.Frame) error { return f.Run(s.pass) }

// chunk runs as a job per chunk of ships.
func (s *helm) chunk(c *ecs.Chunk) {
	p, v, l := s.pos.Column(c), s.vel.Column(c), s.local.Column(c)
	for i := range l {
		l[i] = transform.Local{X: p[i].X, Y: p[i].Y, Rot: math.Atan2(v[i].Y, v[i].X), Scale: 1}
	}
}

// turretPlace moves each turret's sprite to its World transform. It
// runs after the transform system.
type turretPlace struct {
	world ecs.Reader[transform.World]
	pos   ecs.Writer[systems.Position]
	look  ecs.Writer[systems.Look]
	pass  *engine.Pass
}

func (s *turretPlace) Name() string { return "turrets" }

func (s *turretPlace) Build(b *engine.Builder) error {
	d := b.Decl()
	s.world, s.pos, s.look = ecs.Read[transform.World](d), ecs.Write[systems.Position](d), ecs.Write[systems.Look](d)
	s.pass = b.Chunks("place", ecs.NewQuery3(d, s.world, s.pos, s.look, ecs.With[Turret]()), s.chunk)
	return nil
}

func (s *turretPlace) Schedule(f *engine.Frame) error { return f.Run(s.pass) }

// chunk runs as a job per chunk of turrets.
func (s *turretPlace) chunk(c *ecs.Chunk) {
	w, p, l := s.world.Column(c), s.pos.Column(c), s.look.Column(c)
	for i := range w {
		p[i] = systems.Position{X: w[i].X, Y: w[i].Y}
		l[i].Rotation = w[i].Rot
	}
}

// addTurretSystems adds helm, transform and turretPlace, in PostUpdate
// after physics, sitting out paused steps like the simulation.
func (g *Game) addTurretSystems() error {
	e := g.eng
	if err := e.Add(engine.PostUpdate, &helm{}, unpaused); err != nil {
		return err
	}
	if err := e.Add(engine.PostUpdate, transform.New(), engine.After("helm"), unpaused); err != nil {
		return err
	}
	return e.Add(engine.PostUpdate, &turretPlace{}, engine.After("transform"), unpaused)
}
