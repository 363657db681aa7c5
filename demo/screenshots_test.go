package main

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/demo/internal/game"
)

// screenshotsFile records, beside the README's pictures, the demo's
// systems and keys when they were taken.
const screenshotsFile = "../docs/img/screenshots.txt"

// manifest is what the pictures show of the demo: its systems and
// observers in the order the overlay lists them, its keys (the help's and
// the lines under the timeline).
func manifest(t *testing.T) string {
	g, err := game.New(game.Config{Entities: 1000, Title: true})
	require.NoError(t, err)
	defer g.Close()
	x := g.Engine().Explain()
	var b strings.Builder
	b.WriteString("# The demo's systems and keys when the screenshots in docs/img were taken\n")
	b.WriteString("# (bash scripts/screenshots.sh, or make screenshots, writes this file after them).\n")
	b.WriteString("# demo's TestScreenshotsCurrent fails when the demo's differ: take them again.\n")
	for _, s := range x.Systems {
		fmt.Fprintf(&b, "system %s %s\n", s.Stage, s.Name)
	}
	for _, o := range x.Observers {
		fmt.Fprintf(&b, "observer %s\n", o.Name)
	}
	for _, k := range gameKeys {
		fmt.Fprintf(&b, "key %s: %s\n", k.Keys, k.Does)
	}
	for _, h := range []string{hintTitle, hintPlay, hintRecord, hintPaused, hintReplay, hintEnded} {
		fmt.Fprintf(&b, "hint %s\n", h)
	}
	return b.String()
}

// The README's pictures show the demo's systems and keys as they are:
// when a system, an observer or a key is added, removed or renamed, this
// fails until the screenshots are taken again (bash scripts/screenshots.sh,
// which writes the file with WEFT_UPDATE_SCREENSHOTS=1).
func TestScreenshotsCurrent(t *testing.T) {
	now := manifest(t)
	if os.Getenv("WEFT_UPDATE_SCREENSHOTS") == "1" {
		require.NoError(t, os.WriteFile(screenshotsFile, []byte(now), 0o644))
		return
	}
	was, err := os.ReadFile(screenshotsFile)
	require.NoError(t, err, "run bash scripts/screenshots.sh")
	assert.Equal(t, string(was), now, "the demo's systems or keys changed since the screenshots in docs/img were taken: run bash scripts/screenshots.sh (make screenshots)")
}
