package ecs

import (
	"math/rand/v2"
	"runtime"
	"testing"
	"time"

	ark "github.com/mlange-42/ark/ecs"
)

// BenchmarkLookup compares a lookup's Get with Ark's Map.Get: the same
// 100,000 entities over three tables, in one random order. Each op gets
// one block of 4096 entities with Ark and the next block with the lookup,
// timing each, so that both see the same machine load; it reports
// ns/get of each and their ratio (docs/PERFORMANCE.md).
func BenchmarkLookup(b *testing.B) {
	const block = 4096
	s := newScene(b, 100_000, Options{})
	var ents []ark.Entity
	for q := ark.NewFilter1[pos](s.w.ark).Query(); q.Next(); {
		ents = append(ents, q.Entity())
	}
	rng := rand.New(rand.NewPCG(3, 4))
	rng.Shuffle(len(ents), func(i, j int) { ents[i], ents[j] = ents[j], ents[i] })
	blocks := len(ents) / block
	d := s.w.System("bench")
	look := ReadLookup[pos](d)
	m := ark.NewMap[pos](s.w.ark)
	var sink float64
	var tArk, tWeft time.Duration
	runtime.GC() // the setup's garbage is not collected during the run
	for k := 0; b.Loop(); k += 2 {
		a := ents[(k%blocks)*block:][:block]
		w := ents[((k+1)%blocks)*block:][:block]
		t0 := time.Now()
		for _, e := range a {
			sink += m.Get(e).X
		}
		t1 := time.Now()
		for _, e := range w {
			p, _ := look.Get(e)
			sink += p.X
		}
		tArk, tWeft = tArk+t1.Sub(t0), tWeft+time.Since(t1)
	}
	n := float64(b.N * block)
	b.ReportMetric(float64(tArk.Nanoseconds())/n, "ark-ns/get")
	b.ReportMetric(float64(tWeft.Nanoseconds())/n, "weft-ns/get")
	b.ReportMetric(float64(tWeft)/float64(tArk), "weft/ark")
	_ = sink
}
