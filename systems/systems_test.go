package systems_test

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/engine"
	"github.com/weft-engine/weft/safety"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// steps is the length of the determinism runs: 600 fixed steps, fewer
// under -race or -short so that the package stays well under a minute.
func steps() int {
	switch {
	case raceOn:
		return 12
	case testing.Short():
		return 60
	}
	return 600
}

// raced says which runs of TestDeterminism's matrix also run under -race:
// two parallel ones, so that the race detector watches parallel steps with
// and without checks. Every run is checked without -race (make test runs
// this package a second time without it, for this test and TestStepAllocs).
func raced(workers, batch int, checks bool) bool {
	return workers == 2 && batch == 64 && checks || workers == 4 && batch == 1024 && !checks
}

// Every worker count, both batch sizes, the adaptive batch and checks on
// and off give the same world, bit for bit, as the serial executor, with
// spawn/despawn churn and one-shot tweens removed by commands.
func TestDeterminism(t *testing.T) {
	n := steps()
	run := func(t *testing.T, cfg engine.Config, change func(s *scene, step int)) uint64 {
		s := newScene(t, 20000, cfg, true)
		problems := 0 // commands on bodies that churn despawned first: reported, skipped
		for i := range n {
			if change != nil {
				change(s, i)
			}
			require.NoError(t, s.eng.Tick())
			problems += s.prof.Last().Problems
		}
		return s.hash(t) ^ uint64(problems)<<48
	}
	want := run(t, engine.Config{Serial: true, Batch: 64}, nil)
	for _, w := range []int{0, 1, 2, 4} {
		for _, batch := range []int{64, 1024} {
			for _, checks := range []bool{true, false} {
				cfg := engine.Config{Workers: w, Serial: w == 0, Batch: batch, NoChecks: !checks}
				t.Run(fmt.Sprintf("W%d/batch%d/checks=%v", w, batch, checks), func(t *testing.T) {
					if raceOn && !raced(w, batch, checks) {
						t.Skip("under -race only the raced runs; the run without -race checks this one")
					}
					t.Parallel() // two at a time (GOMAXPROCS): the serial runs use one core each
					assert.Equal(t, want, run(t, cfg, nil))
				})
			}
		}
	}
	// Settings changed between steps, without rebuilding, change nothing.
	t.Run("switching", func(t *testing.T) {
		t.Parallel()
		got := run(t, engine.Config{Workers: 2, Batch: 64}, func(s *scene, i int) {
			require.NoError(t, s.eng.SetWorkers([]int{2, 0, 4, 1}[i%4]))
			require.NoError(t, s.eng.SetBatch([]int{64, 1024, 100}[i%3]))
			s.eng.SetChecks(i%2 == 0)
		})
		assert.Equal(t, want, got)
	})
	// The adaptive batch (Batch 0) picks its size from measured job times,
	// so it may differ run to run; the world may not. The batch is set to
	// 100 for one step in three, so that the run sees at least two sizes.
	t.Run("adaptive", func(t *testing.T) {
		t.Parallel()
		got := run(t, engine.Config{Workers: 1}, func(s *scene, i int) {
			b := 0
			if i%3 == 1 {
				b = 100
			}
			require.NoError(t, s.eng.SetBatch(b))
		})
		assert.Equal(t, want, got)
	})
}

func allowlist(t *testing.T) safety.Allowlist {
	f, err := os.Open(filepath.Join("testdata", "allowlist.txt"))
	require.NoError(t, err)
	defer f.Close()
	a, err := safety.ParseAllowlist(f)
	require.NoError(t, err)
	return a
}

// The built-in schedule has no ambiguity that testdata/allowlist.txt does
// not accept, and the allowlist names no pair that is gone.
func TestAmbiguitiesAllowlisted(t *testing.T) {
	allow := allowlist(t)
	s := newScene(t, 100, engine.Config{Serial: true, Allowlist: allow}, false)
	seen := map[string]bool{}
	for _, a := range s.eng.Explain().Ambiguities {
		assert.True(t, a.Allowed, "%s: %s then %s on %s", a.ID, a.First, a.Second, a.Key)
		seen[a.ID] = true
	}
	for id := range allow {
		assert.True(t, seen[id], "allowlist entry %s matches no ambiguity; remove it", id)
	}
}

// Explain's text, DOT and JSON forms match testdata; go test -update
// rewrites them.
func TestExplainGolden(t *testing.T) {
	s := newScene(t, 100, engine.Config{Serial: true}, false)
	x := s.eng.Explain()
	for _, f := range []struct {
		name  string
		write func(*bytes.Buffer) error
	}{
		{"explain.txt", func(b *bytes.Buffer) error { return x.WriteText(b) }},
		{"explain.dot", func(b *bytes.Buffer) error { return x.WriteDOT(b) }},
		{"explain.json", func(b *bytes.Buffer) error { return x.WriteJSON(b) }},
	} {
		var b bytes.Buffer
		require.NoError(t, f.write(&b))
		path := filepath.Join("testdata", f.name)
		if *update {
			require.NoError(t, os.WriteFile(path, b.Bytes(), 0o644))
		}
		want, err := os.ReadFile(path)
		require.NoError(t, err, "run go test -update once to create %s", path)
		assert.Equal(t, string(want), b.String(), f.name)
	}
}

// A whole step of the three systems at 20,000 entities allocates nothing
// once warm, serial and parallel.
func TestStepAllocs(t *testing.T) {
	if raceOn {
		t.Skip("the race detector allocates")
	}
	for _, w := range []int{0, 2} {
		s := newScene(t, 20000, engine.Config{Workers: w, Serial: w == 0, Batch: 256}, false)
		for range 200 { // one-shot tweens end within 2 s: their removal reshapes tables
			require.NoError(t, s.eng.Tick())
		}
		allocs := testing.AllocsPerRun(50, func() {
			if err := s.eng.Tick(); err != nil {
				t.Fatal(err)
			}
		})
		assert.Zero(t, allocs, "W%d", w)
	}
}

// Disabling a system skips its jobs; enabling it again resumes them, and
// the timings follow.
func TestEnableDisable(t *testing.T) {
	s := newScene(t, 1000, engine.Config{Workers: 1}, false)
	require.NoError(t, s.eng.Tick())
	require.NotEmpty(t, s.eng.Snapshot().Items)
	require.NoError(t, s.eng.Enable("cull", false))
	require.NoError(t, s.eng.Tick())
	assert.Empty(t, s.eng.Snapshot().Items)
	assert.False(t, s.prof.Last().System("cull").Ran)
	assert.Zero(t, s.prof.Last().System("cull").Jobs)
	require.NoError(t, s.eng.Enable("cull", true))
	require.NoError(t, s.eng.Tick())
	assert.NotEmpty(t, s.eng.Snapshot().Items)
	assert.ErrorIs(t, s.eng.Enable("nope", true), engine.ErrUnknown)
}

// The draw list is ordered by (layer, sort key, entity) and holds only
// what the camera sees.
func TestDrawListOrder(t *testing.T) {
	s := newScene(t, 5000, engine.Config{Workers: 2, Batch: 64}, false)
	*s.eng.Camera() = engine.Camera{X: 100, Y: 100, W: 200, H: 100, Zoom: 2}
	require.NoError(t, s.eng.Tick())
	items := s.eng.Snapshot().Items
	require.NotEmpty(t, items)
	minX, minY, maxX, maxY := s.eng.Camera().Rect()
	for i, it := range items {
		r := 4.0
		assert.True(t, it.X > minX-r && it.X < maxX+r && it.Y > minY-r && it.Y < maxY+r, "item %d outside the camera", i)
		if i > 0 {
			p := items[i-1]
			assert.True(t, p.Layer < it.Layer || p.Layer == it.Layer && (p.Sort < it.Sort || p.Sort == it.Sort && p.Entity < it.Entity), "item %d out of order", i)
		}
	}
	assert.Equal(t, len(items), s.cull.Visible)
}
