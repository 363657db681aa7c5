package engine_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
)

// An observer that fails in a step is reported as the engine reports
// the other owner-side code of a step: a *engine.Error, WEFT-G010, naming
// it, whose cause is the ecs error (WEFT-E015), so errors.Is reaches both.
func TestObserverFailureIsEngineError(t *testing.T) {
	w := ships(1) // HP 1: Hits despawns it in the first step
	eng := withHits(w, engine.Config{Workers: 2}, func(eng *engine.Engine) {
		eng.AddObserver(&watcher{name: "fails", build: func(b *engine.ObserverBuilder) error {
			ecs.Observe[Hull](b.Decl(), ecs.OnDespawn)
			return nil
		}, observe: func(ecs.Observed) error { return errors.New("boom") }})
	})
	defer eng.Close()
	err := eng.Tick()
	var ee *engine.Error
	require.True(t, errors.As(err, &ee), "%T: %v", err, err)
	assert.Equal(t, engine.ErrMerge, ee.Code)
	assert.Equal(t, "fails", ee.System)
	assert.ErrorIs(t, err, ecs.ErrObserver)
	var xe *ecs.Error
	require.True(t, errors.As(err, &xe))
	assert.Equal(t, "fails", xe.System)
	assert.Contains(t, err.Error(), `engine: WEFT-G010: observer "fails" failed in step 1`)
	require.NoError(t, eng.Tick(), "the next step runs normally")
}

// Build refuses an observer that observes nothing, and one that declares
// a token it could never use (it has no chunk): each a WEFT-G002 naming
// it, with the ecs error that says what to change.
func TestObserverBuildRefusals(t *testing.T) {
	for name, build := range map[string]func(d *ecs.Decl){
		"deaf":   func(d *ecs.Decl) { ecs.ReadLookup[Hull](d) },
		"writes": func(d *ecs.Decl) { ecs.Write[Hull](d); ecs.Observe[Hull](d, ecs.OnAdd) },
		"pokes":  func(d *ecs.Decl) { ecs.WriteLookup[Hull](d); ecs.Observe[Hull](d, ecs.OnAdd) },
	} {
		eng, err := engine.New(ecs.NewWorld(ecs.Options{}), engine.Config{Serial: true})
		require.NoError(t, err)
		require.NoError(t, eng.AddObserver(&watcher{name: name, build: func(b *engine.ObserverBuilder) error {
			build(b.Decl())
			return nil
		}}))
		err = eng.Build()
		var ee *engine.Error
		require.True(t, errors.As(err, &ee), name)
		assert.Equal(t, engine.ErrBuild, ee.Code, name)
		assert.Equal(t, name, ee.System)
		assert.ErrorIs(t, err, ecs.ErrBadArgument, name)
		eng.Close()
	}
}
