package safety

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/weft-engine/weft/jobs"
	"go.uber.org/goleak"
)

// Every test closes the pools it makes: no worker goroutine outlives it.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// S001 answers the same for every worker count: a writer that a worker
// happened to finish is still in flight for the check until the owner has
// observed it done. The writer is made to finish first deterministically:
// the owner waits on a job that waits (Ctx.Wait, which is not an edge) on
// the writer, and then on the channel the writer closed.
func TestMissingDependencyIgnoresTiming(t *testing.T) {
	if !checksCompiled {
		t.Skip("checks are compiled out (weft_nochecks)")
	}
	for _, w := range []int{0, 1, 2, 4} {
		t.Run(fmt.Sprintf("W=%d", w), func(t *testing.T) {
			pool, err := jobs.New(jobs.Options{Workers: w})
			require.NoError(t, err)
			defer pool.Close()
			reg := &Registry{}
			pos, err := reg.Register("Position")
			require.NoError(t, err)
			tr := NewTracker(pool, reg, Options{})
			writes, reads := acc(Decl{pos, Write}), acc(Decl{pos, Read})

			finished := func() jobs.Handle {
				done := make(chan struct{})
				writer, err := tr.ScheduleAfter(jobs.Job{Label: jobs.Label{Name: "writer"}, Run: func(*jobs.Ctx) { close(done) }}, writes)
				require.NoError(t, err)
				helper, err := pool.Schedule(jobs.Job{Run: func(c *jobs.Ctx) {
					if err := c.Wait(writer); err != nil {
						panic(err)
					}
				}})
				require.NoError(t, err)
				require.NoError(t, pool.Wait(helper))
				<-done
				o, err := pool.Outcome(writer)
				require.NoError(t, err)
				require.Equal(t, jobs.Succeeded, o)
				return writer
			}

			// Finished but not observed: refused.
			writer := finished()
			_, err = tr.ScheduleAfter(job("reader"), reads)
			require.ErrorIs(t, err, ErrMissingDependency)
			// Observed through Wait on the writer itself: accepted.
			require.NoError(t, pool.Wait(writer))
			_, err = tr.ScheduleAfter(job("reader"), reads)
			require.NoError(t, err)

			// Observed through Wait on a job after it (an untracked Combine,
			// as the engine waits for a segment): accepted.
			require.NoError(t, pool.Reset())
			tr.Reset()
			writer = finished()
			_, err = tr.ScheduleAfter(job("reader"), reads)
			require.ErrorIs(t, err, ErrMissingDependency)
			all, err := pool.Combine(writer)
			require.NoError(t, err)
			require.NoError(t, pool.Wait(all))
			_, err = tr.ScheduleAfter(job("reader"), reads)
			require.NoError(t, err)
			require.NoError(t, pool.Reset())
			tr.Reset()
		})
	}
}
