package jobs

import (
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// frames feeds a n frames, each taking d(solo) ns of which the owner ran
// jobs busy(solo), and returns the mode chosen after each.
func (a *adapter) frames(n int, d, busy func(solo bool) int64) []bool {
	var modes []bool
	solo := a.solo
	if a.last == 0 {
		solo = a.frameEnd(1, 0)
	}
	for range n {
		solo = a.frameEnd(a.last+d(solo), a.busy+busy(solo))
		modes = append(modes, solo)
	}
	return modes
}

func count(modes []bool, solo bool) int {
	n := 0
	for _, m := range modes {
		if m == solo {
			n++
		}
	}
	return n
}

// TestAdapterBusyOwnerNeverProbes: an owner that runs jobs all frame long
// has nothing to gain alone, so it never leaves parallel mode.
func TestAdapterBusyOwnerNeverProbes(t *testing.T) {
	var a adapter
	modes := a.frames(2000, func(bool) int64 { return 1000 }, func(bool) int64 { return 1000 })
	assert.Equal(t, 0, count(modes, true))
}

// TestAdapterOneIdleFrameDoesNotProbe: one frame in which the owner ran
// no job (descheduled, while the workers ran them all) among frames it
// spends busy does not start a probe of solo mode; the same idle lasting
// a few frames does.
func TestAdapterOneIdleFrameDoesNotProbe(t *testing.T) {
	for _, idleFrames := range []int{1, 8} {
		var a adapter
		frame := 0
		modes := a.frames(200, func(bool) int64 { return 1000 }, func(bool) int64 {
			if frame++; frame > 50 && frame <= 50+idleFrames {
				return 0
			}
			return 970
		})
		if idleFrames == 1 {
			assert.Equal(t, 0, count(modes, true), "solo frames after one idle frame")
		} else {
			assert.Positive(t, count(modes, true), "solo frames after %d idle frames", idleFrames)
		}
	}
}

// TestAdapterSharedPs: with three participants on two Ps the owner is
// off a P a third of the time however well the workers help, so an owner
// idle 40% of each frame does not start probes there, as it does where
// every participant has a P; idle well beyond a third still does.
func TestAdapterSharedPs(t *testing.T) {
	for _, c := range []struct {
		offP       float64
		busy       int64 // of 1000 per frame
		wantProbes bool
	}{{1.0 / 3, 600, false}, {0, 600, true}, {1.0 / 3, 200, true}} {
		a := adapter{offP: c.offP}
		modes := a.frames(200, func(bool) int64 { return 1000 }, func(bool) int64 { return c.busy })
		assert.Equal(t, c.wantProbes, count(modes, true) > 0, "offP %.2f, owner busy %d of 1000", c.offP, c.busy)
	}
}

// TestAdapterChoosesFasterMode: with frames 30% shorter solo, the owner
// moves to solo mode and stays there, probing parallel ever more rarely;
// when parallel becomes faster again it moves back.
func TestAdapterChoosesFasterMode(t *testing.T) {
	var a adapter
	slowParallel := func(solo bool) int64 {
		if solo {
			return 700
		}
		return 1000
	}
	half := func(solo bool) int64 { return slowParallel(solo) / 2 }
	modes := a.frames(2000, slowParallel, half)
	assert.True(t, a.solo, "home mode after 2000 frames")
	assert.Less(t, count(modes[1000:], false), 20, "parallel probes in the last 1000 frames")
	assert.Equal(t, probeMax, a.every)

	fastParallel := func(solo bool) int64 {
		if solo {
			return 1000
		}
		return 600
	}
	modes = a.frames(2000, fastParallel, half)
	assert.False(t, a.solo, "home mode once parallel is faster")
	assert.Less(t, count(modes[1000:], true), 20, "solo probes in the last 1000 frames")
}

// TestAdapterOneClearAnswerDoesNotBackOff: a first probe that finds solo
// clearly slower (the pool's first frames) is checked again after
// probeMin frames, so that solo, faster from then on, becomes home soon.
func TestAdapterOneClearAnswerDoesNotBackOff(t *testing.T) {
	var a adapter
	frame := 0
	modes := a.frames(60, func(solo bool) int64 {
		frame++
		switch {
		case frame <= 2*probeFirst+probeFrames: // the first probe's time: solo slow
			if solo {
				return 2000
			}
			return 1000
		case solo:
			return 600
		}
		return 1000
	}, func(solo bool) int64 { return 400 })
	assert.True(t, a.solo, "home mode after 60 frames")
	assert.True(t, modes[len(modes)-1])

	a = adapter{} // two clear answers in a row do back off
	a.frames(2*probeFirst+3*(probeMin+2*probeFrames), func(solo bool) int64 {
		if solo {
			return 2000
		}
		return 1000
	}, func(bool) int64 { return 400 })
	// Four times the interval (64), or more where the probes would cost
	// more than probeBudget: solo twice as slow, 4 frames of it cost 4 home
	// frames, so no sooner than every 80.
	assert.Equal(t, 80, a.every)
}

// TestAdapterBacksOffByCost: W1's case, solo frames four times shorter.
// The switch to solo is a first clear answer, so the first probe after it,
// which finds parallel clearly slower again, backs off: to 240 frames,
// where probing costs at most probeBudget of the frames. In 250 frames
// only the first frames, the first probe's home half and one probe run
// parallel (the old schedule probed again after 16 and 64 frames).
func TestAdapterBacksOffByCost(t *testing.T) {
	var a adapter
	modes := a.frames(250, func(solo bool) int64 {
		if solo {
			return 250
		}
		return 1000
	}, func(solo bool) int64 { return 100 })
	assert.True(t, a.solo)
	assert.Equal(t, 240, a.every)
	assert.Equal(t, probeAfter(4), a.every)
	assert.LessOrEqual(t, count(modes, false), probeFirst+2*probeFrames, "parallel frames in 250")
}

// TestAdapterRechecksEarlySwitch: a switch made on a pool's unusual first
// frames (parallel ones three times solo's while the game warms up) is
// checked again after probeMin frames, and parallel, twice as fast from
// then on, is home again within 40 frames. A switch that backed off by its
// cost would have stayed solo for 240 frames (the systems benchmark ran
// serial-speed steps so).
func TestAdapterRechecksEarlySwitch(t *testing.T) {
	var a adapter
	frame := 0
	modes := a.frames(100, func(solo bool) int64 {
		frame++
		switch {
		case solo:
			return 1000
		case frame <= 2*probeFirst:
			return 3000
		}
		return 500
	}, func(bool) int64 { return 200 })
	assert.False(t, a.solo)
	assert.LessOrEqual(t, longest(modes, true), probeMin+probeFrames+1, "solo frames in a row")
	assert.LessOrEqual(t, longest(modes[40:], true), probeFrames, "solo frames in a row after frame 40: probes only")
}

// TestAdapterCloseCallKeepsProbing: modes within switchMargin of each
// other keep the home mode and the short probe interval.
func TestAdapterCloseCallKeepsProbing(t *testing.T) {
	var a adapter
	modes := a.frames(1000, func(solo bool) int64 {
		if solo {
			return 1010
		}
		return 1000
	}, func(bool) int64 { return 500 })
	assert.False(t, a.solo)
	assert.Equal(t, probeMin, a.every)
	assert.Greater(t, count(modes, true), 100)
}

// TestSoloKeepsOwnersJobs: in solo mode no worker takes a job from the
// owner's deque, whatever the timing, and jobs a guest schedules still run
// without the owner's help.
func TestSoloKeepsOwnersJobs(t *testing.T) {
	p, err := New(Options{Workers: 2})
	require.NoError(t, err)
	defer func() { require.NoError(t, p.Close()) }()
	p.solo.Store(true)
	var onWorkers atomic.Int32
	body := func(c *Ctx) {
		if c.Worker() != 0 {
			onWorkers.Add(1)
		}
	}
	hs := make([]Handle, 1000)
	for i := range hs {
		hs[i], err = p.Schedule(Job{Run: body})
		require.NoError(t, err)
	}
	all, err := p.Combine(hs...)
	require.NoError(t, err)
	require.NoError(t, p.Wait(all))
	assert.Zero(t, onWorkers.Load(), "jobs of the owner run on a worker in solo mode")

	done := make(chan error)
	go func() { // a guest: its job goes through the injection queue to a worker
		h, err := p.Schedule(Job{Run: func(*Ctx) {}})
		if err == nil {
			err = p.Wait(h)
		}
		done <- err
	}()
	require.NoError(t, <-done)
	require.NoError(t, p.Reset())
}

// TestAdapterIgnoresStall: one frame 20 times longer than the others does
// not make a probe of the other, slower mode look faster.
func TestAdapterIgnoresStall(t *testing.T) {
	var a adapter
	frame := 0
	modes := a.frames(200, func(solo bool) int64 {
		frame++
		switch {
		case frame == 20:
			return 20000
		case solo:
			return 1100
		}
		return 1000
	}, func(bool) int64 { return 500 })
	assert.False(t, a.solo)
	assert.LessOrEqual(t, longest(modes, true), probeFrames, "solo frames in a row: probes only")
}

// longest is the longest run of mode in modes.
func longest(modes []bool, mode bool) int {
	best, run := 0, 0
	for _, m := range modes {
		if m != mode {
			run = 0
			continue
		}
		run++
		best = max(best, run)
	}
	return best
}

// TestAdapterFollowsDrift: frames that grow 2% each (a game filling up)
// in both modes alike, 10% shorter solo, still make solo the home mode,
// and frames that shrink as fast, 10% longer solo, do not.
func TestAdapterFollowsDrift(t *testing.T) {
	for _, c := range []struct {
		growth, solo float64
		want         bool
	}{{1.02, 0.9, true}, {1 / 1.02, 1.1, false}} {
		var a adapter
		base := 1e6
		a.frames(150, func(solo bool) int64 {
			base *= c.growth
			if solo {
				return int64(base * c.solo)
			}
			return int64(base)
		}, func(bool) int64 { return 0 })
		assert.Equal(t, c.want, a.solo, "growth %v, solo frames %v of parallel ones", c.growth, c.solo)
	}
}
