package engine

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"runtime/metrics"
	"slices"

	"github.com/weft-engine/weft/jobs"
)

// Trace gathers steps for one Chrome trace file (Perfetto,
// chrome://tracing): the pool's job slices and dependency arrows, as
// jobs.WriteChromeTrace writes them, and over them a slice per step on
// the owner's lane, the markers' spans nested in their jobs, a counter
// track per counter, and the GC pauses that ended while the steps ran, on
// a lane of their own. Its buffers are reused after Reset. Executed only
// by the owner, between steps.
type Trace struct {
	events []jobs.Event
	steps  []traceStep
	marks  []traceMark
	counts []traceCount
	gcs    []traceStep // GC pauses, on the pool's clock
	numGC  uint32      // the GC cycles seen by the last Add
	mem    runtime.MemStats
	cycles []metrics.Sample
}

// gcLane is the trace's lane for GC pauses, below the participants'.
const gcLane = 1000

// The gathered records, on the pool's clock (ns since the pool started).
type (
	traceStep struct {
		step       uint64
		start, end int64
	}
	traceMark struct {
		name       string
		worker     int
		start, end int64
	}
	traceCount struct {
		name  string
		at    int64
		value int64
	}
)

// Reset empties the trace, keeping its buffers.
func (tr *Trace) Reset() {
	tr.events, tr.steps, tr.marks, tr.counts, tr.gcs = tr.events[:0], tr.steps[:0], tr.marks[:0], tr.counts[:0], tr.gcs[:0]
}

// Steps is the number of steps gathered.
func (tr *Trace) Steps() int { return len(tr.steps) }

// Add gathers e's last step. The steps of one trace must come from one
// pool (one worker count): a new pool's clock and job handles start again.
func (tr *Trace) Add(e *Engine) {
	t := &e.out.timings
	c := &t.cur
	tr.events = e.AppendTrace(tr.events)
	off := t.marks.off
	tr.steps = append(tr.steps, traceStep{step: c.Step, start: t.from + off, end: t.to + off})
	for _, m := range c.Marks {
		tr.marks = append(tr.marks, traceMark{name: c.Markers[m.Marker].Name, worker: int(m.Worker), start: m.Start + t.t0, end: m.End + t.t0})
	}
	for _, n := range c.Counters {
		tr.counts = append(tr.counts, traceCount{name: n.Name, at: t.to + off, value: n.Value})
	}
	tr.addGC(e, len(tr.steps) == 1)
}

// addGC adds the GC pauses that ended since the last Add (since the step's
// start for the first). The runtime keeps the last 256 pauses' ends on the
// wall clock; reading them stops the world briefly, so it happens only
// when runtime/metrics says that a cycle ended.
func (tr *Trace) addGC(e *Engine, first bool) {
	if tr.cycles == nil {
		tr.cycles = []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}}
	}
	metrics.Read(tr.cycles)
	n := uint32(tr.cycles[0].Value.Uint64())
	if first {
		tr.numGC = n
		return
	}
	if n == tr.numGC {
		return
	}
	runtime.ReadMemStats(&tr.mem)
	m, t := &tr.mem, &e.out.timings
	wall0 := t.marks.epoch.UnixNano() // the marks clock's zero, on the wall clock
	for gc := max(tr.numGC, m.NumGC-min(m.NumGC, 256)); gc < m.NumGC; gc++ {
		end := int64(m.PauseEnd[gc%256]) - wall0 + t.marks.off
		tr.gcs = append(tr.gcs, traceStep{step: uint64(gc + 1), start: end - int64(m.PauseNs[gc%256]), end: end})
	}
	tr.numGC = m.NumGC
}

// traceEvent is one Chrome trace event.
type traceEvent struct {
	Name string         `json:"name"`
	Cat  string         `json:"cat,omitempty"`
	Ph   string         `json:"ph"`
	Ts   float64        `json:"ts"`
	Dur  *float64       `json:"dur,omitempty"`
	Pid  int            `json:"pid"`
	Tid  int            `json:"tid"`
	Args map[string]any `json:"args,omitempty"`
}

// Write writes the trace as Chrome trace JSON.
func (tr *Trace) Write(w io.Writer) error {
	var jb bytes.Buffer
	if err := jobs.WriteChromeTrace(&jb, tr.events); err != nil {
		return err
	}
	// The jobs' file ends its event list with "]}": the events below join it.
	head, ok := bytes.CutSuffix(bytes.TrimRight(jb.Bytes(), "\n"), []byte("]}"))
	if !ok {
		return fmt.Errorf("engine: the job trace does not end as expected")
	}
	bw := bufio.NewWriter(w)
	bw.Write(head)
	sep := ","
	if bytes.HasSuffix(head, []byte("[")) {
		sep = ""
	}
	enc := json.NewEncoder(bw)
	emit := func(ev traceEvent) error {
		bw.WriteString(sep)
		sep = ","
		return enc.Encode(ev)
	}
	us := func(ns int64) float64 { return float64(ns) / 1e3 }
	dur := func(ns int64) *float64 { d := us(ns); return &d }
	for _, s := range tr.steps {
		if err := emit(traceEvent{Name: fmt.Sprintf("step %d", s.step), Cat: "step", Ph: "X", Ts: us(s.start), Dur: dur(s.end - s.start), Pid: 1, Tid: 0}); err != nil {
			return err
		}
	}
	jobsOf := tr.jobsByWorker()
	for _, m := range tr.marks {
		start, end := clampToJob(jobsOf[m.worker], m.start, m.end)
		if err := emit(traceEvent{Name: m.name, Cat: "marker", Ph: "X", Ts: us(start), Dur: dur(end - start), Pid: 1, Tid: m.worker}); err != nil {
			return err
		}
	}
	for _, n := range tr.counts {
		if err := emit(traceEvent{Name: n.name, Cat: "counter", Ph: "C", Ts: us(n.at), Pid: 1, Args: map[string]any{"value": n.value}}); err != nil {
			return err
		}
	}
	if len(tr.gcs) > 0 {
		if err := emit(traceEvent{Name: "thread_name", Ph: "M", Pid: 1, Tid: gcLane, Args: map[string]any{"name": "GC pauses"}}); err != nil {
			return err
		}
	}
	for _, g := range tr.gcs {
		if err := emit(traceEvent{Name: fmt.Sprintf("GC %d pause", g.step), Cat: "gc", Ph: "X", Ts: us(g.start), Dur: dur(g.end - g.start), Pid: 1, Tid: gcLane}); err != nil {
			return err
		}
	}
	bw.WriteString("]}\n")
	return bw.Flush()
}

// jobsByWorker is each participant's job slices, in start order.
func (tr *Trace) jobsByWorker() map[int][][2]int64 {
	by := map[int][][2]int64{}
	for _, ev := range tr.events {
		if ev.Kind == jobs.KindJob {
			by[ev.Worker] = append(by[ev.Worker], [2]int64{ev.Start, ev.End})
		}
	}
	return by
}

// clampToJob keeps a marker span inside the job it ran in, so that
// Perfetto nests it: the two clocks agree to a fraction of a microsecond,
// not to the nanosecond. The job is the last one to start before the
// span's middle.
func clampToJob(jobs [][2]int64, start, end int64) (int64, int64) {
	mid := start + (end-start)/2
	i, _ := slices.BinarySearchFunc(jobs, mid, func(j [2]int64, t int64) int {
		if j[0] <= t {
			return -1
		}
		return 1
	})
	if i == 0 {
		return start, end
	}
	j := jobs[i-1]
	start = min(max(start, j[0]), j[1])
	return start, min(max(end, start), j[1])
}
