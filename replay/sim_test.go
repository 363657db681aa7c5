package replay_test

import (
	"math"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
	"github.com/weft-engine/weft/replay"
)

// body and tag are the toy scene's components.
type body struct{ X, V float64 }
type tag struct{ K uint64 }

// Wind is a resource the owner sets between steps.
type Wind struct{ Force float64 }

// toy is a small replay.Sim: n bodies moved by the wind and the mouse's
// x, and optionally a system that breaks determinism on purpose from a
// step on.
type toy struct {
	eng   *engine.Engine
	w     *ecs.World
	wind  *Wind
	bodyC ecs.Component[body]
	tagC  ecs.Component[tag]
	ents  []ecs.Entity
	kicks *ecs.Commands // the owner's, applied before the next step
}

// kick is the toy's owner-side action: body i is put at X, at rest.
type kick struct {
	I int
	X float64
}

// bad says which non-deterministic system the scene has, from which step.
type bad struct {
	kind string // "", "map", "sum", or a kind of kinds_test.go
	from uint64
	log  *[]uint64 // what the map system wrote, step by step
}

func newToy(t *testing.T, cfg engine.Config, b bad) *toy {
	w := ecs.NewWorld(ecs.Options{})
	s := &toy{w: w, wind: &Wind{}, bodyC: ecs.NewComponent[body](w), tagC: ecs.NewComponent[tag](w)}
	cmd := w.NewCommands()
	for i := range 3000 {
		e := cmd.Spawn()
		s.bodyC.Add(cmd, e, body{X: math.Sin(float64(i)) * 100, V: float64(i%7) * 0.1})
		s.tagC.Add(cmd, e, tag{})
	}
	_, err := w.Apply(cmd)
	require.NoError(t, err)
	ents, err := w.Entities(s.bodyC)
	require.NoError(t, err)
	for e := range ents {
		s.ents = append(s.ents, e)
	}
	s.kicks = w.NewCommands()
	require.NoError(t, ecs.AddResource(w, s.wind))
	s.eng, err = engine.New(w, cfg)
	require.NoError(t, err)
	t.Cleanup(func() { s.eng.Close() })
	require.NoError(t, s.eng.Add(engine.Update, &mover{}))
	switch b.kind {
	case "map":
		require.NoError(t, s.eng.Add(engine.Update, newMapper(b), engine.After("move")))
	case "sum":
		require.NoError(t, s.eng.Add(engine.Update, &summer{from: b.from}, engine.After("move")))
	default:
		addKind(t, s, b) // kinds_test.go
	}
	require.NoError(t, s.eng.Add(engine.PostUpdate, &tagger{}))
	require.NoError(t, s.eng.Build())
	return s
}

func (s *toy) Engine() *engine.Engine { return s.eng }
func (s *toy) Tick() error {
	if _, err := s.w.Apply(s.kicks); err != nil {
		return err
	}
	return s.eng.Tick()
}
func (s *toy) Digest() (uint64, error) { return s.w.Digest(s.bodyC, s.tagC) }
func (s *toy) Resources() []replay.Resource {
	return []replay.Resource{replay.Track("wind", s.wind)}
}

// Do carries out a kick again: a recorded owner-side action.
func (s *toy) Do(a []byte) error {
	var k kick
	if err := replay.Decode(a, &k); err != nil {
		return err
	}
	s.kick(k)
	return nil
}

// kick records k's command for the next step.
func (s *toy) kick(k kick) { s.bodyC.Set(s.kicks, s.ents[k.I%len(s.ents)], body{X: k.X}) }

// mover moves the bodies by the wind and the mouse: the step's inputs.
type mover struct {
	b     ecs.Writer[body]
	wind  ecs.ResReader[Wind]
	input ecs.ResReader[engine.Input]
	pass  *engine.Pass
}

func (m *mover) Name() string { return "move" }
func (m *mover) Build(b *engine.Builder) error {
	d := b.Decl()
	m.b, m.wind, m.input = ecs.Write[body](d), ecs.ReadRes[Wind](d), ecs.ReadRes[engine.Input](d)
	m.pass = b.Chunks("move", ecs.NewQuery1(d, m.b), func(c *ecs.Chunk) {
		f := m.wind.Get().Force + m.input.Get().MouseX*1e-3
		for i := range m.b.Column(c) {
			p := &m.b.Column(c)[i]
			p.V += f * 0.01
			p.X += p.V / 60
		}
	})
	return nil
}
func (m *mover) Schedule(f *engine.Frame) error { return f.Run(m.pass) }

// tagger writes each body's rounded position into its tag: it diverges
// after any system before it does, and must not be the one named.
type tagger struct {
	b    ecs.Reader[body]
	t    ecs.Writer[tag]
	pass *engine.Pass
}

func (g *tagger) Name() string { return "tag" }
func (g *tagger) Build(b *engine.Builder) error {
	d := b.Decl()
	g.b, g.t = ecs.Read[body](d), ecs.Write[tag](d)
	g.pass = b.Chunks("tag", ecs.NewQuery2(d, g.b, g.t), func(c *ecs.Chunk) {
		bs, ts := g.b.Column(c), g.t.Column(c)
		for i := range bs {
			ts[i].K = math.Float64bits(bs[i].X)
		}
	})
	return nil
}
func (g *tagger) Schedule(f *engine.Frame) error { return f.Run(g.pass) }

// mapper is not deterministic on purpose: from step from on, it writes
// into every body's V the value of the first key a range over a map
// meets, which Go randomises on every range.
type mapper struct {
	b    ecs.Writer[body]
	time ecs.ResReader[engine.Time]
	m    map[int]float64
	pick float64
	bad  bad
	pass *engine.Pass
}

func newMapper(b bad) *mapper {
	m := map[int]float64{}
	for i := range 1024 {
		m[i] = float64(i) * 1e-3
	}
	return &mapper{m: m, bad: b}
}

func (m *mapper) Name() string { return "mapper" }
func (m *mapper) Build(b *engine.Builder) error {
	d := b.Decl()
	m.b, m.time = ecs.Write[body](d), ecs.ReadRes[engine.Time](d)
	m.pass = b.ChunksInOrder("pick", ecs.NewQuery1(d, m.b), func(c *ecs.Chunk) {
		if c.Index() == 0 && m.time.Get().Step >= m.bad.from {
			for _, v := range m.m { // the order differs from range to range
				m.pick = v
				break
			}
			*m.bad.log = append(*m.bad.log, math.Float64bits(m.pick))
		}
		for i := range m.b.Column(c) {
			m.b.Column(c)[i].V += m.pick
		}
	})
	return nil
}
func (m *mapper) Schedule(f *engine.Frame) error { return f.Run(m.pass) }

// summer is not deterministic on purpose: from step from on, each chunk
// adds its bodies' X to a shared float as it finishes, so the total
// depends on how the rows were cut and in which order the jobs ended;
// a second pass writes it into every V.
type summer struct {
	from       uint64
	b          ecs.Writer[body]
	time       ecs.ResReader[engine.Time]
	total      atomic.Uint64 // float64 bits
	add, apply *engine.Pass
}

func (s *summer) Name() string { return "sum" }
func (s *summer) Build(b *engine.Builder) error {
	d := b.Decl()
	s.b, s.time = ecs.Write[body](d), ecs.ReadRes[engine.Time](d)
	q := ecs.NewQuery1(d, s.b)
	s.add = b.Chunks("add", q, func(c *ecs.Chunk) {
		part := 0.0
		for _, p := range s.b.Column(c) {
			part += p.X
		}
		for { // a float added in completion order
			old := s.total.Load()
			if s.total.CompareAndSwap(old, math.Float64bits(math.Float64frombits(old)+part)) {
				break
			}
		}
	})
	s.apply = b.Chunks("apply", q, func(c *ecs.Chunk) {
		if s.time.Get().Step < s.from {
			return
		}
		t := math.Float64frombits(s.total.Load())
		for i := range s.b.Column(c) {
			s.b.Column(c)[i].V = t / 3000 // the mean X
		}
	})
	return nil
}
func (s *summer) Schedule(f *engine.Frame) error {
	s.total.Store(0)
	if err := f.Run(s.add); err != nil {
		return err
	}
	return f.Run(s.apply)
}
