// Package netplay plays one weft game on 2 to 4 machines, peer to peer,
// with spectators: GGPO's rollback over weft's determinism.
//
// Inputs are data: the game declares its input type I (fixed-size plain
// data) and adds an Inputs[I] resource to its world, which its systems
// read; nothing else from outside may steer a step. Each Update, a Session
// reads the transport, sends every peer its own inputs not yet
// acknowledged (a lost packet costs nothing once a later one arrives) and
// runs the steps the clock says are due, a remote player's input predicted
// (its last one again, or Config.Predict) until it arrives. When one
// arrives that differs from its prediction, the session rewinds the engine
// to that step (Engine.Rewind, or one snapshot of the last confirmed step
// with Config.Sparse) and runs the steps again, within the same Update.
// It runs at most Window steps past the last step whose inputs are all
// known; time sync leaves a step out now and then on the peer that runs
// ahead. A step whose inputs are all known and that ran with them is
// confirmed: its world digest is logged, and every DigestEvery-th is
// compared with the peers', a difference searched down to the system, the
// entity and the component (desync.go). Events tell the game of players
// joining, leaving, timing out, of desyncs and of the session's end.
//
// Time comes only from a Clock, and packets only from a Transport: UDP, or
// a SimNet whose seeded link delays, drops, duplicates and reorders on a
// ManualClock, so that tests are the same on every run. A Reader refuses
// malformed, forged, replayed and far-future packets with typed errors
// and counts them. SyncTest runs a game alone, each step twice, and names
// the first system that is not deterministic. Every function is executed
// only by the game's owner goroutine, between steps.
package netplay
