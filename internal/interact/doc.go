// Package interact is the interaction scene: a seeded generator of games
// that use every authoring feature of weft at once, and a checker that runs
// each game against the serial executor, the oracle.
//
// A Game is plain data made from a seed (Generate): a world of a few
// hundred entities and a list of parts, each a system, an exclusive
// system or an observer of one kind (kinds.go) with small integer
// parameters: chunk writers, sparse writers watched by Changed and Added
// filters, emitters of two event types before and after their readers,
// enableable components switched from jobs, commands and the owner,
// relations and a hierarchy re-parented and despawned by subtrees,
// observers of components and events with commands of their own, a state
// with scoped entities, read and write lookups, placeholders, run
// conditions, sets, chained chunks and systems that fail in some steps.
// Between steps the owner sets a tracked resource and applies actions of
// its own (actions.go). Every part obeys weft's determinism rule, so every
// run of a game must give the same world after every step.
//
// Check (check.go) runs a game serially once, recording it, then on 0, 1,
// 2 and 4 workers with batches of 1, 64 and the adaptive batch. Each run
// also leaves the straight path (run.go): a snapshot restored, a rewind,
// a save loaded into the same engine and one loaded into an engine built
// afresh, each followed by the same steps again. After every step the
// world's hash, the step's errors and skipped commands must equal the
// serial run's, and no relation link may name a dead entity; the
// recording must verify on another worker count. A failing game is shrunk
// (shrink.go) to the fewest parts that still fail, and the failure names
// the seed and those parts, which `go test ./internal/interact -run
// TestScene -seed N -keep i,j,k` runs again.
//
// `make test` checks a fixed list of seeds (and FuzzScene fuzzes the seed
// in CI); `make soak` (cmd/soak) checks new seeds for as long as asked.
package interact
