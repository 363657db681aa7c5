package ecsbench

import (
	addremove "github.com/weft-engine/weft/bench/ecsbench/add_remove"
	"github.com/weft-engine/weft/bench/ecsbench/create2comp"
	"github.com/weft-engine/weft/bench/ecsbench/delete2comp"
	newworld "github.com/weft-engine/weft/bench/ecsbench/new_world"
	"github.com/weft-engine/weft/bench/ecsbench/query256arch"
	"github.com/weft-engine/weft/bench/ecsbench/query2comp"
	"github.com/weft-engine/weft/bench/ecsbench/query32arch"
	"github.com/weft-engine/weft/bench/ecsbench/random"
	"github.com/weft-engine/weft/bench/ecsbench/util"
)

// Workload is one of the suite's benchmarks (its name in the suite's
// bench/run.go) with weft's candidates added.
type Workload struct {
	Name string
	util.Benchmarks
}

// Workloads are the suite's workloads that bench/ecsbench runs, each with
// weft's candidates after the suite's, in the suite's order.
func Workloads() []Workload {
	ws := []struct {
		name  string
		suite func() util.Benchmarks
		weft  func() []util.Benchmark
	}{
		{"query2comp", query2comp.Benchmarks, query2comp.Weft},
		{"query32arch", query32arch.Benchmarks, query32arch.Weft},
		{"query256arch", query256arch.Benchmarks, query256arch.Weft},
		{"random", random.Benchmarks, random.Weft},
		{"create2comp", create2comp.Benchmarks, create2comp.Weft},
		{"delete2comp", delete2comp.Benchmarks, delete2comp.Weft},
		{"add_remove", addremove.Benchmarks, addremove.Weft},
		{"new_world", newworld.Benchmarks, newworld.Weft},
	}
	out := make([]Workload, len(ws))
	for i, w := range ws {
		bs := w.suite()
		bs.Benches = append(bs.Benches, w.weft()...)
		out[i] = Workload{w.name, bs}
	}
	return out
}
