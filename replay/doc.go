// Package replay records a game's steps and plays them back bit for bit,
// and finds where two runs first differ.
//
// # The model
//
// weft's steps are deterministic: the serial executor is the oracle and
// every worker count and batch size gives its result, provided each
// system's writes depend only on what it reads (docs/guide/12-determinism.md).
// So a run is fixed by what enters its steps from outside the systems, and a recording keeps only that, as lockstep games keep
// inputs rather than states: per fixed step, the engine's Input and
// Camera, the resources the owner sets between steps (Track), the
// owner's actions (Recorder.Do: commands the game applies between steps,
// carried out again by Sim.Do), and the frame's real time; once, the
// game's Meta (its seed and scene). With them it keeps what each step
// left: the world's digest (Sim.Digest) and a digest per system of what
// it wrote (engine.Engine.Digests: its written columns, write lookups,
// written resources and commands; an exclusive system's, the whole
// world), so that a replay that differs says where.
//
// # Record, play, find
//
// A game is a Sim. NewRecorder makes itself the engine's step hook and
// writes one Step per fixed step to a versioned file (a CBOR sequence,
// each item with a CRC-32). Read reads it back; a NewPlayer plays it into
// a game made from its Meta, on any worker count and batch size, setting
// each step's inputs and checking its digests: the first step that
// differs is a WEFT-R004 error with a Divergence naming the step and the
// first system, in built order, whose writes differ. Find plays a
// recording into two games side by side with every written row kept and
// also names the first entity and component, with both values.
//
// # Who calls what
//
// Every function and method is executed only by the engine's owner,
// between steps; the recorder's hook methods run inside a step, on the
// owner.
package replay
