package interact

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
)

// Oracle is the executor every other run is compared with: serial.
var Oracle = RunConfig{Workers: 0, Batch: 64}

// Configs are the executors a game runs on: 0, 1, 2 and 4 workers, each
// with batches of 1 and 64 rows and the adaptive batch.
var Configs = func() []RunConfig {
	var out []RunConfig
	for _, w := range []int{0, 1, 2, 4} {
		for _, b := range []int{1, 64, 0} {
			out = append(out, RunConfig{Workers: w, Batch: b})
		}
	}
	return out
}()

// Failure is a game that failed its check: the error, and the game shrunk
// to the fewest parts that still fail.
type Failure struct {
	Seed    uint64
	Err     error
	Game    *Game // the shrunk game
	Initial int   // parts before shrinking
}

func (f *Failure) Error() string {
	keep := []string{"none"} // no part: the world and the owner's actions alone fail
	if len(f.Game.Parts) > 0 {
		keep = keep[:0]
	}
	for _, i := range f.Game.Indexes() {
		keep = append(keep, fmt.Sprint(i))
	}
	entities := ""
	if n := f.Game.Entities; n != Generate(f.Seed).Entities {
		entities = fmt.Sprintf(" -entities %d", n)
	}
	return fmt.Sprintf("interaction scene, seed %d: %v\nshrunk from %d parts to %d:\n%s\nreproduce: go test ./internal/interact -run 'TestScene$' -seed %d%s -keep %s",
		f.Seed, f.Err, f.Initial, len(f.Game.Parts), f.Game, f.Seed, entities, strings.Join(keep, ","))
}

// Check runs g against the oracle on every executor of configs (Configs
// when nil): the serial run recorded, its recording verified on 2 workers
// with the adaptive batch, and each executor with every detour of g.Plan.
// It returns the first failure, not shrunk.
func Check(g *Game, configs []RunConfig) error {
	if configs == nil {
		configs = Configs
	}
	var file bytes.Buffer
	want, err := straight(g, Oracle, &file, true)
	if err != nil {
		return fmt.Errorf("the serial run: %w", err)
	}
	if err := verify(g, RunConfig{Workers: 2}, file.Bytes()); err != nil {
		return err
	}
	for _, cfg := range configs {
		if err := detours(g, cfg, want); err != nil {
			return fmt.Errorf("%v: %w", cfg, err)
		}
	}
	return nil
}

// CheckSeed checks the game of seed, shrinking it on a failure, which it
// returns as a *Failure. keep, when not nil, keeps only those parts.
func CheckSeed(seed uint64, keep []int, configs []RunConfig) error {
	g := Generate(seed)
	if keep != nil {
		g = g.Keep(keep)
	}
	return checkShrunk(g, configs)
}

// CheckGame checks g on every executor, shrinking it on a failure, which
// it returns as a *Failure.
func CheckGame(g *Game) error { return checkShrunk(g, nil) }

func checkShrunk(g *Game, configs []RunConfig) error {
	err := Check(g, configs)
	if err == nil {
		return nil
	}
	f := &Failure{Seed: g.Seed, Err: err, Game: g, Initial: len(g.Parts)}
	f.Game, f.Err = shrink(g, err, configs)
	return f
}

// shrink removes parts of g, one at a time, while the check still fails
// in the same way (a failed build stays a failed build, a run that
// differs stays one), until no single part can go.
func shrink(g *Game, err error, configs []RunConfig) (*Game, error) {
	build := isBuild(err)
	for changed := true; changed; {
		changed = false
		for _, i := range g.Indexes() {
			keep := slices.DeleteFunc(g.Indexes(), func(k int) bool { return k == i })
			h := g.Keep(keep)
			if e := Check(h, configs); e != nil && isBuild(e) == build {
				g, err, changed = h, e, true
			}
		}
	}
	return g, err
}

func isBuild(err error) bool { return strings.Contains(err.Error(), "build: ") }
