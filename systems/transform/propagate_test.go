package transform_test

import (
	"fmt"
	"hash/fnv"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
	"github.com/weft-engine/weft/systems/transform"
)

func newEngine(t testing.TB, w *ecs.World, cfg engine.Config) *engine.Engine {
	e, err := engine.New(w, cfg)
	require.NoError(t, err)
	t.Cleanup(func() { e.Close() })
	return e
}

// A child's World is its parent's World composed with its Local, down a
// chain; a root's is its Local.
func TestPropagateComposes(t *testing.T) {
	w := ecs.NewWorld(ecs.Options{})
	lc, wc := ecs.NewComponent[transform.Local](w), ecs.NewComponent[transform.World](w)
	b := w.NewCommands()
	for _, l := range []transform.Local{{X: 10, Rot: math.Pi / 2, Scale: 2}, {X: 1, Scale: 1}, {Y: 1, Scale: 1}} {
		e := b.Spawn()
		lc.Add(b, e, l)
		wc.Add(b, e, transform.World{})
	}
	_, err := w.Apply(b)
	require.NoError(t, err)
	var ents []ecs.Entity
	all, _ := w.Entities(lc)
	for e := range all {
		ents = append(ents, e)
	}
	require.NoError(t, ecs.SetTarget[ecs.ChildOf](w, ents[1], ents[0]))
	require.NoError(t, ecs.SetTarget[ecs.ChildOf](w, ents[2], ents[1]))
	e := newEngine(t, w, engine.Config{Workers: 2, Batch: 1})
	require.NoError(t, e.Add(engine.PostUpdate, transform.New()))
	require.NoError(t, e.Build())
	require.NoError(t, e.Tick())
	got := func(e ecs.Entity) transform.World {
		v, err := ecs.Get[transform.World](w, e)
		require.NoError(t, err)
		return v
	}
	root := got(ents[0])
	require.Equal(t, transform.World{X: 10, Rot: math.Pi / 2, Scale: 2}, root)
	child := got(ents[1])
	require.InDelta(t, 10, child.X, 1e-12)
	require.InDelta(t, 2, child.Y, 1e-12)
	require.Equal(t, transform.Compose(child, transform.Local{Y: 1, Scale: 1}), got(ents[2]))
}

// A hierarchy deeper than MaxDepth fails the system's step with an error
// that names the depth; the step after a flattening runs.
func TestPropagateTooDeep(t *testing.T) {
	w := ecs.NewWorld(ecs.Options{})
	ents := forest(t, w, 256*8) // tree 7 is 8 links deep
	s := transform.New()
	s.MaxDepth = 4
	e := newEngine(t, w, engine.Config{Workers: 1})
	require.NoError(t, e.Add(engine.PostUpdate, s))
	require.NoError(t, e.Build())
	err := e.Tick()
	require.ErrorContains(t, err, "depth 8, past MaxDepth 4")
	b := w.NewCommands()
	for _, x := range ents[4*256 : 8*256] {
		b.Despawn(x)
	}
	_, err = w.Apply(b)
	require.NoError(t, err)
	require.NoError(t, e.Tick())
}

// churn moves every Local each step and, by entity and step, lifts an
// entity to its grandparent, despawns one (with its subtree) or spawns
// a child under it, through commands: a hierarchy that changes every
// step.
type churn struct {
	step  int
	local ecs.Writer[transform.Local]
	rel   ecs.RelationReader[ecs.ChildOf]
	set   ecs.RelationWriter[ecs.ChildOf]
	lc    ecs.Component[transform.Local]
	wc    ecs.Component[transform.World]
	pass  *engine.Pass
}

func (s *churn) Name() string { return "churn" }

func (s *churn) Build(b *engine.Builder) error {
	d := b.Decl()
	b.Commands()
	s.local, s.rel, s.set = ecs.Write[transform.Local](d), ecs.ReadRelation[ecs.ChildOf](d), ecs.WriteRelation[ecs.ChildOf](d)
	s.lc, s.wc = ecs.NewComponent[transform.Local](b.World()), ecs.NewComponent[transform.World](b.World())
	s.pass = b.Chunks("churn", ecs.NewQuery1(d, s.local, ecs.Optional(s.rel)), s.run)
	return nil
}

func (s *churn) Schedule(f *engine.Frame) error {
	s.step++
	return f.Run(s.pass)
}

func (s *churn) run(c *ecs.Chunk) {
	l, links := s.local.Column(c), s.rel.Column(c)
	up := ecs.TargetsOf(s.rel, s.rel, c)
	cmds := c.Commands()
	for i, e := range c.Entities() {
		l[i].Rot += 0.01
		l[i].X += 0.5 * math.Sin(float64(s.step)+float64(e.ID()))
		k := (int(e.ID()) + s.step)
		switch {
		case k%97 == 0 && links != nil:
			if gp, ok := up.Get(i); ok {
				s.set.Set(cmds, e, gp.Target())
			}
		case k%89 == 0 && links != nil && links[i].Depth() >= 2:
			cmds.Despawn(e)
		case k%83 == 0:
			ch := cmds.Spawn()
			s.lc.Add(cmds, ch, transform.Local{X: 1, Scale: 0.5})
			s.wc.Add(cmds, ch, transform.World{})
			s.set.Set(cmds, ch, e)
		}
	}
}

// propagateScene runs 20 steps of churn and propagation over a forest
// of 3,000 entities and hashes every entity's Local, World and link.
func propagateScene(t *testing.T, workers, batch int) uint64 {
	w := ecs.NewWorld(ecs.Options{})
	forest(t, w, 3000)
	e := newEngine(t, w, engine.Config{Workers: workers, Serial: workers == 0, Batch: batch})
	require.NoError(t, e.Add(engine.Update, &churn{}))
	require.NoError(t, e.Add(engine.PostUpdate, transform.New()))
	require.NoError(t, e.Build())
	h := fnv.New64a()
	for range 20 {
		require.NoError(t, e.Tick())
		x, err := w.Hash(ecs.NewComponent[transform.Local](w), ecs.NewComponent[transform.World](w))
		require.NoError(t, err)
		y, err := w.Hash(ecs.NewComponent[ecs.Link[ecs.ChildOf]](w))
		require.NoError(t, err)
		fmt.Fprint(h, x, y, w.Count())
	}
	require.NotEqual(t, 3000, w.Count(), "the churn spawned and despawned")
	return h.Sum64()
}

// Propagation over a hierarchy that changes every step gives the same
// world, bit for bit, for every worker count and batch size (0:
// adaptive) as the serial executor.
func TestPropagateDeterminism(t *testing.T) {
	want := propagateScene(t, 0, 64)
	for _, workers := range []int{0, 1, 2, 4} {
		for _, batch := range []int{1, 64, 0} {
			assert.Equal(t, want, propagateScene(t, workers, batch), "workers %d, batch %d", workers, batch)
		}
	}
}

// A world restored from a snapshot repeats the steps after it bit for
// bit, re-parenting and cascading despawns included: the children index
// is rebuilt from the links in the same order.
func TestPropagateAfterRestore(t *testing.T) {
	w := ecs.NewWorld(ecs.Options{})
	forest(t, w, 3000)
	e := newEngine(t, w, engine.Config{Workers: 2, Batch: 64})
	ch := &churn{}
	require.NoError(t, e.Add(engine.Update, ch))
	require.NoError(t, e.Add(engine.PostUpdate, transform.New()))
	require.NoError(t, e.Build())
	run := func() uint64 {
		for range 10 {
			require.NoError(t, e.Tick())
		}
		x, err := w.Hash(ecs.NewComponent[transform.World](w), ecs.NewComponent[ecs.Link[ecs.ChildOf]](w))
		require.NoError(t, err)
		return x
	}
	run()
	var s ecs.Snapshot
	require.NoError(t, w.Snapshot(&s))
	at := ch.step // the system's own state, which a snapshot does not hold
	want := run()
	require.NoError(t, w.Restore(&s))
	ch.step = at
	require.Equal(t, want, run())
}
