package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// runOK runs the command and requires exit code 0 and a quiet stderr.
func runOK(t *testing.T, args ...string) string {
	t.Helper()
	var out, errOut bytes.Buffer
	require.Equal(t, 0, run(args, &out, &errOut), "stderr: %s", errOut.String())
	assert.Empty(t, errOut.String())
	return out.String()
}

func runJSON(t *testing.T, args ...string) map[string]any {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal([]byte(runOK(t, append(args, "-json")...)), &m))
	return m
}

var hexHash = regexp.MustCompile(`^[0-9a-f]{16}$`)

func TestJSON(t *testing.T) {
	m := runJSON(t, "-steps", "12", "-entities", "800", "-workers", "1", "-batch", "128")
	for _, k := range []string{"steps", "entities", "visible", "workers", "batch", "checks", "window", "step_ms", "work_ms", "span_ms",
		"parallelism", "last_step", "systems", "critical_path", "prediction", "allocs_per_step", "hash",
		"dropped", "stages", "owner_schedule_ms", "owner_in_wait_ms", "owner_in_wait_idle_ms", "playback_ms", "merge_ms",
		"jobs", "chunks", "steals", "busy_ms", "markers", "counters"} {
		assert.Contains(t, m, k)
	}
	var stages []string
	for _, s := range m["stages"].([]any) {
		stages = append(stages, s.(map[string]any)["name"].(string))
	}
	assert.Equal(t, []string{"PreUpdate", "Update", "PostUpdate", "PreRender"}, stages)
	assert.Len(t, m["busy_ms"], 2, "the owner and the worker")
	wait, idle := m["owner_in_wait_ms"].(map[string]any), m["owner_in_wait_idle_ms"].(map[string]any)
	assert.LessOrEqual(t, idle["max"], wait["max"], "idle is part of the wait")
	mk := m["markers"].([]any)
	require.Len(t, mk, 2)
	assert.Equal(t, "lifetime.respawn", mk[0].(map[string]any)["name"])
	assert.Equal(t, "lifetime", mk[0].(map[string]any)["system"])
	assert.Equal(t, "physics.respond", mk[1].(map[string]any)["name"], "a range pass's marker")
	ct := m["counters"].([]any)
	require.Len(t, ct, 1)
	assert.Equal(t, "lifetime.respawned", ct[0].(map[string]any)["name"])
	assert.Equal(t, 12.0, m["steps"])
	assert.Equal(t, 12.0, m["window"], "the distributions cover every frame")
	assert.Positive(t, m["entities"])
	assert.Equal(t, 1.0, m["workers"])
	assert.Equal(t, 128.0, m["batch"])
	assert.Regexp(t, hexHash, m["hash"])
	assert.Less(t, m["allocs_per_step"], 40.0, "a few a step while the buffers grow, not one a chunk")
	step := m["step_ms"].(map[string]any)
	for _, k := range []string{"p50", "p95", "p99", "max"} {
		assert.Positive(t, step[k], k)
	}
	assert.LessOrEqual(t, step["p50"], step["max"])
	var names []string
	for _, s := range m["systems"].([]any) {
		s := s.(map[string]any)
		names = append(names, s["name"].(string))
		for _, k := range []string{"stage", "schedule_ms", "span_ms", "work_ms", "merge_ms", "entities", "jobs", "ns_per_entity"} {
			assert.Contains(t, s, k)
		}
	}
	assert.Equal(t, []string{"recruit", "lifetime", "seek", "stun", "physics", "landing", "anim", "sparks", "helm", "transform", "turrets", "stun-look", "cull", "fountain"}, names) // exclusive systems after the others
	cp := m["critical_path"].(map[string]any)
	assert.Equal(t, 12.0, cp["step"])
	assert.NotEmpty(t, cp["jobs"])
	assert.Positive(t, cp["ms"])
	var parts []float64
	for _, p := range m["prediction"].([]any) {
		p := p.(map[string]any)
		parts = append(parts, p["participants"].(float64))
		assert.Contains(t, p["ms"], "p50")
	}
	assert.Equal(t, []float64{1, 2, 4, 8, 16}, parts)
}

// The final world is the same for the serial executor and two workers,
// and for any batch size; the table's hash is the JSON's.
func TestHashAcrossWorkers(t *testing.T) {
	args := []string{"-steps", "20", "-entities", "1500"}
	want := runJSON(t, append(args, "-workers", "0")...)["hash"]
	assert.Equal(t, want, runJSON(t, append(args, "-workers", "2")...)["hash"])
	assert.Equal(t, want, runJSON(t, append(args, "-workers", "2", "-batch", "64", "-checks")...)["hash"])
	table := runOK(t, append(args, "-workers", "1")...)
	assert.Contains(t, table, "critical path of step 20")
	assert.Contains(t, table, "timings of the last 20 steps (the window)")
	assert.Contains(t, table, "owner in Wait")
	assert.Contains(t, table, "marker lifetime.respawn")
	assert.Contains(t, table, "counter lifetime.respawned")
	assert.Contains(t, table, "physics ")
	assert.Contains(t, table, fmt.Sprintf("\nhash %s\n", want))
}

// -trace writes the last step as Chrome trace JSON: one complete ("X")
// event per job slice, in a lane per participant, and flow events in
// start/finish pairs for the dependency edges.
func TestTrace(t *testing.T) {
	path := filepath.Join(t.TempDir(), "trace.json")
	m := runJSON(t, "-steps", "5", "-entities", "1000", "-workers", "1", "-batch", "128", "-trace", path)
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	var trace struct {
		TraceEvents []struct {
			Name string         `json:"name"`
			Ph   string         `json:"ph"`
			Cat  string         `json:"cat"`
			Ts   float64        `json:"ts"`
			Dur  *float64       `json:"dur"`
			Tid  int            `json:"tid"`
			ID   string         `json:"id"`
			Args map[string]any `json:"args"`
		} `json:"traceEvents"`
	}
	require.NoError(t, json.Unmarshal(raw, &trace), "valid JSON")
	count := map[string]int{}
	flows := map[string]string{}
	systems := map[string]bool{}
	for _, e := range trace.TraceEvents {
		count[e.Ph]++
		switch e.Ph {
		case "X":
			require.NotNil(t, e.Dur, e.Name)
			assert.GreaterOrEqual(t, *e.Dur, 0.0)
			count[e.Cat]++
			if e.Cat == "job" {
				systems[strings.SplitN(e.Name, ".", 2)[0]] = true
			}
		case "s", "f":
			flows[e.ID] += e.Ph
		case "M":
			assert.Equal(t, "thread_name", e.Name)
		}
	}
	last := m["last_step"].(map[string]any)
	assert.Equal(t, int(last["slices"].(float64)), count["job"], "one X event per job slice")
	assert.Equal(t, 1, count["step"], "the step's slice")
	assert.Positive(t, count["s"], "flow events for the dependency edges")
	assert.Equal(t, count["s"], count["f"])
	for id, ph := range flows {
		assert.Equal(t, "sf", ph, "flow %s", id)
	}
	assert.GreaterOrEqual(t, count["M"], 1, "a named lane per participant")
	for _, s := range []string{"lifetime", "seek", "physics", "landing", "anim", "sparks", "cull"} {
		assert.True(t, systems[s], s)
	}
}

func TestBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"-steps", "0"},
		{"-steps", "-3"},
		{"-steps", "x"},
		{"-steps", "5", "-entities", "-1"},
		{"-steps", "5", "-workers", "-2"},
		{"-steps", "5", "-workers", "257"}, // above engine.MaxWorkers
		{"-steps", "5", "-batch", "-1"},
		{"-steps", "5", "-nosuchflag"},
		{"-steps", "5", "extra"},
		{"-steps", "5", "-entities", "99999999999"}, // above game.MaxEntities: refused before any memory grows
		{"-steps", "1", "-trace", filepath.Join(t.TempDir(), "no", "dir.json")},
		{"-steps", "1", "-record", filepath.Join(t.TempDir(), "no", "run.weft")},
		{"-steps", "1", "-inspect", "2", "-json"},
		{"-steps", "1", "-inspect", "-2"},
	} {
		var out, errOut bytes.Buffer
		assert.Equal(t, 2, run(args, &out, &errOut), "%q", args)
		assert.True(t, strings.HasPrefix(errOut.String(), "headless: "), "%q: every message names the program: %s", args, errOut.String())
		assert.NotContains(t, errOut.String(), "window", "%q", args)
		assert.Contains(t, errOut.String(), "usage: headless", "%q", args)
		assert.Empty(t, out.String(), "%q", args)
	}
}

// Once warm, a step allocates (almost) nothing: measured 13.0 to 13.1 a
// step over the second half of 60 steps, while the world's, the
// timings' and the command buffers still grow (the recruiter's, every 30
// steps, among them). An allocation per chunk (7 chunks × 4 systems) or
// per entity fails the bound. The game's TestSteadyStateAllocs checks
// that a warm step allocates nothing.
func TestSteadyAllocs(t *testing.T) {
	m := runJSON(t, "-steps", "60", "-entities", "800", "-workers", "1", "-batch", "128")
	assert.Less(t, m["allocs_per_step"], 20.0)
}

// -frames is the old name of -steps: a frame is the window's, not a step.
func TestFramesAlias(t *testing.T) {
	assert.Equal(t, 3.0, runJSON(t, "-frames", "3", "-entities", "100")["steps"])
}

func TestHelp(t *testing.T) {
	var out, errOut bytes.Buffer
	assert.Equal(t, 0, run([]string{"-h"}, &out, &errOut))
	assert.Contains(t, errOut.String(), "-steps")
}

// A -trace file that cannot be written is refused when the program
// starts, not found after the run.
func TestTraceUnwritable(t *testing.T) {
	var out, errOut bytes.Buffer
	bad := filepath.Join(t.TempDir(), "no", "dir.json")
	assert.Equal(t, 2, run([]string{"-steps", "1", "-entities", "50", "-trace", bad}, &out, &errOut))
	assert.Contains(t, errOut.String(), "headless: -trace: folder "+filepath.Dir(bad))
	assert.Empty(t, out.String(), "nothing ran")
}

// -json writes a profile.Report with the machine, the GC and the lost
// and skipped counts; -compare prints two of them side by side, and a
// capture against itself differs by zero.
func TestCompareFiles(t *testing.T) {
	m := runJSON(t, "-steps", "10", "-entities", "500", "-workers", "1")
	for _, k := range []string{"format", "machine", "gc", "lost"} {
		assert.Contains(t, m, k)
	}
	assert.Equal(t, "weft-profile/1", m["format"])
	mach := m["machine"].(map[string]any)
	assert.Positive(t, mach["gomaxprocs"])
	assert.NotEmpty(t, mach["go_version"])
	for _, s := range m["systems"].([]any) {
		for _, k := range []string{"ran_steps", "skipped_steps", "failed_steps", "blocked_steps"} {
			assert.Contains(t, s, k)
		}
	}
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json")
	require.NoError(t, os.WriteFile(a, []byte(runOK(t, "-steps", "10", "-entities", "500", "-workers", "1", "-json")), 0o644))
	require.NoError(t, os.WriteFile(b, []byte(runOK(t, "-steps", "10", "-entities", "900", "-workers", "0", "-json")), 0o644))
	out := runOK(t, "-compare", a, b)
	assert.Contains(t, out, "a.json: 10 steps, 1 workers")
	assert.Contains(t, out, "b.json: 10 steps, 0 workers")
	assert.Regexp(t, `system physics +entities +\d+ +\d+ +-\d+`, out, "fewer bodies in a")
	assert.Contains(t, out, "counter lifetime.respawned")
	assert.Contains(t, out, "marker lifetime.respawn")
	same := strings.Split(strings.TrimSpace(runOK(t, "-compare", a, a)), "\n")
	for _, line := range same[4:] { // after the files, the note and the header
		f := strings.Fields(line)
		assert.Equal(t, "+0", f[len(f)-2], "nothing differs from itself: %s", line)
	}

	var errOut bytes.Buffer
	assert.Equal(t, 2, run([]string{"-compare", a}, &bytes.Buffer{}, &errOut))
	assert.Contains(t, errOut.String(), "-compare takes two files")
	errOut.Reset()
	require.NoError(t, os.WriteFile(b, []byte(`{"format":"other"}`), 0o644))
	assert.Equal(t, 1, run([]string{"-compare", a, b}, &bytes.Buffer{}, &errOut))
	assert.Contains(t, errOut.String(), "b.json")
}

// -inspect prints the entity after the run: its components with their
// values and the systems whose declared access reaches it; an ID no
// living entity has fails.
func TestInspect(t *testing.T) {
	out := runOK(t, "-steps", "3", "-entities", "100", "-workers", "0", "-inspect", "2")
	_, in, ok := strings.Cut(out, "\nentity 2 (generation 0)\n")
	require.True(t, ok, out)
	for _, want := range []string{
		"\n  Position {X:", "\n  Seeker {Target:{id:",
		"\nsystems that read or write it:\n",
		"\n  physics: writes Position, Velocity; reads Body\n",
		"\n  cull: reads Position, Sprite, Look",
	} {
		assert.Contains(t, "\n"+in, want)
	}
	var outBuf, errOut bytes.Buffer
	assert.Equal(t, 1, run([]string{"-steps", "1", "-entities", "10", "-inspect", "99999"}, &outBuf, &errOut))
	assert.Contains(t, errOut.String(), "-inspect 99999: no living entity has that ID")
}
