package engine_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
	"github.com/weft-engine/weft/jobs"
	"github.com/weft-engine/weft/safety"
)

// The sentinels are constant Codes: errors.Is finds an error by its code,
// through the engine's wrapping, and a code of another family never
// matches, even where the names agree.
func TestSentinelsAreCodes(t *testing.T) {
	inner := &jobs.Error{Code: jobs.ErrFailed, Msg: "panic"}
	err := &engine.Error{Code: engine.ErrJob, Msg: "a job failed", Err: inner}
	assert.ErrorIs(t, err, engine.ErrJob)
	assert.ErrorIs(t, err, jobs.ErrFailed)
	assert.ErrorIs(t, err, jobs.ErrFailed)
	assert.NotErrorIs(t, err, jobs.ErrBlocked)
	assert.NotErrorIs(t, err, engine.ErrMerge)
	assert.False(t, errors.Is(&ecs.Error{Code: ecs.ErrBadArgument}, safety.ErrBadArgument), "BadArgument of ecs is not safety's")
	assert.True(t, errors.Is(&safety.Error{Code: safety.ErrBadArgument}, safety.ErrBadArgument))
}
