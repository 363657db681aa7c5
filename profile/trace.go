package profile

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"

	"github.com/weft-engine/weft/engine"
	"github.com/weft-engine/weft/jobs"
)

// Trace gathers steps' records for one Chrome trace file (Perfetto,
// chrome://tracing): the pool's job slices and dependency arrows, as
// jobs.WriteChromeTrace writes them, and over them a slice per step on the
// owner's lane, the owner's phases and the gaps between them (their cause
// named) on a lane of their own, the markers' spans nested in their jobs,
// a counter track per counter, and the GC pauses, within steps or between
// them, on a lane of their own. Its buffers are reused after Reset.
type Trace struct {
	events []jobs.Event
	steps  []traceSpan
	phases []traceSpan
	marks  []traceMark
	counts []traceCount
	gcs    []traceSpan
	an     analyser
	st     StepTimings
}

// The trace's lanes besides the participants': the owner's phases and the
// GC pauses.
const (
	phaseLane = 999
	gcLane    = 1000
)

// The gathered records, on the engine's clock.
type (
	traceSpan struct {
		name       string
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
	tr.events, tr.steps, tr.phases, tr.marks, tr.counts, tr.gcs = tr.events[:0], tr.steps[:0], tr.phases[:0], tr.marks[:0], tr.counts[:0], tr.gcs[:0]
}

// Steps is the number of steps gathered.
func (tr *Trace) Steps() int { return len(tr.steps) }

// Add gathers a step's record. The steps of one trace must come from one
// pool (one worker count): a new pool's job handles start again.
func (tr *Trace) Add(rec *engine.StepRecord) {
	tr.events = append(tr.events, rec.Jobs...)
	tr.steps = append(tr.steps, traceSpan{name: fmt.Sprintf("step %d", rec.Step), start: rec.Start, end: rec.End})
	tr.an.analyse(&tr.st, rec) // for the phases' names and the gaps
	for _, p := range tr.st.Phases {
		name := p.Kind.String()
		if p.System >= 0 {
			name += " " + tr.st.Systems[p.System].Name
		}
		tr.phases = append(tr.phases, traceSpan{name: name, start: p.Start + rec.Start, end: p.End + rec.Start})
	}
	for _, g := range tr.st.Gaps {
		tr.phases = append(tr.phases, traceSpan{name: g.Cause, start: g.Start + rec.Start, end: g.End + rec.Start})
	}
	for _, m := range rec.Marks {
		tr.marks = append(tr.marks, traceMark{name: rec.Layout.Markers[m.Marker].Name, worker: int(m.Worker), start: m.Start, end: m.End})
	}
	for i, n := range rec.Layout.Counters {
		tr.counts = append(tr.counts, traceCount{name: n.Name, at: rec.End, value: rec.Counters[i]})
	}
	for _, g := range rec.GC {
		tr.gcs = append(tr.gcs, traceSpan{name: fmt.Sprintf("GC %d pause", g.Cycle), start: g.Start, end: g.End})
	}
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
		return fmt.Errorf("profile: the job trace does not end as expected")
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
		if err := emit(traceEvent{Name: s.name, Cat: "step", Ph: "X", Ts: us(s.start), Dur: dur(s.end - s.start), Pid: 1, Tid: 0}); err != nil {
			return err
		}
	}
	if err := tr.writeLanes(emit); err != nil {
		return err
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
	bw.WriteString("]}\n")
	return bw.Flush()
}

// writeLanes writes the owner's phases and the GC pauses, each on its
// lane.
func (tr *Trace) writeLanes(emit func(traceEvent) error) error {
	us := func(ns int64) float64 { return float64(ns) / 1e3 }
	for _, lane := range []struct {
		tid       int
		name, cat string
		spans     []traceSpan
	}{{phaseLane, "owner phases", "phase", tr.phases}, {gcLane, "GC pauses", "gc", tr.gcs}} {
		if len(lane.spans) == 0 {
			continue
		}
		if err := emit(traceEvent{Name: "thread_name", Ph: "M", Pid: 1, Tid: lane.tid, Args: map[string]any{"name": lane.name}}); err != nil {
			return err
		}
		for _, s := range lane.spans {
			d := us(s.end - s.start)
			if err := emit(traceEvent{Name: s.name, Cat: lane.cat, Ph: "X", Ts: us(s.start), Dur: &d, Pid: 1, Tid: lane.tid}); err != nil {
				return err
			}
		}
	}
	return nil
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
