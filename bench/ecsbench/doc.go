// Package ecsbench runs the workloads of go-ecs-benchmarks
// (github.com/mlange-42/go-ecs-benchmarks, by Ark's author: the table Go
// game authors read when they choose an ECS) with weft beside the suite's
// candidates: Ark, Arche, Donburi, go-gameengine-ecs (ggecs), unitoftime/ecs
// (uot) and Volt.
//
// The suite is not served by the Go module proxy (403 for every version and
// pseudo-version tried), so its files are copied here from commit 119f2db
// (2026-05-24) under its MIT license (LICENSE.go-ecs-benchmarks): comps,
// util (its runner) and the workloads query2comp, query32arch (fragmented,
// inner), query256arch (fragmented, outer), random, create2comp,
// delete2comp, add_remove and new_world, each file as it is there except
// for the import path (github.com/mlange-42/go-ecs-benchmarks/bench/... is
// github.com/weft-engine/weft/bench/ecsbench/...). The candidates'
// modules are pinned to the versions of the suite's go.mod, except Ark
// (v0.8.3, weft's, where the suite has v0.8.0) and testify (v1.12.1, which
// the module graph selects).
//
// weft's side of each workload is its own file, weft.go in the workload's
// folder, and weftrun: a system written as docs/writing-a-system.md
// teaches, run by the engine's step (Engine.Tick), one or two steps an op,
// in four configurations (weftrun.Configs: the default engine.Config,
// checks off, and the serial executor with checks on and off). Set-up
// outside the timed region is the suite's for every candidate.
//
// Workloads lists them. BenchmarkSuite/<workload>/<candidate>/N=<n> is
// every candidate at the suite's N (1 to 1,000,000); each reports
// ns/entity as the suite's runner computes it. make bench-ecs (bench.sh)
// runs them through bench/cmd/benchrun, each configuration its own process
// over shuffled rounds, and cmd/ecstable prints the tables of
// docs/PERFORMANCE.md; cmd/suite runs them through the suite's own runner
// (util.RunBenchmarks: every candidate in one process). TestSameWork (part
// of make test's bench step) runs every candidate for three ops at small N:
// a candidate whose check fails (the suite's sums, weft's rows visited and
// entity counts) fails it.
package ecsbench
