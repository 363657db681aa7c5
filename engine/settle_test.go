package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/ecs"
)

type settleA struct{ X float64 }
type settleB struct{ X float64 }

// settleSys is a system with one chunk pass over the query that q makes.
type settleSys struct {
	name string
	q    func(d *ecs.Decl) Query
	pass *Pass
}

func (s *settleSys) Name() string { return s.name }
func (s *settleSys) Build(b *Builder) error {
	s.pass = b.Chunks("p", s.q(b.Decl()), func(*ecs.Chunk) {})
	return nil
}
func (s *settleSys) Schedule(f *Frame) error { return f.Run(s.pass) }

// A filtered Prepare waits for the earlier writers of the watched
// component only, not for a predecessor that writes something else.
func TestSettleOnWritersOnly(t *testing.T) {
	w := ecs.NewWorld(ecs.Options{})
	ecs.NewComponent[settleA](w)
	ecs.NewComponent[settleB](w)
	e, err := New(w, Config{Workers: 1})
	require.NoError(t, err)
	defer e.Close()
	writes := func(name string, a bool) *settleSys {
		return &settleSys{name: name, q: func(d *ecs.Decl) Query {
			if a {
				return ecs.NewQuery1(d, ecs.Write[settleA](d))
			}
			return ecs.NewQuery1(d, ecs.Write[settleB](d))
		}}
	}
	filtered := &settleSys{name: "filtered", q: func(d *ecs.Decl) Query {
		r := ecs.Read[settleA](d)
		return ecs.NewQuery1(d, r, ecs.Changed(r))
	}}
	require.NoError(t, e.Add(Update, writes("writerA", true)))
	require.NoError(t, e.Add(Update, writes("writerB", false)))
	require.NoError(t, e.Add(Update, filtered, After("writerA"), After("writerB")))
	require.NoError(t, e.Add(PostUpdate, writes("laterA", true)))
	require.NoError(t, e.Build())
	byName := map[string]*entry{}
	for _, en := range e.sched.par {
		byName[en.name] = en
	}
	f := byName["filtered"]
	require.Contains(t, f.preds, byName["writerB"].index, "writerB is a predecessor")
	assert.Equal(t, []int{byName["writerA"].index}, f.settleOn)
	assert.Empty(t, byName["laterA"].settleOn, "no change filter: no settling")
	for range 3 {
		require.NoError(t, e.Tick())
	}
}
