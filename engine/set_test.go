package engine_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/engine"
	"github.com/weft-engine/weft/safety"
)

// names lists an Explain's systems in execution order.
func names(x *engine.Explain) []string {
	var out []string
	for _, s := range x.Systems {
		out = append(out, s.Name)
	}
	return out
}

// A set's After orders every member; After a set orders against every
// member; Explain says so with set causes.
func TestSetOrdering(t *testing.T) {
	e := newEngine(t, world(t, 1), engine.Config{Serial: true})
	require.NoError(t, e.Set("ai", engine.After("physics"), engine.InStage(engine.Update)))
	require.NoError(t, e.Add(engine.Update, mover("render", false, noop), engine.After("ai")))
	require.NoError(t, e.Add(engine.Update, mover("think", false, noop), engine.InSet("ai")))
	require.NoError(t, e.Add(engine.Update, mover("plan", false, noop), engine.InSet("ai")))
	require.NoError(t, e.Add(engine.Update, mover("physics", false, noop)))
	require.NoError(t, e.Build())
	x := e.Explain()
	assert.Equal(t, []string{"physics", "think", "plan", "render"}, names(x))
	text := x.String()
	assert.Contains(t, text, "physics -> think\n      set: set \"ai\" (think is in it) is After physics")
	assert.Contains(t, text, "physics -> plan\n      set: set \"ai\" (plan is in it) is After physics")
	assert.Contains(t, text, "think -> render\n      set: render is After set \"ai\" (think is in it)")
	assert.Contains(t, text, "plan -> render\n      set: render is After set \"ai\" (plan is in it)")
	assert.Contains(t, text, "2. think [Update] reads pos; in sets ai;")
	assert.NotContains(t, text, "think -> plan") // readers of one set stay unordered
}

// Members of a set that conflict without an order are reported as
// ambiguous, as any two systems are; a set's After does not order its
// members among themselves.
func TestSetAmbiguity(t *testing.T) {
	e := newEngine(t, world(t, 1), engine.Config{Serial: true})
	require.NoError(t, e.Set("ai", engine.After("physics")))
	require.NoError(t, e.Add(engine.Update, mover("physics", false, noop)))
	require.NoError(t, e.Add(engine.Update, mover("think", true, noop), engine.InSet("ai")))
	require.NoError(t, e.Add(engine.Update, mover("plan", true, noop), engine.InSet("ai")))
	err := e.Build()
	assert.ErrorIs(t, err, engine.ErrAmbiguity)
	assert.ErrorIs(t, err, safety.ErrNewAmbiguity)
	assert.Contains(t, err.Error(), `"think" and "plan" conflict on pos`)
}

// A set's condition and a member's own must both hold.
func TestSetConditions(t *testing.T) {
	e := newEngine(t, world(t, 8), engine.Config{Workers: 2, Batch: 2})
	var a, b, c, m []uint64
	require.NoError(t, e.Set("even", engine.RunIf(func(f *engine.Frame) bool { return f.Time().Step%2 == 0 })))
	require.NoError(t, e.Add(engine.Update, counting("a", noop, &a, &m), engine.InSet("even")))
	require.NoError(t, e.Add(engine.Update, counting("b", noop, &b, &m), engine.InSet("even"), engine.EveryN(3), engine.After("a")))
	require.NoError(t, e.Add(engine.Update, counting("c", noop, &c, &m), engine.After("b")))
	require.NoError(t, e.Build())
	for range 6 {
		require.NoError(t, e.Tick())
	}
	assert.Equal(t, []uint64{2, 4, 6}, a)
	assert.Equal(t, []uint64{6}, b)
	assert.Equal(t, []uint64{1, 2, 3, 4, 5, 6}, c)
	assert.Contains(t, e.Explain().String(), "runs if EveryN(3) and even: RunIf;")
}

func TestSetErrors(t *testing.T) {
	checkBuildErrors(t, []buildCase{
		{"unknown set", func(t *testing.T, e *engine.Engine) {
			require.NoError(t, e.Add(engine.Update, mover("a", true, noop), engine.InSet("nope")))
		}, engine.ErrUnknownSet, nil, `system "a" is InSet("nope"), which is not a set`},
		{"set after unknown", func(t *testing.T, e *engine.Engine) {
			require.NoError(t, e.Set("ai", engine.After("nope")))
		}, engine.ErrUnknownSet, nil, `set "ai" runs Before/After "nope", which is neither`},
		{"two stages", func(t *testing.T, e *engine.Engine) {
			require.NoError(t, e.Set("ai", engine.InStage(engine.Update)))
			require.NoError(t, e.Set("late", engine.InStage(engine.PostUpdate)))
			require.NoError(t, e.Add(engine.Update, mover("a", true, noop), engine.InSet("ai", "late")))
		}, engine.ErrSetStage, nil, `system "a" is added to Update, but its set "late" is InStage(PostUpdate) while its set "ai" is InStage(Update)`},
		{"set named like a system", func(t *testing.T, e *engine.Engine) {
			require.NoError(t, e.Set("a"))
			require.NoError(t, e.Add(engine.Update, mover("a", true, noop)))
		}, engine.ErrNameClash, nil, `set "a" has the name of a system`},
		{"set twice", func(t *testing.T, e *engine.Engine) {
			require.NoError(t, e.Set("ai"))
			assert.ErrorIs(t, e.Set("ai", engine.EveryN(2)), engine.ErrNameClash)
		}, engine.ErrNameClash, nil, `Set("ai") twice`},
		{"cycle through a set", func(t *testing.T, e *engine.Engine) {
			require.NoError(t, e.Set("ai", engine.After("physics")))
			require.NoError(t, e.Add(engine.Update, mover("physics", true, noop), engine.After("think")))
			require.NoError(t, e.Add(engine.Update, mover("think", true, noop), engine.InSet("ai")))
		}, engine.ErrSetCycle, nil, `set "ai" (think is in it) is After physics`},
		{"set against the stages", func(t *testing.T, e *engine.Engine) {
			require.NoError(t, e.Set("ai", engine.Before("physics")))
			require.NoError(t, e.Add(engine.PreUpdate, mover("physics", true, noop)))
			require.NoError(t, e.Add(engine.Update, mover("think", true, noop), engine.InSet("ai")))
		}, engine.ErrStageOrder, nil, `set "ai" (think is in it) is Before physics: "think" (Update) would run before "physics", which is in the earlier stage PreUpdate`},
		{"after a set of a later stage", func(t *testing.T, e *engine.Engine) {
			require.NoError(t, e.Set("draw"))
			require.NoError(t, e.Add(engine.PreRender, mover("cull", true, noop), engine.InSet("draw")))
			require.NoError(t, e.Add(engine.Update, mover("think", true, noop), engine.After("draw")))
		}, engine.ErrStageOrder, nil, `think is After set "draw" (cull is in it): "think" (Update) would run after "cull", which is in the later stage PreRender`},
		{"exclusive in an ordered set", func(t *testing.T, e *engine.Engine) {
			require.NoError(t, e.Set("ai", engine.After("physics")))
			require.NoError(t, e.Add(engine.Update, mover("physics", true, noop)))
			require.NoError(t, e.AddExclusive(engine.Update, exclusive{"x", nil}, engine.InSet("ai")))
		}, engine.ErrStageOrder, nil, `exclusive system "x" has Before/After constraints through set "ai"`},
		{"nested set", func(t *testing.T, e *engine.Engine) {
			require.NoError(t, e.Set("ai"))
			assert.ErrorIs(t, e.Set("inner", engine.InSet("ai")), engine.ErrBadConfig)
		}, engine.ErrBadConfig, nil, "sets do not nest"},
	})
}

// Set after Build is refused, and the engine keeps running.
func TestSetAfterBuild(t *testing.T) {
	e := newEngine(t, world(t, 1), engine.Config{Serial: true})
	require.NoError(t, e.Build())
	assert.ErrorIs(t, e.Set("ai"), engine.ErrOrder)
	require.NoError(t, e.Tick())
}

// Enable with a set's name switches every member; a name that is neither
// a system nor a set is refused with ErrUnknown.
func TestEnableSet(t *testing.T) {
	for _, workers := range []int{0, 2} {
		e := newEngine(t, world(t, 8), engine.Config{Workers: workers, Serial: workers == 0, Batch: 2})
		require.NoError(t, e.Set("ai"))
		ran := map[string]int{}
		counted := func(name string) *toy {
			s := mover(name, true, noop)
			sched := s.sched
			s.sched = func(f *engine.Frame) error { ran[name]++; return sched(f) }
			return s
		}
		require.NoError(t, e.Add(engine.Update, counted("think"), engine.InSet("ai")))
		require.NoError(t, e.Add(engine.Update, counted("plan"), engine.InSet("ai"), engine.After("think")))
		require.NoError(t, e.Build())
		require.NoError(t, e.Tick())
		require.NoError(t, e.Enable("ai", false))
		require.NoError(t, e.Tick())
		require.NoError(t, e.Enable("ai", true))
		require.NoError(t, e.Tick())
		assert.Equal(t, map[string]int{"think": 2, "plan": 2}, ran, "W%d: both members skip the step the set is off", workers)
		err := e.Enable("nothing", false)
		assert.ErrorIs(t, err, engine.ErrUnknown)
		assert.Contains(t, err.Error(), "no system or set has that name")
	}
}

// A member ordered Before or After its own set would run before or after
// itself: Build refuses it with WEFT-G014, as a cycle.
func TestSetSelfOrder(t *testing.T) {
	for _, opt := range []engine.Option{engine.After("ai"), engine.Before("ai")} {
		e := newEngine(t, world(t, 1), engine.Config{Serial: true})
		require.NoError(t, e.Set("ai"))
		require.NoError(t, e.Add(engine.Update, mover("think", false, noop), engine.InSet("ai"), opt))
		require.NoError(t, e.Add(engine.Update, mover("plan", false, noop), engine.InSet("ai")))
		err := e.Build()
		require.ErrorIs(t, err, engine.ErrSetCycle)
		assert.Contains(t, err.Error(), `set "ai", which think is in: it would run`)
	}
	e := newEngine(t, world(t, 1), engine.Config{Serial: true})
	require.NoError(t, e.Set("ai", engine.After("ai")))
	require.NoError(t, e.Add(engine.Update, mover("think", false, noop), engine.InSet("ai")))
	assert.ErrorIs(t, e.Build(), engine.ErrSetCycle, "a set After itself")
}
