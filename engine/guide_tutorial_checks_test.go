//go:build !weft_nochecks

package engine_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/engine"
)

// unordered is Build's error for the tutorial's two systems added with no
// order between them.
func unordered() error {
	eng, err := engine.New(spawnGame(10), engine.Config{Workers: 2})
	if err != nil {
		panic(err)
	}
	defer eng.Close()
	if err := eng.Add(engine.Update, &Expire{}); err != nil {
		panic(err)
	}
	if err := eng.Add(engine.Update, &Shrink{}); err != nil {
		panic(err)
	}
	return eng.Build()
}

// The error the tutorial shows for two systems added with no order is
// the one Build gives.
func TestGuideUnorderedError(t *testing.T) {
	err := unordered()
	require.Error(t, err)
	assert.Contains(t, guideText(t), "```text\n"+err.Error()+"\n```")
}

// The claims of the tutorial's second system about the codes it names.
func init() {
	guideClaims = append(guideClaims,
		guideClaim{"Add it without `engine.After` and `Build` refuses the pair with `WEFT-G004` wrapping `WEFT-S006`", func(t *testing.T) error {
			return unordered()
		}})
}
