package jobs

import (
	"bufio"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sync/atomic"
	"time"
)

// EventKind tells a job slice from a dependency edge.
type EventKind uint8

// The kinds of trace events.
const (
	KindJob   EventKind = iota // a job ran on Worker from Start to End
	KindEdge                   // Job depends on From: From released Job at Start (or Job was scheduled then, From being done); edges of jobs scheduled by a guest goroutine are not recorded
	KindSplit                  // Job is a range job split off range job From at Start: it has From's prerequisites, and runs beside it
)

// Event is one trace record. Times are nanoseconds since the pool started.
type Event struct {
	Kind       EventKind
	Worker     int // 0 is the owner
	Job        Handle
	From       Handle // KindEdge: the prerequisite
	Label      Label  // KindJob
	Start, End int64
}

// ring is one participant's trace buffer: a single writer (the participant)
// and a reader (the owner, between frames), so one atomic counter suffices.
type ring struct {
	buf     []Event
	written atomic.Uint64 // events ever written; the newest len(buf) are kept
	read    uint64        // events already returned by ReadTrace; owner only
}

// record appends e to w's ring, overwriting the oldest event when full.
// Executed only by w's goroutine.
func (w *participant) record(e Event) {
	r := w.ring
	n := r.written.Load()
	r.buf[n%uint64(len(r.buf))] = e
	r.written.Store(n + 1) // publishes the event to ReadTrace
}

func (p *Pool) now() int64 { return int64(time.Since(p.t0)) }

// SetTracing turns the recording of job slices and edges on or off. The
// first call allocates the rings. Executed only by the owner, between frames.
func (p *Pool) SetTracing(on bool) {
	if on {
		for _, w := range p.parts {
			if w.ring == nil {
				w.ring = &ring{buf: make([]Event, p.traceCap)}
			}
		}
	}
	p.tracing.Store(on)
}

// ReadTrace appends the events recorded since the last call to dst, sorted
// by start time (ties in participant order, then in recording order), and
// returns it and the number of events lost to ring overflow. With enough
// capacity in dst it allocates nothing (after the first calls). Executed
// only by the owner, between frames (after Wait, with no job in flight).
func (p *Pool) ReadTrace(dst []Event) ([]Event, uint64) {
	var lost uint64
	lanes := &p.lanes
	lanes.buf, lanes.heads, lanes.ends = lanes.buf[:0], lanes.heads[:0], lanes.ends[:0]
	for _, w := range p.parts {
		r := w.ring
		if r == nil {
			continue
		}
		n := r.written.Load()
		if n-r.read > uint64(len(r.buf)) {
			lost += n - r.read - uint64(len(r.buf))
			r.read = n - uint64(len(r.buf))
		}
		from := len(lanes.buf)
		for i := r.read; i < n; i++ {
			lanes.buf = append(lanes.buf, r.buf[i%uint64(len(r.buf))])
		}
		r.read = n
		lanes.add(from)
	}
	return lanes.merge(dst), lost
}

// traceLanes is ReadTrace's scratch: the participants' events, each
// participant's sorted by start, before they are merged. A ring is nearly
// in start order already (a job is recorded when it ends, after the splits
// it made meanwhile), so sorting each on its own is close to a scan, and
// the merge is one pass; a stable sort of all of them together cost the
// owner several times more, serial time in every step of the engine.
// Owner only.
type traceLanes struct {
	buf         []Event
	heads, ends []int // each lane's next event and end in buf
}

// add makes buf[from:] a lane, sorted by start (stable).
func (l *traceLanes) add(from int) {
	if lane := l.buf[from:]; !slices.IsSortedFunc(lane, byStart) {
		slices.SortStableFunc(lane, byStart)
	}
	l.heads, l.ends = append(l.heads, from), append(l.ends, len(l.buf))
}

// merge appends the lanes' events to dst by start, ties to the earlier
// lane. A scan of the lanes' heads per event: there are as many as
// participants.
func (l *traceLanes) merge(dst []Event) []Event {
	dst = slices.Grow(dst, len(l.buf))
	for range l.buf {
		best := -1
		for i, h := range l.heads {
			if h < l.ends[i] && (best < 0 || l.buf[h].Start < l.buf[l.heads[best]].Start) {
				best = i
			}
		}
		dst = append(dst, l.buf[l.heads[best]])
		l.heads[best]++
	}
	return dst
}

func byStart(a, b Event) int { return cmp.Compare(a.Start, b.Start) }

// WriteChromeTrace writes events in the Chrome trace event format, which
// Perfetto and chrome://tracing open: a thread lane per participant, a slice
// per job, a flow arrow per dependency edge.
func WriteChromeTrace(w io.Writer, events []Event) error {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	if _, err := bw.WriteString(`{"displayTimeUnit":"ns","traceEvents":[`); err != nil {
		return err
	}
	for i, e := range chromeEvents(events) {
		if i > 0 {
			bw.WriteByte(',')
		}
		if err := enc.Encode(e); err != nil {
			return err
		}
	}
	if _, err := bw.WriteString("]}\n"); err != nil {
		return err
	}
	return bw.Flush()
}

// chromeEvent is one record of the Chrome trace event format.
type chromeEvent struct {
	Name string         `json:"name"`
	Cat  string         `json:"cat,omitempty"`
	Ph   string         `json:"ph"`
	Ts   float64        `json:"ts"`
	Dur  *float64       `json:"dur,omitempty"`
	Pid  int            `json:"pid"`
	Tid  int            `json:"tid"`
	ID   string         `json:"id,omitempty"`
	Bp   string         `json:"bp,omitempty"`
	Args map[string]any `json:"args,omitempty"`
}

// ran is where and when a job ran, so that flow arrows start in the
// prerequisite's lane and end in the successor's.
type ran struct {
	worker     int
	start, end int64
}

func us(ns int64) float64 { return float64(ns) / 1e3 }

// chromeEvents turns events into lane names first, then slices and flows.
func chromeEvents(events []Event) []chromeEvent {
	jobs := make(map[Handle]ran)
	for _, e := range events {
		if e.Kind == KindJob {
			jobs[e.Job] = ran{e.Worker, e.Start, e.End}
		}
	}
	out := laneNames(jobs, len(events))
	flow := 0
	for _, e := range events {
		switch e.Kind {
		case KindJob:
			d := us(e.End - e.Start)
			out = append(out, chromeEvent{Name: fmt.Sprintf("%s[%d]", e.Label.Name, e.Label.Chunk), Cat: "job", Ph: "X", Ts: us(e.Start), Dur: &d,
				Pid: 1, Tid: e.Worker, Args: map[string]any{"job": e.Job.Index(), "system": e.Label.Name, "chunk": e.Label.Chunk}})
		case KindEdge:
			from, ok1 := jobs[e.From]
			to, ok2 := jobs[e.Job]
			if !ok1 || !ok2 {
				continue
			}
			flow++
			id := fmt.Sprint(flow)
			out = append(out,
				chromeEvent{Name: "dep", Cat: "dep", Ph: "s", Ts: us(from.end - 1), Pid: 1, Tid: from.worker, ID: id},
				chromeEvent{Name: "dep", Cat: "dep", Ph: "f", Bp: "e", Ts: us(to.start), Pid: 1, Tid: to.worker, ID: id})
		}
	}
	return out
}

// laneNames names a lane per participant that ran a job, in worker order
// (the same file for the same events), in a slice with room for n more.
func laneNames(jobs map[Handle]ran, n int) []chromeEvent {
	var lanes []int
	for _, r := range jobs {
		if !slices.Contains(lanes, r.worker) {
			lanes = append(lanes, r.worker)
		}
	}
	slices.Sort(lanes)
	out := make([]chromeEvent, 0, n+len(lanes))
	for _, wk := range lanes {
		name := fmt.Sprintf("worker %d", wk)
		if wk == 0 {
			name = "owner"
		}
		out = append(out, chromeEvent{Name: "thread_name", Ph: "M", Pid: 1, Tid: wk, Args: map[string]any{"name": name}})
	}
	return out
}
