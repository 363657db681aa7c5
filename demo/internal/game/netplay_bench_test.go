package game_test

import (
	"testing"

	"github.com/weft-engine/weft/demo/internal/game"
	"github.com/weft-engine/weft/ecs"
)

// The figures of docs/PERFORMANCE.md's netplay section, at the scale the
// netplay demo runs (2,000 bodies, the default workers): a rollback of 8
// steps (Engine.Rewind, then 8 steps each with its world digest, as a
// session runs them), and a step with and without a snapshot kept after
// it (the per-step cost of rollback, which Config.Sparse saves).

func benchGame(b *testing.B, keep int) *game.Game { return benchGameOn(b, keep, game.DefaultWorkers()) }

func benchGameOn(b *testing.B, keep, workers int) *game.Game {
	g, err := game.New(game.Config{Entities: 2000, Workers: workers, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { g.Close() })
	e := g.Engine()
	if err := e.SetDigests(ecs.DigestOn); err != nil {
		b.Fatal(err)
	}
	if err := e.SetRewind(keep, 1); err != nil {
		b.Fatal(err)
	}
	for range 120 { // warm: the pool's buffers, the adaptive batch
		if err := g.Tick(); err != nil {
			b.Fatal(err)
		}
	}
	return g
}

func stepDigest(b *testing.B, g *game.Game) {
	if err := g.Tick(); err != nil {
		b.Fatal(err)
	}
	if _, err := g.Digest(); err != nil {
		b.Fatal(err)
	}
}

func BenchmarkNetplayRollback8(b *testing.B) { rollback8(b, benchGame(b, 10)) }

// The same on the serial executor.
func BenchmarkNetplayRollback8Serial(b *testing.B) { rollback8(b, benchGameOn(b, 10, 0)) }

func rollback8(b *testing.B, g *game.Game) {
	for b.Loop() {
		if _, err := g.Engine().Rewind(8); err != nil {
			b.Fatal(err)
		}
		for range 8 {
			stepDigest(b, g)
		}
	}
}

func BenchmarkNetplayStepSnapshot(b *testing.B) {
	g := benchGame(b, 10)
	for b.Loop() {
		stepDigest(b, g)
	}
}

func BenchmarkNetplayStepNoSnapshot(b *testing.B) {
	g := benchGame(b, 0)
	for b.Loop() {
		stepDigest(b, g)
	}
}

// The rollback without the world digest after each step: what a session
// runs when it neither logs nor checks the steps (Config.Log off, the
// step not a check step).
func BenchmarkNetplayRollback8NoHash(b *testing.B) {
	g := benchGame(b, 10)
	for b.Loop() {
		if _, err := g.Engine().Rewind(8); err != nil {
			b.Fatal(err)
		}
		for range 8 {
			if err := g.Tick(); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// The rollback as a session runs it between check steps without a log
// (Config.Log off): digests off, no world digest.
func BenchmarkNetplayRollback8Plain(b *testing.B) {
	g := benchGame(b, 10)
	if err := g.Engine().SetDigests(ecs.DigestOff); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := g.Engine().Rewind(8); err != nil {
			b.Fatal(err)
		}
		for range 8 {
			if err := g.Tick(); err != nil {
				b.Fatal(err)
			}
		}
	}
}
