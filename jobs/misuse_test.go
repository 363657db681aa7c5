package jobs

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Pool calls that would wait behind the calling job are refused from a job
// body on every pool size, wherever the body runs (owner or worker), and
// the pool stays usable.
func TestPoolCallsInsideAJobAreRefused(t *testing.T) {
	for _, w := range []int{0, 1, 2} {
		t.Run(fmt.Sprintf("W=%d", w), func(t *testing.T) {
			p, err := New(Options{Workers: w})
			require.NoError(t, err)
			other := mustSchedule(t, p, Job{Label: Label{Name: "other"}})
			var waitErr, waitSelf, closeErr, resetErr error
			h := mustSchedule(t, p, Job{Label: Label{Name: "misuser"}, Run: func(c *Ctx) {
				waitErr = p.Wait(other)
				waitSelf = p.Wait(c.Handle())
				closeErr = p.Close()
				resetErr = p.Reset()
			}})
			require.NoError(t, p.Wait(h))
			e := requireCode(t, waitErr, ErrInsideJob)
			assert.Contains(t, e.Msg, "use its Ctx.Wait")
			requireCode(t, waitSelf, ErrInsideJob)
			requireCode(t, closeErr, ErrInsideJob)
			e = requireCode(t, resetErr, ErrBusy)
			assert.Contains(t, e.Msg, "inside a job")

			// Nested: a job that a job waits for (Ctx.Wait) is refused too.
			var nested error
			outer := mustSchedule(t, p, Job{Run: func(c *Ctx) {
				inner, err := c.Schedule(Job{Run: func(*Ctx) { nested = p.Wait(other) }})
				if err == nil {
					err = c.Wait(inner)
				}
				if err != nil {
					panic(err)
				}
			}})
			require.NoError(t, p.Wait(outer))
			requireCode(t, nested, ErrInsideJob)

			// Still usable: a new frame, jobs, and a Close from the owner.
			require.NoError(t, p.Reset())
			require.NoError(t, p.Wait(mustSchedule(t, p, Job{Run: func(*Ctx) {}})))
			require.NoError(t, p.Close())
		})
	}
}

// A goroutine that a job started is a guest, not inside a job: its Wait
// is answered, whoever drives the pool meanwhile.
func TestGuestWaitIsNotInsideAJob(t *testing.T) {
	for _, w := range []int{0, 1, 2} {
		p, err := New(Options{Workers: w})
		require.NoError(t, err)
		guestDone := make(chan error)
		target := mustSchedule(t, p, Job{Label: Label{Name: "target"}})
		h := mustSchedule(t, p, Job{Run: func(*Ctx) {
			go func() { guestDone <- p.Wait(target) }()
		}})
		require.NoError(t, p.Wait(h))
		require.NoError(t, p.Wait(target))
		assert.NoError(t, <-guestDone, "W=%d", w)
		require.NoError(t, p.Close())
	}
}
