package jobs

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTraceRecordsJobsAndEdges(t *testing.T) {
	eachPool(t, func(t *testing.T, p *Pool) {
		p.SetTracing(true)
		a := mustSchedule(t, p, Job{Label: Label{Name: "a"}, Run: func(*Ctx) {}})
		b := mustSchedule(t, p, Job{Label: Label{Name: "b"}, Run: func(*Ctx) {}}, a)
		pf, err := p.ParallelFor(Job{Label: Label{Name: "pf"}, Run: func(*Ctx) {}}, 100, 10, b)
		require.NoError(t, err)
		require.NoError(t, p.Wait(pf))
		require.NoError(t, p.Reset())
		events, lost := p.ReadTrace(nil)
		assert.Zero(t, lost)
		var slices, edges, chunks int
		for i, e := range events {
			if i > 0 {
				assert.LessOrEqual(t, events[i-1].Start, e.Start, "sorted by start")
			}
			switch e.Kind {
			case KindJob:
				slices++
				assert.LessOrEqual(t, e.Start, e.End)
				if e.Label.Name == "pf" && e.Label.Chunk >= 0 {
					chunks++
				}
			case KindEdge:
				edges++
			}
		}
		assert.Equal(t, 10, chunks, "one slice per ParallelFor chunk")
		assert.Equal(t, 2+10+1, slices, "a, b, the chunks, the join")
		assert.GreaterOrEqual(t, edges, 3, "a→b, b→range, range→join")

		var buf bytes.Buffer
		require.NoError(t, WriteChromeTrace(&buf, events))
		var doc struct {
			TraceEvents []struct {
				Ph   string  `json:"ph"`
				Name string  `json:"name"`
				Tid  int     `json:"tid"`
				Dur  float64 `json:"dur"`
			} `json:"traceEvents"`
		}
		require.NoError(t, json.Unmarshal(buf.Bytes(), &doc), buf.String())
		count := map[string]int{}
		for _, e := range doc.TraceEvents {
			count[e.Ph]++
		}
		assert.Equal(t, slices, count["X"])
		assert.Equal(t, edges, count["s"])
		assert.Equal(t, edges, count["f"])
		assert.NotZero(t, count["M"], "lane names")

		// Nothing new since the last read.
		events, _ = p.ReadTrace(events[:0])
		assert.Empty(t, events)
	})
}

func TestTraceRingOverflowCountsLoss(t *testing.T) {
	p, err := New(Options{Workers: 0, TraceCapacity: 8})
	require.NoError(t, err)
	defer p.Close()
	p.SetTracing(true)
	for range 20 {
		mustSchedule(t, p, Job{Run: func(*Ctx) {}})
	}
	require.NoError(t, p.Reset())
	events, lost := p.ReadTrace(nil)
	assert.Len(t, events, 8)
	assert.Equal(t, uint64(12), lost)
}

// TestTraceLanesMerge: the lanes' merge equals a stable sort by start of
// the lanes one after another, whatever their order, length and ties.
func TestTraceLanesMerge(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	var l traceLanes
	for round := range 200 {
		l.buf, l.heads, l.ends = l.buf[:0], l.heads[:0], l.ends[:0]
		var all []Event
		for lane := range r.IntN(5) {
			from := len(l.buf)
			t0 := int64(0)
			for range r.IntN(40) {
				if r.IntN(4) > 0 { // mostly in order, with ties, sometimes back in time
					t0 += int64(r.IntN(3))
				} else {
					t0 -= int64(r.IntN(5))
				}
				ev := Event{Worker: lane, Start: t0, End: int64(len(l.buf))} // End: a unique tag
				l.buf = append(l.buf, ev)
				all = append(all, ev)
			}
			l.add(from)
		}
		slices.SortStableFunc(all, byStart)
		got := l.merge([]Event{{End: -1}})
		require.Equal(t, append([]Event{{End: -1}}, all...), got, "round %d", round)
	}
}
