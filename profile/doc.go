// Package profile turns the engine's step records into timings, a
// rolling window of them, their distributions, text tables, Chrome
// traces, captures saved to files and comparisons of two steps or two
// captures.
//
// # Model
//
// The engine measures and does not summarise: after every fixed step it
// hands its observers an engine.StepRecord, plain data on one clock (the
// owner's phases with their start and end, the pool's job trace with each
// job's system and rows, the systems' outcomes, the markers' spans, the
// counters' totals, the GC pauses). Everything here is computed from
// those records, so the engine never imports this package and a game
// that does not profile pays only for the record.
//
//   - Profiler (New) observes an engine and keeps the last Options.Window
//     steps as StepTimings: one step's values, selectable by position
//     (At) or step number (Find); Summary gives each figure's
//     distribution over the window (the median is Stat.P50); WriteTable
//     prints both for a terminal. The last Options.Detail steps keep
//     their detail (timeline, phases, marker spans, GC pauses); older ones
//     their figures only. GC sums the pauses of a span of the engine's
//     clock, such as a frame.
//   - StepTimings puts a step on one axis, from its start (0) to its end
//     (Total): the owner's phases (run conditions, Schedule, Wait,
//     playback, Merge, snapshot), the gaps between them with their cause
//     (GC, owner not running), every job slice with its system and rows,
//     the markers' spans and the GC pauses. The critical path and the
//     predictions for other pool sizes come from the job graph
//     (jobs.Graph).
//   - Trace gathers steps' records into one Chrome trace file.
//   - Report is a capture of the window as a documented JSON value (what
//     `go run ./demo/headless -json` prints), with the machine it ran on;
//     Compare sets two steps or two reports side by side per figure:
//     value, the other's, the difference.
//
// Every method is executed only by the engine's owner, between steps,
// unless its comment says otherwise.
package profile
