package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/replay"
)

// The window records a run with -record and plays it back with -replay
// on another worker count, every step checked against the recording; a
// recording whose steps disagree ends the replay with WEFT-R004. Ebiten
// runs one game a process, so each run is the built demo's own.
func TestRecordReplayWindow(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "demo")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	require.NoError(t, err, string(out))
	path := filepath.Join(dir, "run.replay")
	out, err = exec.Command(bin, "-steps", "30", "-entities", "2000", "-workers", "1", "-nooverlay", "-record", path).CombinedOutput()
	require.NoError(t, err, string(out))

	out, err = exec.Command(bin, "-steps", "30", "-workers", "2", "-batch", "64", "-nooverlay", "-replay", path).CombinedOutput()
	require.NoError(t, err, string(out))
	assert.Contains(t, string(out), "steps 30,")
	assert.Contains(t, string(out), "shown: REPLAY step 30/30 (ended)", "the window says it replays, and which step")

	f, err := os.Open(path)
	require.NoError(t, err)
	rec, err := replay.Read(f)
	f.Close()
	require.NoError(t, err)
	require.Len(t, rec.Steps, 30)
	rec.Steps[19].Hash++
	var buf bytes.Buffer
	require.NoError(t, replay.Write(&buf, rec))
	require.NoError(t, os.WriteFile(path, buf.Bytes(), 0o644))
	out, err = exec.Command(bin, "-steps", "30", "-nooverlay", "-replay", path).CombinedOutput()
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit, string(out))
	assert.Equal(t, 1, exit.ExitCode())
	assert.Contains(t, string(out), "WEFT-R004: step 20 differs")
}
