//go:build !weft_nochecks

package engine_test

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The error the guide shows is the one the engine gives.
func TestGuideError(t *testing.T) {
	doc, err := os.ReadFile("../docs/writing-a-system.md")
	require.NoError(t, err)
	assert.Contains(t, string(doc), "```text\n"+leakyError().Error()+"\n```")
}
