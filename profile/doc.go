// Package profile turns the engine's step records into timings: a rolling
// window of them, their distributions, text tables, Chrome traces,
// captures saved to files and comparisons of two steps or two captures.
//
// The engine measures and does not summarise: after every fixed step it
// hands its observers an engine.StepRecord, plain data on one clock.
// Everything here is computed from those records, so the engine never
// imports this package and a game that does not profile pays only for the
// record. A Profiler (New) keeps the last Options.Window steps as
// StepTimings, found by position (At) or step number (Find): a step on its
// own axis from its start (0) to its end (Total), with the owner's phases
// (run conditions, Schedule, Wait, playback, Merge, snapshot), the gaps
// between them with their cause (GC, owner not running), every job slice
// with its system and rows, the markers' spans, the GC pauses, the
// critical path and the predictions for other pool sizes (jobs.Graph).
// Only the last Options.Detail steps keep their detail; older ones keep
// their figures. Summary gives each figure's distribution (the median is
// Stat.P50), WriteTable prints it, Trace writes a Chrome trace, Report is
// a capture of the window as a documented JSON value with the machine it
// ran on (what `go run ./demo/headless -json` prints), and Compare sets two
// steps or two reports side by side: value, the other's, the difference.
//
// Every method is executed only by the engine's owner, between steps,
// unless its comment says otherwise.
package profile
