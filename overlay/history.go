package overlay

import (
	"slices"

	"github.com/weft-engine/weft/profile"
)

// graphSample is one step's bar in the graph and the frame line over it.
type graphSample struct {
	step, frame float32 // ms
	gc          float32 // ms of GC pauses in the step and since the previous one
	n           uint64  // the step's number; 0: no step yet
}

// history is the last graphLen steps: their bars and their timelines, in
// one ring. Executed only by Ebiten's game goroutine.
type history struct {
	graph [graphLen]graphSample
	tls   [graphLen]timeline
	head  int // the next slot
	scr   []float32
}

// record adds st, the step just run, with the last frame's time.
func (h *history) record(st *profile.StepTimings, frame float32) {
	h.graph[h.head] = graphSample{step: ms(st.Total), frame: frame, n: st.Step, gc: ms(st.GCTime + st.GCOutside)}
	h.tls[h.head].copyFrom(st)
	h.head = (h.head + 1) % graphLen
}

// at is bar col's sample and timeline (0 is the oldest).
func (h *history) at(col int) (*graphSample, *timeline) {
	i := (h.head + col) % graphLen
	return &h.graph[i], &h.tls[i]
}

// find is step n's timeline, or nil if the ring no longer holds it.
func (h *history) find(n uint64) *timeline {
	if col := h.col(n); col >= 0 {
		_, tl := h.at(col)
		return tl
	}
	return nil
}

// col is step n's bar, or -1.
func (h *history) col(n uint64) int {
	for c := range graphLen {
		if g, _ := h.at(c); g.n == n && n != 0 {
			return c
		}
	}
	return -1
}

// p95 is the 95th percentile of get over the ring's steps.
func (h *history) p95(get func(g *graphSample) float32) float32 {
	h.scr = h.scr[:0]
	for i := range h.graph {
		if h.graph[i].n != 0 {
			h.scr = append(h.scr, get(&h.graph[i]))
		}
	}
	if len(h.scr) == 0 {
		return 0
	}
	slices.Sort(h.scr)
	return h.scr[len(h.scr)*95/100]
}

// niceScale is the smallest of 1, 2.5 and 5 times a power of ten at or
// over top (ms), so that a graph's scale reads as a round number.
func niceScale(top float32) float32 {
	for s := float32(0.1); ; s *= 10 {
		for _, m := range [...]float32{1, 2.5, 5} {
			if top <= s*m {
				return s * m
			}
		}
	}
}
