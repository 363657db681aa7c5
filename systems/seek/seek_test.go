package seek_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	ark "github.com/mlange-42/ark/ecs"
	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
	"github.com/weft-engine/weft/systems"
	"github.com/weft-engine/weft/systems/seek"
)

// mover moves every entity with a Velocity: Position += Velocity·dt, in
// Update, after seek (PreUpdate) has steered.
type mover struct {
	pos  ecs.Writer[systems.Position]
	vel  ecs.Reader[systems.Velocity]
	time ecs.ResReader[engine.Time]
	pass *engine.Pass
}

func (m *mover) Name() string { return "move" }
func (m *mover) Build(b *engine.Builder) error {
	d := b.Decl()
	m.pos, m.vel, m.time = ecs.Write[systems.Position](d), ecs.Read[systems.Velocity](d), ecs.ReadRes[engine.Time](d)
	m.pass = b.Chunks("move", ecs.NewQuery2(d, m.pos, m.vel), func(c *ecs.Chunk) {
		dt := m.time.Get().DT
		p, v := m.pos.Column(c), m.vel.Column(c)
		for i := range p {
			p[i] = move(p[i], v[i], dt)
		}
	})
	return nil
}
func (m *mover) Schedule(f *engine.Frame) error { return f.Run(m.pass) }

func move(p systems.Position, v systems.Velocity, dt float64) systems.Position {
	return systems.Position{X: p.X + v.X*dt, Y: p.Y + v.Y*dt}
}

// scene is n targets over two archetypes (moving, static) and m seekers
// chasing targets, a dead entity, or nothing.
func scene(t testing.TB, n, m int) (*ecs.World, []ark.Entity) {
	w := ecs.NewWorld(ecs.Options{})
	pc, vc, sc := ecs.NewComponent[systems.Position](w), ecs.NewComponent[systems.Velocity](w), ecs.NewComponent[seek.Seeker](w)
	b := w.NewCommands()
	var ents []ark.Entity
	for i := range n {
		e := b.Spawn()
		pc.Add(b, e, systems.Position{X: float64(i%97) * 3, Y: float64(i%89) * 5})
		if i%2 == 0 {
			vc.Add(b, e, systems.Velocity{X: float64(i%7) - 3, Y: float64(i%5) - 2})
		}
	}
	_, err := w.Apply(b)
	require.NoError(t, err)
	all, err := w.Entities(pc)
	require.NoError(t, err)
	for e := range all {
		ents = append(ents, e)
	}
	gone := ents[len(ents)-1]
	b.Despawn(gone)
	_, err = w.Apply(b)
	require.NoError(t, err)
	ents = ents[:len(ents)-1]
	for i := range m {
		e := b.Spawn()
		pc.Add(b, e, systems.Position{X: float64(i%61) * 4, Y: float64(i%53) * 6})
		vc.Add(b, e, systems.Velocity{})
		var to ark.Entity
		switch i % 10 {
		case 0:
			to = gone
		case 1: // none
		default:
			to = ents[(i*7919)%len(ents)]
		}
		sc.Add(b, e, seek.Seeker{Target: to, Speed: 20 + float64(i%5), Gain: 2})
	}
	_, err = w.Apply(b)
	require.NoError(t, err)
	return w, ents
}

// model runs the same steps serially, straight on Ark (an implementation
// independent of weft's, as an oracle should be): steer every seeker from
// the positions of the step's start, then move everything.
func model(w *ecs.World, dt float64) {
	a := w.Ark()
	pm, vm := ark.NewMap[systems.Position](a), ark.NewMap[systems.Velocity](a)
	q := ark.NewFilter3[seek.Seeker, systems.Position, systems.Velocity](a).Query()
	for q.Next() {
		s, p, v := q.Get()
		if a.Alive(s.Target) && pm.HasUnchecked(s.Target) {
			*v = seek.Steer(*p, *v, *pm.Get(s.Target), s.Speed, s.Gain*dt)
		}
	}
	mq := ark.NewFilter2[systems.Position, systems.Velocity](a).Query()
	for mq.Next() {
		p, v := mq.Get()
		*p = move(*p, *v, dt)
	}
	_ = vm
}

// dump is every Position of w, in the world's table order.
func dump(w *ecs.World) []systems.Position {
	var out []systems.Position
	all, err := w.Entities(ecs.NewComponent[systems.Position](w))
	if err != nil {
		panic(err)
	}
	for e := range all {
		p, err := ecs.Get[systems.Position](w, e)
		if err != nil {
			panic(err)
		}
		out = append(out, p)
	}
	return out
}

// Seekers read their targets' positions through a lookup, wherever the
// targets live: on every worker count and batch, the world equals the
// serial model's, bit for bit; a dead or missing target changes nothing.
func TestSeekMatchesSerialModel(t *testing.T) {
	const steps = 4
	ref, _ := scene(t, 500, 500)
	for range steps {
		model(ref, (time.Second / 60).Seconds()) // the engine's default step
	}
	want := dump(ref)
	for _, workers := range []int{0, 1, 2, 4, 8} {
		for _, batch := range []int{1, 7, 64, 1024} {
			t.Run(fmt.Sprintf("W%d/batch%d", workers, batch), func(t *testing.T) {
				w, _ := scene(t, 500, 500)
				e, err := engine.New(w, engine.Config{Workers: workers, Serial: workers == 0, Batch: batch})
				require.NoError(t, err)
				defer e.Close()
				require.NoError(t, e.Add(engine.PreUpdate, seek.New()))
				require.NoError(t, e.Add(engine.Update, &mover{}))
				require.NoError(t, e.Build())
				for range steps {
					require.NoError(t, e.Tick())
				}
				require.True(t, slices.Equal(want, dump(w)), "the world differs from the serial model's")
			})
		}
	}
}
