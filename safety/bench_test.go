package safety

import (
	"testing"

	"github.com/weft-engine/weft/jobs"
)

// BenchmarkSafety is the cost per scheduled job of the dependency tracking
// and the schedule-time check: "on" checks, "off" (Options.NoChecks) only
// records, "raw" is pool.Schedule alone. Each job writes Position and reads
// Velocity after the previous one (a chain); the serial pool runs them at
// each Reset, every 1024 jobs, in every variant alike. Run it with
// -tags weft_nochecks to see "on" compiled out.
func BenchmarkSafety(b *testing.B) {
	for _, v := range []struct {
		name string
		opts Options
		raw  bool
	}{{"on", Options{}, false}, {"off", Options{NoChecks: true}, false}, {"raw", Options{}, true}} {
		b.Run(v.name, func(b *testing.B) {
			f := newFixture(b, v.opts)
			a := acc(Decl{f.pos, Write}, Decl{f.vel, Read})
			var deps []jobs.Handle
			j := jobs.Job{Label: jobs.Label{Name: "bench"}}
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				if i%1024 == 1023 {
					if err := f.pool.Reset(); err != nil {
						b.Fatal(err)
					}
					f.tr.Reset()
					deps = deps[:0]
				}
				var h jobs.Handle
				var err error
				if v.raw {
					h, err = f.pool.Schedule(j, deps...)
				} else {
					h, err = f.tr.ScheduleAfter(j, a, deps...)
				}
				if err != nil {
					b.Fatal(err)
				}
				deps = append(deps[:0], h)
			}
		})
	}
}
