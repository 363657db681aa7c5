package profile_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/engine"
	"github.com/weft-engine/weft/profile"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// traceOf gathers steps of the marked system on the serial executor (the
// same jobs in the same order every run) and returns the trace's events.
func traceOf(t *testing.T, steps int) ([]map[string]any, []byte) {
	e := newEngine(t, world(t, 300), engine.Config{Serial: true, Batch: 100})
	e.Add(engine.Update, marked(0, nil))
	require.NoError(t, e.Build())
	var tr profile.Trace
	for range steps {
		require.NoError(t, e.Tick())
		tr.Add(e.LastRecord())
	}
	assert.Equal(t, steps, tr.Steps())
	var b bytes.Buffer
	require.NoError(t, tr.Write(&b))
	var file struct {
		TraceEvents []map[string]any `json:"traceEvents"`
	}
	require.NoError(t, json.Unmarshal(b.Bytes(), &file), "valid JSON")
	return file.TraceEvents, b.Bytes()
}

// The trace's format, times aside, is the golden file's: job slices,
// dependency arrows, a slice per step on the owner's lane, the markers'
// nested slices and a counter track ("C") per counter. go test -update
// rewrites it.
func TestTraceGolden(t *testing.T) {
	events, _ := traceOf(t, 2)
	events = slices.DeleteFunc(events, func(ev map[string]any) bool { // GC pauses and the owner's gaps come when they come
		return ev["tid"] == 1000.0 || ev["name"] == "GC" || ev["name"] == "owner not running"
	})
	for _, ev := range events { // times differ from run to run
		for _, k := range []string{"ts", "dur"} {
			if _, ok := ev[k]; ok {
				ev[k] = 0
			}
		}
	}
	got, err := json.MarshalIndent(events, "", " ")
	require.NoError(t, err)
	path := filepath.Join("testdata", "trace.golden.json")
	if *update {
		require.NoError(t, os.MkdirAll("testdata", 0o755))
		require.NoError(t, os.WriteFile(path, append(got, '\n'), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.JSONEq(t, string(want), string(got))
}

// A GC cycle between two steps shows as a pause on the GC lane, between
// the steps' slices.
func TestTraceGC(t *testing.T) {
	e := newEngine(t, world(t, 300), engine.Config{Serial: true, Batch: 100})
	e.Add(engine.Update, marked(0, nil))
	require.NoError(t, e.Build())
	var tr profile.Trace
	require.NoError(t, e.Tick())
	tr.Add(e.LastRecord())
	runtime.GC()
	require.NoError(t, e.Tick())
	tr.Add(e.LastRecord())
	var b bytes.Buffer
	require.NoError(t, tr.Write(&b))
	var file struct {
		TraceEvents []map[string]any `json:"traceEvents"`
	}
	require.NoError(t, json.Unmarshal(b.Bytes(), &file))
	var steps, gcs [][2]float64
	for _, ev := range file.TraceEvents {
		if ev["ph"] != "X" {
			continue
		}
		s := [2]float64{ev["ts"].(float64), ev["ts"].(float64) + ev["dur"].(float64)}
		switch ev["cat"] {
		case "step":
			steps = append(steps, s)
		case "gc":
			gcs = append(gcs, s)
			assert.Equal(t, 1000.0, ev["tid"], "the GC lane")
		}
	}
	require.Len(t, steps, 2)
	require.NotEmpty(t, gcs, "runtime.GC's pauses")
	for _, g := range gcs {
		// The wall clock and the monotonic one may drift apart by a little.
		// A pause is traced if it ended while the steps ran; its start is
		// its end less the cycle's total pause, which may come before.
		assert.Greater(t, g[1], steps[0][0]-1000, "ended after the first step began")
		assert.Less(t, g[1], steps[1][1]+1000, "before the second step ended")
	}
}

// Each step's slice holds its jobs, and each marker's slice lies in a job
// of its lane, so that Perfetto nests them.
func TestTraceNests(t *testing.T) {
	events, _ := traceOf(t, 3)
	type span struct{ start, end float64 }
	var steps, jobs, marks []span
	counters := 0
	for _, ev := range events {
		switch {
		case ev["ph"] == "C":
			counters++
			assert.Equal(t, "marked.rows", ev["name"])
			assert.Equal(t, 300.0, ev["args"].(map[string]any)["value"])
		case ev["ph"] == "X":
			s := span{ev["ts"].(float64), ev["ts"].(float64) + ev["dur"].(float64)}
			switch ev["cat"] {
			case "step":
				steps = append(steps, s)
				assert.Equal(t, 0.0, ev["tid"], "on the owner's lane")
			case "job":
				jobs = append(jobs, s)
			case "marker":
				marks = append(marks, s)
			}
		}
	}
	assert.Equal(t, 3, counters, "a counter sample a step")
	require.Len(t, steps, 3)
	require.Len(t, marks, 3*3*2, "3 chunks, 2 markers, 3 steps")
	within := func(in span, outs []span) bool {
		for _, o := range outs {
			if in.start >= o.start && in.end <= o.end {
				return true
			}
		}
		return false
	}
	for _, j := range jobs {
		assert.True(t, within(j, steps), "job %v in a step", j)
	}
	for _, m := range marks {
		assert.True(t, within(m, jobs), "marker %v in a job", m)
	}
}
