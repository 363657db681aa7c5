// Package engine builds systems into a validated schedule, runs each fixed
// step as one job graph on its own pool, and publishes a render snapshot
// and the step's record (StepRecord: plain data that package profile
// summarises).
//
// One goroutine, the owner, calls New, Add, Build and Step (in a game,
// Ebiten's Update and Draw goroutine); every Engine, System, Merger and
// Exclusive method is executed only by it. The pool's workers run only
// jobs: the bodies of passes (Builder.Chunks and Builder.Range, each on
// its own chunk or range; Builder.ChunksInOrder, one job over every
// chunk), and the owner runs jobs too while it waits. Any other goroutine
// is a guest: it may read what the owner hands it once the owner is done
// with it, calls no Engine method and does not read the Snapshot while
// the owner steps.
//
// Step runs whole fixed steps from the real time it is given. Each applies
// the states' requested transitions and evaluates the run conditions once;
// then, per segment that exclusive systems cut: the exclusives run on the
// owner, the world's structure is locked, each Schedule turns passes into
// jobs after those its declared access must follow, the owner waits for
// them while helping, commands play back with their observers, and Merge
// meets the per-chunk outputs in built order. Results meet only on the
// owner in a fixed order, so a step's result is the same for every worker
// count and batch size. Misuse is an *Error with a WEFT-G code
// (docs/errors.md); a failing system fails only its part.
// docs/ARCHITECTURE.md ("engine: systems into a step") has each part.
package engine
