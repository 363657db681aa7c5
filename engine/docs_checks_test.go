//go:build !weft_nochecks

package engine_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// The error the guide shows is the one the engine gives.
func TestGuideError(t *testing.T) {
	assert.Contains(t, guideText(t), "```text\n"+leakyError().Error()+"\n```")
}
