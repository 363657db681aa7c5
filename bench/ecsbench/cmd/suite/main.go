// Command suite is go-ecs-benchmarks' own runner (its main.go and
// bench.Run, with util.RunBenchmarks as the suite has it) over
// bench/ecsbench's workloads, weft's candidates included: every candidate
// and N of the named workloads (all without arguments) in this one
// process, count times each, printing ns per entity as it goes and writing
// results/<workload>.csv, as the suite does.
//
//	go run ./ecsbench/cmd/suite -count 1 query2comp random
//
// docs/PERFORMANCE.md's figures come from make bench-ecs instead, which
// runs each candidate and N as its own process over shuffled rounds.
package main

import (
	"flag"
	"log"
	"os"
	"slices"
	"testing"

	"github.com/weft-engine/weft/bench/ecsbench"
	"github.com/weft-engine/weft/bench/ecsbench/util"
)

func main() {
	testing.Init()
	count := flag.Int("count", 1, "number of times to run the benchmark")
	flag.Parse()
	if err := os.Mkdir("results", os.ModePerm); err != nil && !os.IsExist(err) {
		log.Fatal(err)
	}
	ws := ecsbench.Workloads()
	for _, name := range flag.Args() {
		if !slices.ContainsFunc(ws, func(w ecsbench.Workload) bool { return w.Name == name }) {
			log.Fatalf("benchmark %s not found", name)
		}
	}
	for _, w := range ws {
		if flag.NArg() == 0 || slices.Contains(flag.Args(), w.Name) {
			util.RunBenchmarks(w.Name, w.Benchmarks, *count, util.ToCSV)
		}
	}
}
