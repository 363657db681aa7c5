package jobs

import (
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestDequeBatchStealTakesEachIndexOnce races an owner that pushes and pops
// against thieves that steal single indices and batches (stealInto) into
// deques of their own, from which the other thieves steal in turn. Every
// index must be taken exactly once, whatever the interleaving; run it with
// -race, which also checks the slots' publication.
func TestDequeBatchStealTakesEachIndexOnce(t *testing.T) {
	const thieves = 3
	n := 200_000
	if testing.Short() {
		n = 20_000
	}
	var owner deque
	mine := make([]deque, thieves)
	taken := make([]atomic.Int32, n)
	var ownerDone atomic.Bool // the owner pushed every index and found its deque empty
	var wg sync.WaitGroup
	for i := range thieves {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(i), 1))
			own := &mine[i]
			for !ownerDone.Load() || !owner.empty() {
				v := &owner
				if k := rng.IntN(thieves + 2); k < thieves && k != i {
					v = &mine[k]
				}
				if idx, ok := v.steal(); ok {
					taken[idx].Add(1)
					v.stealInto(own, int64(rng.IntN(2*stealBatch)))
				}
				for range rng.IntN(4) {
					if idx, ok := own.pop(); ok {
						taken[idx].Add(1)
					}
				}
			}
			for { // leave nothing behind in the thief's own deque
				idx, ok := own.pop()
				if !ok {
					return
				}
				taken[idx].Add(1)
			}
		}()
	}
	rng := rand.New(rand.NewPCG(99, 1))
	for next := 0; next < n; {
		for range rng.IntN(64) {
			if next < n && owner.push(uint32(next)) {
				next++
			}
		}
		for range rng.IntN(40) {
			if idx, ok := owner.pop(); ok {
				taken[idx].Add(1)
			}
		}
	}
	for !owner.empty() {
		if idx, ok := owner.pop(); ok {
			taken[idx].Add(1)
		}
	}
	ownerDone.Store(true)
	wg.Wait()
	for i := range taken {
		require.Equal(t, int32(1), taken[i].Load(), "index %d", i)
	}
}
