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
				s := warmScene(b, n, engine.Config{Workers: w, Serial: w == 0, Batch: batch, NoChecks: noChecks})
				b.ReportAllocs()
				b.ResetTimer()
				var owner, wait time.Duration
				var ws waitScratch
				ws.size(s.eng.LastRecord())
				for b.Loop() {
					if err := s.eng.Tick(); err != nil {
						b.Fatal(err)
					}
					last := s.prof.Last()
					owner += last.Predicted[0] - last.Work // the step less its jobs' extent: the owner alone
					wait += ws.passWaits(s.eng.LastRecord(), nil)
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
				s := warmScene(b, n, engine.Config{Workers: engine.DefaultWorkers, Batch: batch, NoChecks: true})
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

// warmScene is the benchmark scene of n bodies on an engine of cfg, after
// 150 steps: the pool's modes, the adaptive batch and the buffers settled.
func warmScene(b *testing.B, n int, cfg engine.Config) *scene {
	s := newSceneG(b, n, cfg, false, 0)
	for range 150 {
		if err := s.eng.Tick(); err != nil {
			b.Fatal(err)
		}
	}
	return s
}

// BenchmarkFrameWaits is BenchmarkFrame's parallel step at 50k, with its
// wait-µs/op charged to the turns between passes where the gaps fall:
// wait:<from>><to>-µs/op is the time a participant spent, on average per
// step, between a job of pass <from> and its next job, of pass <to>
// (labels as in the step's record, system.pass). Which turns a step has
// depends on which participant ran which job, so a rare turn may be
// missing from some processes.
func BenchmarkFrameWaits(b *testing.B) {
	b.Run("entities=50k/parallel", func(b *testing.B) {
		s := warmScene(b, 50_000, engine.Config{Workers: engine.DefaultWorkers, Batch: 1024, NoChecks: true})
		var ws waitScratch
		ws.size(s.eng.LastRecord())
		turns := map[turn]time.Duration{}
		var wait time.Duration
		b.ResetTimer()
		for b.Loop() {
			if err := s.eng.Tick(); err != nil {
				b.Fatal(err)
			}
			wait += ws.passWaits(s.eng.LastRecord(), turns)
		}
		b.StopTimer()
		b.ReportMetric(float64(wait.Microseconds())/float64(b.N), "wait-µs/op")
		for t, d := range turns {
			b.ReportMetric(float64(d.Microseconds())/float64(b.N), "wait:"+t.from+">"+t.to+"-µs/op")
		}
	})
}

// turn is where a participant's gap falls: after a job of pass from,
// before its next job, of pass to.
type turn struct{ from, to string }

// waitScratch is passWaits's per-participant state, sized once after
// warm-up (the participants are fixed by then), so that the measured
// steps allocate nothing.
type waitScratch struct {
	ends []int64  // the end of the participant's last job
	last []string // its pass
}

// size makes room for rec's participants.
func (ws *waitScratch) size(rec *engine.StepRecord) {
	ws.ends, ws.last = make([]int64, len(rec.Workers)), make([]string, len(rec.Workers))
}

// passWaits is the time a participant of the step spent, on average,
// between two of its jobs in gaps longer than 5 µs: mostly waiting at the
// end of a pass for the others' last jobs (shorter gaps are the pool
// finding the next job), but also the machine's stalls and the owner's
// own work that fall between jobs, which the serial rows show alone. With
// turns, each gap, divided among the participants as the sum is, is also
// added to its turn. The record's jobs are sorted by start.
func (ws *waitScratch) passWaits(rec *engine.StepRecord, turns map[turn]time.Duration) time.Duration {
	const gap = 5 * time.Microsecond
	ends, parts := ws.ends, time.Duration(max(len(ws.ends), 1))
	clear(ends)
	var sum time.Duration
	for _, ev := range rec.Jobs {
		if ev.Kind != jobs.KindJob || ev.Worker >= len(ends) {
			continue
		}
		if e := ends[ev.Worker]; e != 0 && time.Duration(ev.Start-e) > gap {
			d := time.Duration(ev.Start - e)
			sum += d
			if turns != nil {
				turns[turn{ws.last[ev.Worker], ev.Label.Name}] += d / parts
			}
		}
		if ev.End > ends[ev.Worker] {
			ends[ev.Worker], ws.last[ev.Worker] = ev.End, ev.Label.Name
		}
	}
	return sum / parts
}
