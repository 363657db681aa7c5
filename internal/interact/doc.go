// Package interact is the interaction scene: seeded games that use every
// authoring feature at once, each checked against the serial executor.
//
// A Game (game.go) is plain data made from a seed: a world of a few hundred
// entities and parts, each a system, exclusive system or observer of one
// kind (kinds.go) with small integer parameters, under run conditions and
// sets. The kinds cover chunk writers, Changed and Added filters, events
// emitted before and after their readers, enableable components switched by
// jobs, commands and the owner, relations re-targeted and subtrees
// despawned, observers with commands of their own, a state with scoped
// entities, lookups, placeholders, reductions, Range passes, chained chunks
// and parts that fail in some steps. Between steps the owner sets a tracked
// resource and acts (actions.go). Every kind obeys the determinism rule, so
// every run of a game gives the same world after every step.
//
// Check (check.go) runs a game serially, recording it, replays the
// recording on 2 workers, then runs it on 0, 1, 2 and 4 workers with
// batches of 1, 64 and adaptive, each run also restoring a snapshot,
// rewinding, and loading a save into the same and a fresh engine (run.go).
// Every step's world hash, errors and skipped commands must equal the
// serial run's, and no relation link may name a dead entity. A failing game
// is shrunk to the fewest parts that still fail; the failure names the
// command that runs it again. `make test` checks a fixed list of seeds,
// FuzzScene fuzzes the seed in CI, `make soak` (cmd/soak) runs new seeds.
package interact
