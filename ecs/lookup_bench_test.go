package ecs

import (
	"math/rand/v2"
	"runtime"
	"testing"

	ark "github.com/mlange-42/ark/ecs"
)

// BenchmarkLookup compares a lookup's Get with Ark's Map.Get: the same
// 100,000 entities over three tables, in one random order; an op is one
// Get. Compare the two within one run (docs/PERFORMANCE.md).
func BenchmarkLookup(b *testing.B) {
	s := newScene(b, 100_000, Options{})
	var ents []ark.Entity
	for q := ark.NewFilter1[pos](s.w.ark).Query(); q.Next(); {
		ents = append(ents, q.Entity())
	}
	rng := rand.New(rand.NewPCG(3, 4))
	rng.Shuffle(len(ents), func(i, j int) { ents[i], ents[j] = ents[j], ents[i] })
	d := s.w.System("bench")
	look := ReadLookup[pos](d)
	m := ark.NewMap[pos](s.w.ark)
	var sink float64
	runtime.GC() // the setup's garbage is not collected during a run
	b.Run("ark", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			sink += m.Get(ents[i%len(ents)]).X
		}
	})
	runtime.GC()
	b.Run("weft", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			p, _ := look.Get(ents[i%len(ents)])
			sink += p.X
		}
	})
	_ = sink
}
