package main

import (
	"fmt"

	"github.com/weft-engine/weft/demo/internal/game"
	"github.com/weft-engine/weft/profile"
)

// report is the -json output: the profiler's capture of the run's steps
// (profile.Report, whose fields it carries at its top level) and the
// demo's own figures.
type report struct {
	profile.Report
	Steps    int  `json:"steps"`    // fixed steps run
	Entities int  `json:"entities"` // alive at the end
	Visible  int  `json:"visible"`
	Checks   bool `json:"checks"`
	// Heap allocations per step over the run's second half, once most
	// buffers have grown: a few, then 0 in steady state.
	AllocsPerStep float64 `json:"allocs_per_step"`
	Hash          string  `json:"hash"` // hex, 64 bits
}

func newReport(o options, g *game.Game, allocs float64, hash uint64) *report {
	return &report{Report: *g.Profile().Report(), Steps: o.steps, Entities: g.Len(), Visible: g.Visible(), Checks: g.Engine().Checks(),
		AllocsPerStep: allocs, Hash: fmt.Sprintf("%016x", hash)}
}
