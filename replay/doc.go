// Package replay records a game's steps and plays them back bit for bit,
// and finds where two runs first differ.
//
// weft's steps are deterministic provided each system's writes depend only
// on what it reads (docs/guide/12-determinism.md), so a run is fixed by
// what enters its steps from outside the systems, and a recording keeps
// only that, as lockstep games keep inputs rather than states: per fixed
// step, the engine's Input and Camera, the resources the owner sets
// between steps (Track), the owner's actions (Recorder.Do, carried out
// again by Sim.Do) and the frame's real time; once, the game's Meta (its
// seed and scene). With them it keeps what each step left: the world's
// digest (Sim.Digest) and each system's digest of its writes
// (engine.Engine.Digests), so that a replay that differs says where.
//
// A game is a Sim. NewRecorder makes itself the engine's step hook and
// writes one Step per fixed step to a versioned file (a CBOR sequence, each
// item with a CRC-32); Read reads it back; a NewPlayer plays it into a game
// made from its Meta on any worker count and batch size, checking each
// step's digests: the first step that differs is a WEFT-R004 error with a
// Divergence naming it and the first system, in built order, whose writes
// differ. Find plays a recording into two games side by side and also
// names the first entity and component, with both values. Every function
// is executed only by the engine's owner, between steps; the recorder's
// hook methods run inside a step, on the owner.
package replay
