package engine_test

import (
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
	"github.com/weft-engine/weft/safety"
)

func noop(p []pos) {}

// buildCase is a schedule that fails Build with code (and cause, if set),
// and an error text containing text.
type buildCase struct {
	name  string
	add   func(t *testing.T, e *engine.Engine)
	code  error
	cause error
	text  string
}

// checkBuildErrors builds each case's schedule and checks its error.
func checkBuildErrors(t *testing.T, cases []buildCase) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEngine(t, world(t, 1), engine.Config{Serial: true})
			c.add(t, e)
			err := e.Build()
			require.Error(t, err)
			assert.ErrorIs(t, err, c.code)
			if c.cause != nil {
				assert.ErrorIs(t, err, c.cause)
			}
			assert.Contains(t, err.Error(), c.text)
		})
	}
}

func TestBuildErrors(t *testing.T) {
	checkBuildErrors(t, []buildCase{
		{"cycle", func(t *testing.T, e *engine.Engine) {
			require.NoError(t, e.Add(engine.Update, mover("a", true, noop), engine.After("b")))
			require.NoError(t, e.Add(engine.Update, mover("b", true, noop), engine.After("a")))
		}, engine.ErrSchedule, safety.ErrCycle, `"a" → "b" → "a"`},
		{"unknown name", func(t *testing.T, e *engine.Engine) {
			require.NoError(t, e.Add(engine.Update, mover("a", true, noop), engine.After("nope")))
		}, engine.ErrSchedule, safety.ErrUnknownSystem, `"nope"`},
		{"against the stages", func(t *testing.T, e *engine.Engine) {
			require.NoError(t, e.Add(engine.Update, mover("a", true, noop), engine.Before("b")))
			require.NoError(t, e.Add(engine.PreUpdate, mover("b", true, noop)))
		}, engine.ErrStageOrder, nil, "earlier stage PreUpdate"},
		{"ambiguous", func(t *testing.T, e *engine.Engine) {
			require.NoError(t, e.Add(engine.Update, mover("a", true, noop)))
			require.NoError(t, e.Add(engine.Update, mover("b", false, noop)))
		}, engine.ErrAmbiguity, safety.ErrNewAmbiguity, `"a" and "b" conflict on pos`},
		{"declared twice", func(t *testing.T, e *engine.Engine) {
			require.NoError(t, e.Add(engine.Update, &toy{name: "twice", build: func(b *engine.Builder) error {
				ecs.Read[pos](b.Decl())
				ecs.Write[pos](b.Decl())
				return nil
			}}))
		}, engine.ErrSchedule, safety.ErrConflictingDecl, "declares pos twice"},
		{"build fails", func(t *testing.T, e *engine.Engine) {
			require.NoError(t, e.Add(engine.Update, &toy{name: "bad", build: func(*engine.Builder) error { return errors.New("no assets") }}))
		}, engine.ErrBuild, nil, "no assets"},
		{"exclusive with order", func(t *testing.T, e *engine.Engine) {
			require.NoError(t, e.AddExclusive(engine.Update, exclusive{"x", nil}, engine.After("a")))
		}, engine.ErrStageOrder, nil, "exclusive"},
	})
}

// An accepted ambiguity builds, and Explain marks it allowed; the edge
// names the key, both modes and why the order holds.
func TestAllowlistAndExplain(t *testing.T) {
	build := func(allow safety.Allowlist, second ...engine.Option) *engine.Explain {
		e := newEngine(t, world(t, 1), engine.Config{Serial: true, Allowlist: allow})
		require.NoError(t, e.Add(engine.Update, mover("a", true, noop)))
		require.NoError(t, e.Add(engine.Update, mover("b", false, noop), second...))
		require.NoError(t, e.Add(engine.PreRender, mover("c", false, noop)))
		require.NoError(t, e.Build())
		return e.Explain()
	}
	first := build(nil, engine.After("a"))
	assert.Empty(t, first.Ambiguities)
	text := first.String()
	assert.Contains(t, text, "a -> b\n      order: b is After a\n      conflict: a writes pos, b reads it (explicit order)")
	assert.Contains(t, text, "a -> c\n      conflict: a writes pos, c reads it (stage order)")
	assert.NotContains(t, text, "b -> c") // two readers do not conflict

	var reg safety.Registry
	k, _ := reg.Register("pos")
	plan, err := safety.Check(&reg, []safety.System{{Name: "a", Decls: []safety.Decl{{Key: k, Mode: safety.Write}}}, {Name: "b", Decls: []safety.Decl{{Key: k, Mode: safety.Read}}}})
	require.NoError(t, err)
	id := plan.Ambiguities[0].ID
	second := build(safety.Allowlist{id: true})
	require.Len(t, second.Ambiguities, 1)
	assert.True(t, second.Ambiguities[0].Allowed)
	assert.Contains(t, second.String(), "registration order only: ambiguous")

	diff := engine.Diff(first, second)
	assert.Equal(t, []string{"~ edge a -> b: was (order: b is After a; conflict: a writes pos, b reads it (explicit order)), now (conflict: a writes pos, b reads it (registration order only: ambiguous))"}, diff)
	assert.Empty(t, engine.Diff(first, first))

	var dot, js strings.Builder
	require.NoError(t, first.WriteDOT(&dot))
	assert.Contains(t, dot.String(), `"a" -> "b" [label="order, conflict pos"];`)
	require.NoError(t, first.WriteJSON(&js))
	assert.Contains(t, js.String(), `"kind": "conflict"`)
}

type exclusive struct {
	name string
	run  func(w *ecs.World, t engine.Time) error
}

func (x exclusive) Name() string                          { return x.name }
func (x exclusive) Run(w *ecs.World, t engine.Time) error { return x.run(w, t) }

// An exclusive system runs between the stages with the world unlocked:
// it sees the commands of the stages before it, and the stages after it
// see its changes.
func TestExclusiveAtStageBoundary(t *testing.T) {
	w := world(t, 10)
	e := newEngine(t, w, engine.Config{Workers: 2, Batch: 4})
	pc := ecs.NewComponent[pos](w)
	var spawnPass *engine.Pass
	require.NoError(t, e.Add(engine.PreUpdate, &toy{name: "spawner",
		build: func(b *engine.Builder) error {
			b.Commands()
			d := b.Decl()
			r := ecs.Read[pos](d)
			spawnPass = b.Chunks("spawn", ecs.NewQuery1(d, r), func(c *ecs.Chunk) {
				if c.Index() == 0 {
					cmd := c.Commands()
					pc.Add(cmd, cmd.Spawn(), pos{-1})
				}
			})
			return nil
		},
		sched: func(f *engine.Frame) error { return f.Run(spawnPass) }}))
	counts := []int{}
	require.NoError(t, e.AddExclusive(engine.Update, exclusive{"count", func(w *ecs.World, _ engine.Time) error {
		require.False(t, w.InFrame())
		counts = append(counts, w.Count(pc))
		return nil
	}}))
	var seen atomic.Int64
	require.NoError(t, e.Add(engine.Update, mover("reader", false, func(p []pos) { seen.Add(int64(len(p))) })))
	require.NoError(t, e.Build())
	require.NoError(t, e.Tick())
	require.NoError(t, e.Tick())
	assert.Equal(t, []int{11, 12}, counts)
	assert.Equal(t, int64(11+12), seen.Load())
	text := e.Explain().String()
	assert.Contains(t, text, "spawner -> count\n      sync: count is exclusive: every job before it finishes first, and the commands of spawner play back")
	assert.Contains(t, text, "count -> reader\n      sync: reader starts after exclusive count")
}
