package jobs

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// parksReach waits until worker 1 has parked n times. The deadline only
// guards against a hang: a worker with nothing to do parks within spinFor.
func parksReach(t *testing.T, p *Pool, n uint64) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); p.Stats(nil)[1].Parks < n; time.Sleep(time.Millisecond) {
		require.True(t, time.Now().Before(deadline), "worker 1 parked %d times, want %d", p.Stats(nil)[1].Parks, n)
	}
}

// TestPrewake: a parked worker stays parked until something wakes it;
// Prewake does, and the worker, finding no job, parks again.
func TestPrewake(t *testing.T) {
	p, err := New(Options{Workers: 1})
	require.NoError(t, err)
	defer p.Close()
	parksReach(t, p, 1)
	p.Prewake()
	parksReach(t, p, 2)

	serial, err := New(Options{Workers: 0})
	require.NoError(t, err)
	defer serial.Close()
	serial.Prewake() // nobody to wake
	h, err := serial.Schedule(Job{Run: func(*Ctx) {}})
	require.NoError(t, err)
	require.NoError(t, serial.Wait(h))
}
