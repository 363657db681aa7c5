package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/replay"
)

// -record writes a replay that -replay verifies on other worker counts
// and batches, saying how much faster than real time it played.
func TestRecordReplay(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.replay")
	runOK(t, "-steps", "40", "-entities", "600", "-workers", "1", "-record", path)
	for _, args := range [][]string{{"-workers", "0"}, {"-workers", "2", "-batch", "64"}} {
		out := runOK(t, append([]string{"-replay", path}, args...)...)
		assert.Contains(t, out, "40 steps equal")
		assert.Regexp(t, `played in .+ for 667ms of game time: [0-9.]+x real time`, out)
	}
}

// A recording whose steps disagree with the run fails with WEFT-R004
// on the first step that differs, naming it and the system, and the
// exit code is 1; a file that is not a replay, with WEFT-R001.
func TestReplayMismatch(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "run.replay")
	runOK(t, "-steps", "10", "-entities", "300", "-workers", "0", "-record", path)
	f, err := os.Open(path)
	require.NoError(t, err)
	rec, err := replay.Read(f)
	f.Close()
	require.NoError(t, err)
	rec.Steps[6].Digests[1]++ // as if the second system had written otherwise in step 7
	var buf bytes.Buffer
	require.NoError(t, replay.Write(&buf, rec))
	tampered := filepath.Join(dir, "tampered.replay")
	require.NoError(t, os.WriteFile(tampered, buf.Bytes(), 0o644))

	var out, errOut bytes.Buffer
	assert.Equal(t, 1, run([]string{"-replay", tampered, "-workers", "1"}, &out, &errOut))
	assert.Contains(t, errOut.String(), "WEFT-R004: step 7 differs")
	assert.Contains(t, errOut.String(), `system "`+rec.Header.Systems[1]+`" is the first whose writes differ`)
	assert.Contains(t, errOut.String(), "the serial executor and 1 workers agree on every step: the difference lies in the recorded run")

	require.NoError(t, os.WriteFile(tampered, []byte("not a replay"), 0o644))
	errOut.Reset()
	assert.Equal(t, 1, run([]string{"-replay", tampered}, &out, &errOut))
	assert.Contains(t, errOut.String(), "WEFT-R001")

	errOut.Reset()
	assert.Equal(t, 2, run([]string{"-replay", tampered, "-steps", "3"}, &out, &errOut))
	assert.Contains(t, errOut.String(), "-replay takes only -workers, -batch and -checks")
}
