package profile_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/engine"
	"github.com/weft-engine/weft/profile"
)

// Two figure lists side by side: shared figures with their difference,
// then the ones a side lacks.
func TestCompare(t *testing.T) {
	a := []profile.Figure{{"step", "", "total ms", 3}, {"system", "physics", "work ms", 2}, {"counter", "x.n", "value", 10}}
	b := []profile.Figure{{"system", "physics", "work ms", 1.5}, {"step", "", "total ms", 4}, {"marker", "x.m", "ms", 0.25}}
	d := profile.Compare(a, b)
	assert.Equal(t, []profile.Difference{
		{Kind: "step", Measure: "total ms", Value: 3, Other: 4, Diff: -1},
		{Kind: "system", Name: "physics", Measure: "work ms", Value: 2, Other: 1.5, Diff: 0.5},
		{Kind: "counter", Name: "x.n", Measure: "value", Value: 10, Diff: 10, In: 1},
		{Kind: "marker", Name: "x.m", Measure: "ms", Other: 0.25, Diff: -0.25, In: 2},
	}, d)
	var out strings.Builder
	require.NoError(t, profile.WriteComparison(&out, "a.json", "b.json", d))
	text := out.String()
	assert.Contains(t, text, "a.json")
	assert.Regexp(t, `system physics +work ms +2 +1\.500 +\+0\.500 +\+33\.3`, text)
	assert.Regexp(t, `counter x\.n +value +10 +absent +\+10 +-`, text)
	assert.Regexp(t, `marker x\.m +ms +absent +0\.250 +-0\.250`, text)
}

// A capture of the window written as JSON reads back whole, with the
// machine, GC and lost counts; two steps of one run compare figure for
// figure, and a capture compares with itself at zero difference.
func TestReportAndCompareSteps(t *testing.T) {
	e := newEngine(t, world(t, 300), engine.Config{Workers: 1, Batch: 100})
	require.NoError(t, e.Add(engine.Update, marked(0, nil)))
	require.NoError(t, e.Build())
	p := profile.New(e, profile.Options{Window: 8})
	for range 10 {
		require.NoError(t, e.Tick())
	}
	r := p.Report()
	assert.Equal(t, profile.ReportFormat, r.Format)
	assert.Equal(t, 8, r.Window)
	assert.Positive(t, r.Machine.GOMAXPROCS)
	assert.NotEmpty(t, r.Machine.GoVersion)
	assert.Equal(t, 1, r.Workers)
	require.Len(t, r.Systems, 1)
	assert.Equal(t, 8, r.Systems[0].Ran)
	var buf bytes.Buffer
	require.NoError(t, json.NewEncoder(&buf).Encode(r))
	var m map[string]any
	require.NoError(t, json.Unmarshal(buf.Bytes(), &m))
	for _, k := range []string{"format", "machine", "gc", "lost", "systems", "markers", "counters", "step_ms"} {
		assert.Contains(t, m, k)
	}
	for _, k := range []string{"gomaxprocs", "cpu", "go_version", "commit"} {
		assert.Contains(t, m["machine"], k)
	}
	for _, k := range []string{"trace_events", "marker_spans", "commands_skipped"} {
		assert.Contains(t, m["lost"], k)
	}
	back, err := profile.ReadReport(&buf)
	require.NoError(t, err)
	assert.Equal(t, r, back)
	for _, d := range profile.Compare(r.Figures(), back.Figures()) {
		assert.Zero(t, d.Diff, "%+v", d)
		assert.Zero(t, d.In)
	}
	_, err = profile.ReadReport(strings.NewReader(`{"format":"other/9"}`))
	assert.ErrorContains(t, err, "headless -json")

	a, b := p.At(0), p.Last()
	d := profile.Compare(a.Figures(), b.Figures())
	require.Len(t, d, len(a.Figures()))
	for _, x := range d {
		if x.Kind == "counter" {
			assert.Equal(t, profile.Difference{Kind: "counter", Name: "marked.rows", Measure: "value", Value: 300, Other: 300}, x)
		}
	}
}

// The GC pauses of a span of the engine's clock: a pause between two
// steps counts in a span that holds its end.
func TestGCBetween(t *testing.T) {
	e := newEngine(t, world(t, 30), engine.Config{Serial: true})
	require.NoError(t, e.Add(engine.Update, marked(0, nil)))
	require.NoError(t, e.Build())
	p := profile.New(e, profile.Options{})
	require.NoError(t, e.Tick())
	from := e.Clock()
	runGC()
	to := e.Clock()
	require.NoError(t, e.Tick())
	d, n := p.GC(from-int64(1e6), to+int64(1e6)) // the pauses' ends are on the wall clock, a little off
	assert.Positive(t, n)
	assert.Positive(t, d)
	d, n = p.GC(0, 0)
	assert.Zero(t, n)
	assert.Zero(t, d)
}
