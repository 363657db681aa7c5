// Package anim plays sprite-sheet animations and tweens of position, scale, rotation and colour, driven by the engine's Time.
package anim

import (
	"math"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
	"github.com/weft-engine/weft/systems"
)

// Animation plays Frames frames of a sprite sheet from First, at FPS.
type Animation struct {
	First, Frames int32
	FPS           float64
	Once          bool    // stop on the last frame instead of looping
	T             float64 // seconds played
}

// Prop is what a tween changes.
type Prop uint8

// The tweened properties: From and To hold X, Y for Position, the value in
// [0] for Scale and Rotation, and R, G, B, A for Color.
const (
	TweenPosition Prop = iota
	TweenScale
	TweenRotation
	TweenColor
)

// Repeat is what a tween does when it ends.
type Repeat uint8

// The repeat modes. A finished Once tween is removed from its entity.
const (
	Once Repeat = iota
	Loop
	PingPong
)

// Tween moves one property from From to To over Duration seconds.
type Tween struct {
	Prop     Prop
	Ease     Ease
	Repeat   Repeat
	From, To [4]float64
	Duration float64
	T        float64 // seconds played; a repeating tween's wraps at its period
}

// System is the anim system: one pass advances sprite animations, a second
// applies tweens and removes finished one-shot tweens with commands.
type System struct {
	anim   ecs.Writer[Animation]
	sprite ecs.Writer[systems.Sprite]
	tween  ecs.Writer[Tween]
	pos    ecs.Writer[systems.Position]
	look   ecs.Writer[systems.Look]
	time   ecs.ResReader[engine.Time]
	tweenC ecs.Component[Tween]

	frames, tweens *engine.Pass
}

// New makes the anim system.
func New() *System { return &System{} }

// Name is "anim".
func (s *System) Name() string { return "anim" }

// Build declares the access, the two queries and their passes.
func (s *System) Build(b *engine.Builder) error {
	d := b.Decl()
	s.anim, s.sprite = ecs.Write[Animation](d), ecs.Write[systems.Sprite](d)
	s.tween, s.pos, s.look = ecs.Write[Tween](d), ecs.Write[systems.Position](d), ecs.Write[systems.Look](d)
	s.time = ecs.ReadRes[engine.Time](d)
	s.tweenC = ecs.NewComponent[Tween](b.World())
	b.Commands() // finished tweens are removed through command buffers
	s.frames = b.Chunks("frames", ecs.NewQuery2(d, s.anim, s.sprite), s.frameChunk)
	s.tweens = b.Chunks("tweens", ecs.NewQuery3(d, s.tween, s.pos, s.look), s.tweenChunk)
	return nil
}

// Schedule starts both passes.
func (s *System) Schedule(f *engine.Frame) error {
	if err := f.Run(s.frames); err != nil {
		return err
	}
	return f.Run(s.tweens)
}

// frameChunk and tweenChunk run as jobs, one per chunk, in parallel; each
// writes only its chunk's rows and records into its chunk's own buffer.
func (s *System) frameChunk(c *ecs.Chunk) {
	anims, sprites := s.anim.Column(c), s.sprite.Column(c)
	dt := s.time.Get().DT
	for i := range anims {
		a := &anims[i]
		a.T += dt
		k := int32(a.T * a.FPS)
		if a.Frames <= 0 {
			continue
		}
		if a.Once {
			k = min(k, a.Frames-1)
		} else {
			k %= a.Frames
		}
		sprites[i].Frame = a.First + k
	}
}

// period is how long a repeating tween takes to come back to its start
// (0 for a one-shot tween).
func (tw *Tween) period() float64 {
	switch tw.Repeat {
	case Loop:
		return tw.Duration
	case PingPong:
		return 2 * tw.Duration
	}
	return 0
}

func (s *System) tweenChunk(c *ecs.Chunk) {
	tweens, pos, looks := s.tween.Column(c), s.pos.Column(c), s.look.Column(c)
	ents := c.Entities()
	dt := s.time.Get().DT
	for i := range tweens {
		tw := &tweens[i]
		tw.T += dt
		u, done := 1.0, false
		if tw.Duration > 0 {
			// A repeating tween's clock wraps once a period, rather than
			// every step: math.Mod is slow and rarely needed.
			if period := tw.period(); period > 0 && tw.T >= period {
				tw.T = math.Mod(tw.T, period)
			}
			u = tw.T / tw.Duration
		}
		switch {
		case tw.Repeat == Once && u >= 1:
			u, done = 1, true
		case tw.Repeat == PingPong && u > 1:
			u = 2 - u
		}
		e := tw.Ease.At(u)
		v := func(k int) float64 { return tw.From[k] + (tw.To[k]-tw.From[k])*e }
		switch tw.Prop {
		case TweenPosition:
			pos[i] = systems.Position{X: v(0), Y: v(1)}
		case TweenScale:
			looks[i].Scale = v(0)
		case TweenRotation:
			looks[i].Rotation = v(0)
		case TweenColor:
			looks[i].Color = engine.Color{R: float32(v(0)), G: float32(v(1)), B: float32(v(2)), A: float32(v(3))}
		}
		if done {
			s.tweenC.Remove(c.Commands(), ents[i])
		}
	}
}
