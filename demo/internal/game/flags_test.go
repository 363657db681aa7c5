package game

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"

	"github.com/weft-engine/weft/engine"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Wrong shared flags, and the command's own check, print what is wrong and
// the usage and give code 2; -h gives 0; good flags fill the Config.
func TestParseFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		ok   bool
		want string
	}{
		{[]string{"-entities", "5", "-workers", "0", "-batch", "64", "-checks"}, 0, true, ""},
		{[]string{"-entities", "-1"}, 2, false, "cmd: -entities must not be negative"},
		{[]string{"-workers", "-2"}, 2, false, "cmd: -workers -2: give 0 (serial) up to 256, or -1 for one per spare CPU"},
		{[]string{"-batch", "-1"}, 2, false, "cmd: -batch must not be negative (0 is adaptive)"},
		{[]string{"extra"}, 2, false, `cmd: unexpected arguments ["extra"]`},
		{[]string{"-own"}, 2, false, "cmd: -own is wrong"},
		{[]string{"-nosuch"}, 2, false, "cmd: flag provided but not defined: -nosuch"},
		{[]string{"-entities", "x"}, 2, false, `cmd: invalid value "x" for flag -entities`},
		{[]string{"-h"}, 0, false, "usage: cmd"},
		{[]string{"-workers", "257"}, 2, false, "cmd: -workers 257: give 0 (serial) up to 256"},
		{[]string{"-entities", "99999999999"}, 2, false, "cmd: -entities: 99999999999 bodies is above the maximum, 1000000: they would need about 95367.4 GiB of memory (about 1024 bytes a body)"},
		{[]string{"-entities", "1000000"}, 0, true, ""},
	} {
		var out bytes.Buffer
		fs := flag.NewFlagSet("cmd", flag.ContinueOnError)
		fs.SetOutput(&out)
		fs.Usage = func() { out.WriteString("usage: cmd\n") }
		var c Config
		c.AddFlags(fs)
		own := fs.Bool("own", false, "")
		code, ok := c.ParseFlags(fs, tc.args, func() string {
			if *own {
				return "-own is wrong"
			}
			return ""
		})
		assert.Equal(t, tc.code, code, "%v", tc.args)
		assert.Equal(t, tc.ok, ok, "%v", tc.args)
		assert.Contains(t, out.String(), tc.want, "%v", tc.args)
		if tc.code == 2 {
			assert.Contains(t, out.String(), "usage: cmd", "%v", tc.args)
		}
		if ok && tc.args[1] == "5" {
			assert.Equal(t, Config{Entities: 5, Workers: 0, Batch: 64, Checks: true}, c)
		}
	}
	fs := flag.NewFlagSet("cmd", flag.ContinueOnError)
	var c Config
	c.AddFlags(fs)
	def, err := strconv.Atoi(fs.Lookup("workers").DefValue)
	require.NoError(t, err)
	assert.Equal(t, engine.DefaultWorkers, def, "the engine resolves the default")
}

// New refuses more bodies than MaxEntities with the memory they would
// take, before it allocates any.
func TestTooManyEntities(t *testing.T) {
	_, err := New(Config{Entities: MaxEntities + 1, Workers: 0})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "above the maximum, 1000000: they would need about")
}

// BytesPerEntity, which the refusal of -entities quotes, is within a
// factor of two of the heap that a built game holds per body after a
// step.
func TestBytesPerEntity(t *testing.T) {
	const n = 50000
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	g, err := New(Config{Entities: n, Workers: 0, Seed: 1})
	require.NoError(t, err)
	defer g.Close()
	require.NoError(t, g.Tick())
	runtime.GC()
	runtime.ReadMemStats(&after)
	per := (int64(after.HeapAlloc) - int64(before.HeapAlloc)) / n
	t.Logf("%d bytes of heap per body", per)
	assert.Greater(t, per, int64(BytesPerEntity/2))
	assert.Less(t, per, int64(BytesPerEntity*2))
	runtime.KeepAlive(g)
}

// The output paths are checked before a run: a missing folder, a folder
// given as a file, a file given as a folder.
func TestWritablePaths(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	assert.NoError(t, WritableFile(filepath.Join(dir, "new.json")))
	assert.NoError(t, WritableFile(file))
	assert.NoError(t, WritableDir(dir))
	assert.ErrorContains(t, WritableFile(filepath.Join(dir, "no", "x.json")), "no such file")
	assert.ErrorContains(t, WritableFile(dir), "is a folder")
	assert.ErrorContains(t, WritableDir(file), "is not a folder")
	assert.ErrorContains(t, WritableDir(filepath.Join(dir, "no")), "no such file")
	assert.Empty(t, FilesErr("-a", "", "-b", filepath.Join(dir, "b.json")))
	assert.Contains(t, FilesErr("-a", "", "-b", filepath.Join(dir, "no", "b.json")), "-b: folder ")
	left, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, left, 1, "the checks leave nothing behind")
}
