package game

import (
	"bytes"
	"flag"
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
		{[]string{"-workers", "-2"}, 2, false, "cmd: -workers: engine: WEFT-G001: -2 workers: give 0 (serial) up to engine.MaxWorkers (256)"},
		{[]string{"-batch", "-1"}, 2, false, "cmd: -batch must not be negative (0 is adaptive)"},
		{[]string{"extra"}, 2, false, `cmd: unexpected arguments ["extra"]`},
		{[]string{"-own"}, 2, false, "cmd: -own is wrong"},
		{[]string{"-nosuch"}, 2, false, "flag provided but not defined: -nosuch"},
		{[]string{"-h"}, 0, false, ""},
		{[]string{"-workers", "257"}, 2, false, "cmd: -workers: engine: WEFT-G001: 257 workers"},
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
		if ok {
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
