package engine_test

// The second system of the tutorial (docs/writing-a-system.md), and the
// tutorial as one program: TestGuide checks that its Go blocks appear in
// guide*_test.go verbatim, and TestTutorialProgram builds and runs them.

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
)

// Shrink draws an entity smaller as its Lifetime runs out.
type Shrink struct {
	life ecs.Reader[Lifetime]
	size ecs.Writer[Size]
	pass *engine.Pass
}

func (s *Shrink) Name() string { return "shrink" }

func (s *Shrink) Build(b *engine.Builder) error {
	d := b.Decl()
	s.life = ecs.Read[Lifetime](d) // what Expire writes
	s.size = ecs.Write[Size](d)
	s.pass = b.Chunks("shrink", ecs.NewQuery2(d, s.life, s.size), s.shrink)
	return nil
}

func (s *Shrink) Schedule(f *engine.Frame) error { return f.Run(s.pass) }

// shrink runs in a job: full size with 3 seconds or more left, none at 0.
func (s *Shrink) shrink(c *ecs.Chunk) {
	life, size := s.life.Column(c), s.size.Column(c)
	for i := range life {
		size[i].R = max(0, min(1, life[i].Left/3))
	}
}

// spawnGame makes a world with n entities that live 0, 1, 2 or 3 seconds
// and have a Size.
func spawnGame(n int) *ecs.World {
	w := ecs.NewWorld(ecs.Options{})
	lives, sizes := ecs.NewComponent[Lifetime](w), ecs.NewComponent[Size](w)
	setup := w.NewCommands()
	for i := range n {
		e := setup.Spawn()
		lives.Add(setup, e, Lifetime{Left: float64(i % 4)})
		sizes.Add(setup, e, Size{R: 1})
	}
	if _, err := w.Apply(setup); err != nil {
		panic(err)
	}
	return w
}

func Example_twoSystems() {
	eng, err := engine.New(spawnGame(1000), engine.Config{Workers: 2, Batch: 128, FixedStep: time.Second})
	if err != nil {
		panic(err)
	}
	defer eng.Close()
	if err := eng.Add(engine.Update, &Expire{}); err != nil {
		panic(err)
	}
	if err := eng.Add(engine.Update, &Shrink{}, engine.After("expire")); err != nil {
		panic(err)
	}
	if err := eng.Build(); err != nil {
		panic(err)
	}
	fmt.Print(eng.Explain())
	// Output:
	// systems (execution order):
	//   1. expire [Update commands] writes Lifetime; reads resource Time;
	//   2. shrink [Update] writes Size; reads Lifetime;
	// edges:
	//   expire -> shrink
	//       order: shrink is After expire
	//       conflict: expire writes Lifetime, shrink reads it (explicit order)
	//   expire -> (end of step)
	//       sync: expire records commands; they play back at the end of the step, in (system, query, chunk, sequence) order, before merges
	// ambiguities: none
}

// The tutorial's Go blocks, in order, are one program that builds and
// runs as the tutorial says: it is written, through go build's -overlay,
// as a package of this module that exists only for the build.
func TestTutorialProgram(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a program")
	}
	raw, err := os.ReadFile("../docs/writing-a-system.md")
	require.NoError(t, err)
	var head, body []string
	for _, b := range goBlock.FindAllStringSubmatch(string(raw), -1) {
		if strings.HasPrefix(b[1], "package main\n") {
			head = append(head, b[1])
		} else {
			body = append(body, b[1])
		}
	}
	require.Len(t, head, 1, "the tutorial shows its program's package clause and imports in one block")
	dir := t.TempDir()
	src := filepath.Join(dir, "main.go")
	require.NoError(t, os.WriteFile(src, []byte(strings.Join(append(head, body...), "\n\n")+"\n"), 0o644))
	root, err := filepath.Abs("..")
	require.NoError(t, err)
	ov, err := json.Marshal(map[string]map[string]string{"Replace": {filepath.Join(root, "engine", "internal", "tutorial", "main.go"): src}})
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "overlay.json"), ov, 0o644))
	bin := filepath.Join(dir, "game")
	build := exec.Command("go", "build", "-overlay", filepath.Join(dir, "overlay.json"), "-o", bin, "./engine/internal/tutorial")
	build.Dir = root
	out, err := build.CombinedOutput()
	require.NoError(t, err, "the tutorial's program does not build:\n%s", out)
	out, err = exec.Command(bin).CombinedOutput()
	require.NoError(t, err, "the tutorial's program fails:\n%s", out)
	assert.Contains(t, string(out), "5000 entities left\n", "the tutorial says what go run prints")
	for _, name := range []string{"countdown.loop", "countdown.expired", "shrink "} {
		assert.Contains(t, string(out), name, "the table shows %s", name)
	}
}
