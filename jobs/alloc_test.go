package jobs

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSteadyStateAllocatesNothing checks the frame loop of an engine:
// schedule with dependencies, ParallelFor, Combine, Wait, Reset, traced.
func TestSteadyStateAllocatesNothing(t *testing.T) {
	if testing.CoverMode() != "" {
		t.Skip("coverage counters allocate")
	}
	for _, w := range []int{0, 1, 2} {
		p, err := New(Options{Workers: w})
		require.NoError(t, err)
		items := make([]float32, 10000)
		kernel := func(c *Ctx) {
			xs := c.Data().(*[]float32)
			lo, hi := c.Range()
			for i := lo; i < hi; i++ {
				(*xs)[i] = (*xs)[i]*1.0001 + 0.5
			}
		}
		empty := func(*Ctx) {}
		var events []Event
		var stats []WorkerStats
		frame := func() {
			a, _ := p.Schedule(Job{Label: Label{Name: "a"}, Run: empty})
			b, _ := p.Schedule(Job{Label: Label{Name: "b"}, Run: empty}, a)
			pf, _ := p.ParallelFor(Job{Label: Label{Name: "pf"}, Run: kernel, Data: &items}, len(items), 256, a, b)
			all, _ := p.Combine(a, b, pf)
			if err := p.Wait(all); err != nil {
				t.Fatal(err)
			}
			if err := p.Reset(); err != nil {
				t.Fatal(err)
			}
			events, _ = p.ReadTrace(events[:0])
			stats = p.Stats(stats[:0])
		}
		p.SetTracing(true)
		for range 50 { // warm up: arena blocks, trace buffers, injection rings
			frame()
		}
		assert.Zero(t, testing.AllocsPerRun(200, frame), "W=%d", w)
		require.NoError(t, p.Close())
	}
}
