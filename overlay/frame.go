package overlay

import (
	"math"
	"runtime/metrics"
	"slices"
	"time"
)

// A frame is what happens between two Draws of the overlay: the fixed
// steps the game ran (the engine's time), the overlay's own drawing, GC
// pauses, and the rest: the game's own Update and Draw, Ebiten presenting
// the frame and waiting for the next tick or vsync. A step is one fixed
// engine step: "step" and "frame" are never the same number.

// frameSample is one frame's breakdown, in milliseconds.
type frameSample struct {
	frame, steps, overlay, gc float32
	pauses                    uint64 // GC pauses in the frame
}

// rest is the frame less the measured parts: the game's own work,
// presenting and waiting.
func (s *frameSample) rest() float32 {
	return max(0, s.frame-s.steps-s.overlay-s.gc)
}

// frameWindow is how many frames the breakdown's medians cover.
const frameWindow = 120

// frames measures frames and memory. Executed only by Ebiten's game
// goroutine.
type frames struct {
	cur, last frameSample // the frame being measured, the last complete one
	ring      [frameWindow]frameSample
	n, next   int
	start     time.Time // of the frame being measured: its Draw's start
	med       frameSample
	scr       []float32
	mem       memory
}

// begin ends the frame that began at the previous Draw and starts a new
// one: called first thing in Draw.
func (f *frames) begin(now time.Time) {
	n0 := f.mem.pauses
	gc := float32(f.mem.read() * 1e3)
	f.cur.gc, f.cur.pauses = gc, f.mem.pauses-n0
	if !f.start.IsZero() {
		f.cur.frame = ms(now.Sub(f.start))
		f.last = f.cur
		f.ring[f.next] = f.cur
		f.next, f.n = (f.next+1)%frameWindow, min(f.n+1, frameWindow)
	}
	f.start = now
	f.cur = frameSample{}
}

// addOverlay sets the frame's overlay time: since start.
func (f *frames) addOverlay(start time.Time) { f.cur.overlay = ms(time.Since(start)) }

// window is the GC time and pauses summed over the window's frames: a
// median of mostly zeros would hide them.
func (f *frames) window() (gc float32, pauses uint64) {
	for i := range f.n {
		gc, pauses = gc+f.ring[i].gc, pauses+f.ring[i].pauses
	}
	return gc, pauses
}

// medians computes the window's median of each part, and its GC sum
// (texts read them).
func (f *frames) medians() frameSample {
	med := func(get func(s *frameSample) float32) float32 {
		f.scr = f.scr[:0]
		for i := range f.n {
			f.scr = append(f.scr, get(&f.ring[i]))
		}
		if len(f.scr) == 0 {
			return 0
		}
		slices.Sort(f.scr)
		return f.scr[len(f.scr)/2]
	}
	f.med = frameSample{
		frame:   med(func(s *frameSample) float32 { return s.frame }),
		steps:   med(func(s *frameSample) float32 { return s.steps }),
		overlay: med(func(s *frameSample) float32 { return s.overlay }),
	}
	f.med.gc, f.med.pauses = f.window()
	return f.med
}

// memory reads the runtime's heap and GC metrics (runtime/metrics: no
// stop of the world).
type memory struct {
	samples        []metrics.Sample
	heap           uint64  // live and unswept heap objects, bytes
	allocs, cycles uint64  // totals so far
	pauses         uint64  // GC pauses so far
	pauseSum       float64 // seconds, estimated from the histogram's buckets
	longest        float64 // the longest pause so far (its bucket's top), seconds
}

const (
	mHeap   = "/memory/classes/heap/objects:bytes"
	mAllocs = "/gc/heap/allocs:objects"
	mCycles = "/gc/cycles/total:gc-cycles"
	mPauses = "/sched/pauses/total/gc:seconds"
)

// read refreshes the totals and returns the GC pause time, in seconds,
// since the last read.
func (m *memory) read() float64 {
	m.init()
	metrics.Read(m.samples)
	m.heap, m.allocs, m.cycles = m.samples[0].Value.Uint64(), m.samples[1].Value.Uint64(), m.samples[2].Value.Uint64()
	h := m.samples[3].Value.Float64Histogram()
	var n uint64
	var sum, longest float64
	for i, c := range h.Counts {
		if c == 0 {
			continue
		}
		lo, hi := h.Buckets[i], h.Buckets[i+1]
		if math.IsInf(lo, -1) {
			lo = 0
		}
		if math.IsInf(hi, 1) {
			hi = lo
		}
		n += c
		sum += float64(c) * (lo + hi) / 2
		longest = hi
	}
	d := max(0, sum-m.pauseSum)
	m.pauses, m.pauseSum, m.longest = n, sum, longest
	return d
}

func (m *memory) init() {
	if m.samples == nil {
		m.samples = []metrics.Sample{{Name: mHeap}, {Name: mAllocs}, {Name: mCycles}, {Name: mPauses}}
	}
}
