package engine_test

import (
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
)

// The zero Config runs a worker for each spare CPU, GOMAXPROCS-1 (none
// on one CPU, where DefaultWorkers asks for one); Serial asks for the
// serial executor, and with a worker count too it is refused with
// WEFT-G001. SetWorkers takes a count as it is: 0 is serial.
func TestConfigWorkers(t *testing.T) {
	spare := runtime.GOMAXPROCS(0) - 1
	assert.Equal(t, spare, engine.SpareWorkers())
	atLeastOne, err := engine.ResolveWorkers(engine.DefaultWorkers)
	require.NoError(t, err)
	assert.Equal(t, max(spare, 1), atLeastOne)
	for _, c := range []struct {
		cfg  engine.Config
		want int
	}{
		{engine.Config{}, spare},
		{engine.Config{Workers: engine.DefaultWorkers}, atLeastOne},
		{engine.Config{Serial: true}, 0},
		{engine.Config{Workers: 3}, 3},
	} {
		e, err := engine.New(ecs.NewWorld(ecs.Options{}), c.cfg)
		require.NoError(t, err, "%+v", c.cfg)
		assert.Equal(t, c.want, e.Workers(), "%+v", c.cfg)
		require.NoError(t, e.Close())
	}
	_, err = engine.New(ecs.NewWorld(ecs.Options{}), engine.Config{Serial: true, Workers: 2})
	require.ErrorIs(t, err, engine.ErrBadConfig)
	assert.Contains(t, err.Error(), "Config{Serial: true, Workers: 2}")

	e, err := engine.New(ecs.NewWorld(ecs.Options{}), engine.Config{})
	require.NoError(t, err)
	defer e.Close()
	require.NoError(t, e.SetWorkers(0))
	assert.Zero(t, e.Workers(), "SetWorkers(0) is serial")
}

// On one CPU, as a browser's WebAssembly has, the zero Config is the
// serial executor: a worker would only take turns with the owner.
func TestConfigOneCPU(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	e, err := engine.New(ecs.NewWorld(ecs.Options{}), engine.Config{})
	require.NoError(t, err)
	defer e.Close()
	assert.Zero(t, e.Workers())
}
