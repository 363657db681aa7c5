package jobs

import (
	"fmt"
	"math/rand/v2"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A chunk that panics fails its ParallelFor, but every other chunk still
// runs, however the range was split, and Wait names the first failed chunk
// in chunk order: the same answer and the same work on every worker count.
func TestParallelForFailureRunsEveryOtherChunk(t *testing.T) {
	for _, w := range []int{0, 1, 2, 3, 4, 8} {
		p, err := New(Options{Workers: w})
		require.NoError(t, err)
		rng := rand.New(rand.NewPCG(uint64(w), 7))
		for round := range 40 {
			n, batch := 1+rng.IntN(300), 1+rng.IntN(9)
			chunks := (n + batch - 1) / batch
			bad := map[int]bool{}
			for range 1 + rng.IntN(3) {
				bad[rng.IntN(chunks)] = true
			}
			firstBad := chunks
			for k := range bad {
				firstBad = min(firstBad, k)
			}
			ran := make([]atomic.Int32, chunks)
			h, err := p.ParallelFor(Job{Label: Label{Name: "pf"}, Run: func(c *Ctx) {
				k := c.Label().Chunk
				ran[k].Add(1)
				if bad[k] {
					panic(fmt.Sprintf("chunk %d", k))
				}
			}}, n, batch)
			require.NoError(t, err)
			after := mustSchedule(t, p, Job{Label: Label{Name: "after"}, Run: func(*Ctx) { t.Error("ran after a failed ParallelFor") }}, h)
			e := requireCode(t, p.Wait(h), ErrBlocked)
			var root *Error
			require.ErrorAs(t, e.Err, &root)
			assert.Equal(t, ErrFailed, root.Code)
			assert.Equal(t, firstBad, root.Detail.Job.Chunk, "W=%d round %d: the first failed chunk in chunk order", w, round)
			requireCode(t, p.Wait(after), ErrBlocked)
			for k := range ran {
				assert.Equal(t, int32(1), ran[k].Load(), "W=%d round %d: chunk %d runs once", w, round, k)
			}
			require.NoError(t, p.Reset())
		}
		require.NoError(t, p.Close())
	}
}
