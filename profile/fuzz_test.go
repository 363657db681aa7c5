package profile_test

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/profile"
)

// FuzzReadReport fuzzes what `headless -compare a.json b.json` and the
// demo's -baseline do with a capture file: ReadReport, the figures, the
// comparison and its table. Any bytes give a report or an error, never a
// panic; a report whose figures are distinct, as a capture's are,
// compares with itself figure for figure at zero difference. The
// committed corpus (testdata/fuzz/FuzzReadReport) holds a capture that
// headless -json wrote.
func FuzzReadReport(f *testing.F) {
	f.Add([]byte(`{"format":"weft-profile/1"}`))
	f.Add([]byte(`{"format":"weft-profile/1","systems":[{"name":"a","work_ms":{"p50":1}}],"markers":[{"name":"m"}],"counters":[{"name":"c","value":{"p50":-2}}]}`))
	f.Add([]byte(`{"format":"other/9"}`))
	f.Add([]byte(`{"format":"weft-profile/1","step_ms":{"p50":1e999}}`))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := profile.ReadReport(bytes.NewReader(data))
		if err != nil {
			require.Nil(t, r)
			return
		}
		figs := r.Figures()
		d := profile.Compare(figs, figs)
		var out bytes.Buffer
		require.NoError(t, profile.WriteComparison(&out, "a.json", "b.json", d))
		require.NoError(t, profile.WriteComparison(&out, "a.json", "none", profile.Compare(figs, nil)))
		distinct := map[[3]string]bool{}
		for _, x := range figs {
			distinct[[3]string{x.Kind, x.Name, x.Measure}] = true
		}
		if len(distinct) < len(figs) {
			return
		}
		require.Len(t, d, len(figs))
		for _, x := range d {
			require.Zero(t, x.In, "%+v", x)
			require.Zero(t, x.Diff, "%+v", x)
		}
	})
}
