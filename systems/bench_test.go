package systems_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/weft-engine/weft/engine"
)

// BenchmarkFrame is one fixed step of physics, anim and cull after
// warm-up, checks off, in the scene without gravity (constant density, a
// 1280×720 camera): serial is the serial executor (Workers 0), parallel
// the default pool (GOMAXPROCS-1 workers plus the owner). Each system's
// median work per entity is reported as <system>-ns/entity, and the
// owner's time outside the jobs (scheduling, playback, merges, reading the
// trace: serial, so it caps the speedup) as owner-µs/op.
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
				var owner time.Duration
				for b.Loop() {
					if err := s.eng.Tick(); err != nil {
						b.Fatal(err)
					}
					last := s.prof.Last()
					owner += last.Predicted[0] - last.Work // the step less its jobs' extent: the owner alone
				}
				b.StopTimer()
				b.ReportMetric(float64(owner.Microseconds())/float64(b.N), "owner-µs/op")
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
