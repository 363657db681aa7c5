package newworld

import (
	"github.com/weft-engine/weft/bench/ecsbench/util"
)

// Benchmarks runs the benchmarks.
func Benchmarks() util.Benchmarks {
	return util.Benchmarks{
		Benches: []util.Benchmark{
			{Name: "Arche", F: runArche},
			{Name: "Ark", F: runArk},
			{Name: "Donburi", F: runDonburi},
			{Name: "ggecs", F: runGGEcs},
			{Name: "uot", F: runUot},
			{Name: "Volt", F: runVolt},
		},
		N: []int{
			1,
		},
	}
}
