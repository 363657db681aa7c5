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
// on another worker count, every step checked against the recording, and
// shows and prints the verdict: every step equal (exit 0), or, for a
// recording whose steps disagree, where (WEFT-R004, and what playing it
// again into the serial executor found; exit 1). Ebiten runs one game a
// process, so each run is the built demo's own.
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
	verdict := "replay " + path + ": 30 steps equal (world hash and "
	assert.Contains(t, string(out), "shown: REPLAY ENDED: "+verdict, "the window shows the verdict")
	assert.Contains(t, string(out), "\n"+verdict, "and prints it")
	assert.Contains(t, string(out), "on 2 workers, batch 64")

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
	assert.Contains(t, string(out), "shown: REPLAY DIFFERS: replay "+path+": replay: WEFT-R004: step 20 differs", "the window shows where")
	assert.Contains(t, string(out), "the difference lies in the recorded run", "played again, the serial executor and this run agree: the recording was changed")
}
