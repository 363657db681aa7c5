package jobs

import "testing"

func BenchmarkSmokeW1(b *testing.B) {
	p, _ := New(Options{Workers: DefaultWorkers})
	defer p.Close()
	run := func(c *Ctx) {}
	b.ReportAllocs()
	b.ResetTimer()
	const batch = 4096
	for i := 0; i < b.N; i += batch {
		k := min(batch, b.N-i)
		for j := 0; j < k; j++ {
			p.Schedule(Job{Run: run})
		}
		p.Reset()
	}
}

func BenchmarkSmokeW1Serial(b *testing.B) {
	p, _ := New(Options{Workers: 0})
	defer p.Close()
	run := func(c *Ctx) {}
	b.ReportAllocs()
	b.ResetTimer()
	const batch = 4096
	for i := 0; i < b.N; i += batch {
		k := min(batch, b.N-i)
		for j := 0; j < k; j++ {
			p.Schedule(Job{Run: run})
		}
		p.Reset()
	}
}
