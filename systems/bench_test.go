package systems_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/weft-engine/weft/engine"
	"github.com/weft-engine/weft/jobs"
)

// BenchmarkFrame is one fixed step of physics, anim and cull after
// warm-up, checks off, in the scene without gravity (constant density, a
// 1280×720 camera): serial is the serial executor (Workers 0), parallel
// the default pool (GOMAXPROCS-1 workers plus the owner). Each system's
// median work per entity is reported as <system>-ns/entity, and the
// owner's time outside the jobs (scheduling, playback, merges, reading the
// trace: serial, so it caps the speedup) as owner-µs/op, and the time each
// participant spent between its jobs, mostly waiting for others to finish
// a pass, as wait-µs/op (see passWaits).
func BenchmarkFrame(b *testing.B) { benchFrame(b, true) }

// BenchmarkFrameChecked is BenchmarkFrame in checked mode (the default
// Config): the cost of the safety checks on the step.
func BenchmarkFrameChecked(b *testing.B) { benchFrame(b, false) }

func benchFrame(b *testing.B, noChecks bool) {
	const batch = 1024
	for _, n := range []int{10_000, 50_000, 100_000, 200_000} {
		for _, mode := range []string{"serial", "parallel"} {
			b.Run(fmt.Sprintf("entities=%dk/%s", n/1000, mode), func(b *testing.B) {
				w := 0
				if mode == "parallel" {
					w = engine.DefaultWorkers
				}
				s := newSceneG(b, n, engine.Config{Workers: w, Batch: batch, NoChecks: noChecks}, false, 0)
				for range 150 {
					if err := s.eng.Tick(); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportAllocs()
				b.ResetTimer()
				var owner, wait time.Duration
				ends := make([]int64, len(s.eng.LastRecord().Workers)) // passWaits's scratch
				for b.Loop() {
					if err := s.eng.Tick(); err != nil {
						b.Fatal(err)
					}
					last := s.prof.Last()
					owner += last.Predicted[0] - last.Work // the step less its jobs' extent: the owner alone
					rec := s.eng.LastRecord()
					if len(ends) != len(rec.Workers) { // not after warm-up: the participants are fixed
						ends = make([]int64, len(rec.Workers))
					}
					wait += passWaits(rec, ends)
				}
				b.StopTimer()
				b.ReportMetric(float64(owner.Microseconds())/float64(b.N), "owner-µs/op")
				b.ReportMetric(float64(wait.Microseconds())/float64(b.N), "wait-µs/op")
				st := s.prof.Summary()
				for _, ss := range st.Systems {
					b.ReportMetric(ss.NsPerEntity, ss.Name+"-ns/entity")
				}
				b.ReportMetric(float64(s.cull.Visible), "visible")
			})
		}
	}
}

// BenchmarkFrameBatch is BenchmarkFrame's parallel step at fixed batch
// sizes and with the adaptive batch (Batch 0), whose last choice is
// reported as batch.
func BenchmarkFrameBatch(b *testing.B) {
	for _, n := range []int{20_000, 50_000, 100_000, 200_000} {
		for _, batch := range []int{256, 1024, 4096, 16384, 0} {
			name := fmt.Sprintf("entities=%dk/batch=%d", n/1000, batch)
			if batch == 0 {
				name = fmt.Sprintf("entities=%dk/batch=adaptive", n/1000)
			}
			b.Run(name, func(b *testing.B) {
				s := newSceneG(b, n, engine.Config{Workers: engine.DefaultWorkers, Batch: batch, NoChecks: true}, false, 0)
				for range 150 {
					if err := s.eng.Tick(); err != nil {
						b.Fatal(err)
					}
				}
				b.ResetTimer()
				for b.Loop() {
					if err := s.eng.Tick(); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(s.eng.Batch()), "batch")
			})
		}
	}
}

// passWaits is the time a participant of the step spent, on average,
// between two of its jobs in gaps longer than 5 µs: mostly waiting at the
// end of a pass for the others' last jobs (shorter gaps are the pool
// finding the next job), but also the machine's stalls and the owner's
// own work that fall between jobs, which the serial rows show alone. The
// record's jobs are sorted by start; ends has one slot per participant.
func passWaits(rec *engine.StepRecord, ends []int64) time.Duration {
	const gap = 5 * time.Microsecond
	clear(ends)
	var sum time.Duration
	for _, ev := range rec.Jobs {
		if ev.Kind != jobs.KindJob || ev.Worker >= len(ends) {
			continue
		}
		if e := ends[ev.Worker]; e != 0 && time.Duration(ev.Start-e) > gap {
			sum += time.Duration(ev.Start - e)
		}
		ends[ev.Worker] = max(ends[ev.Worker], ev.End)
	}
	return sum / time.Duration(max(len(ends), 1))
}
