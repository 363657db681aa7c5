//go:build !weft_nochecks

package engine_test

// The step error of a misuse that only the checks find.

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
)

// A misuse found by the ecs checks, or of a marker, names its system.
func TestMisuseNamesSystem(t *testing.T) {
	var ee *engine.Error
	require.True(t, errors.As(leakyError(), &ee))
	assert.Equal(t, "leaky", ee.System)
	assert.ErrorIs(t, ee, ecs.ErrReadModified)
	err := tick1(t, func(e *engine.Engine) {
		e.Add(engine.Update, chunky("marking", func(b *engine.Builder, d *ecs.Decl) func(c *ecs.Chunk) {
			m := b.Marker("loop")
			return func(c *ecs.Chunk) { m.Begin(c.Worker() + 99).End() }
		}))
	})
	require.True(t, errors.As(err, &ee), "%v", err)
	assert.Equal(t, "marking", ee.System, "a marker used with a wrong participant names its system")
}
