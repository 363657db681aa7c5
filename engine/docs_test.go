package engine_test

import (
	"os"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var goBlock = regexp.MustCompile("(?s)```go\n(.*?)\n```")

// Every Go block of docs/writing-a-system.md is in guide_test.go (or its siblings), whose
// Examples compile and run it, and the error the guide shows is the one
// the engine gives.
func TestGuide(t *testing.T) {
	doc, err := os.ReadFile("../docs/writing-a-system.md")
	require.NoError(t, err)
	var src []byte
	for _, f := range []string{"guide_test.go", "guide_checks_test.go", "guide_lookup_test.go", "guide_events_test.go", "guide_changed_test.go", "guide_replay_test.go", "guide_snapshot_test.go", "guide_state_test.go", "guide_enable_test.go", "guide_inspect_test.go", "guide_observer_test.go", "guide_relation_test.go"} {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		src = append(src, b...)
	}
	blocks := goBlock.FindAllSubmatch(doc, -1)
	require.NotEmpty(t, blocks)
	for _, b := range blocks {
		assert.Contains(t, string(src), string(b[1]), "a Go block of the guide is not in guide_test.go or guide_checks_test.go: copy it there (or fix the guide)")
	}
}

// The order of events the guide shows (section 10) is the one a reader
// gets, on every worker count.
func TestGuideEventOrder(t *testing.T) {
	doc, err := os.ReadFile("../docs/writing-a-system.md")
	require.NoError(t, err)
	for _, workers := range []int{0, 1, 2, 4} {
		assert.Contains(t, string(doc), "On every worker count, `log` reads:\n\n```text\n"+noteOrder(workers)+"\n```", "W%d", workers)
	}
}
