package jobs

// Adapting to the machine, frame by frame. A worker helps the owner only if
// it runs: when the OS deschedules it for whole timeslices (another process
// busy on its core), a chunk or job it took holds the owner at the next
// join for milliseconds, and its spinning and wake-ups cost the owner too.
// Then the frame is faster with the owner running its own jobs alone, as
// the serial executor does. No signal inside the pool says which case
// holds, so the owner measures it: each Reset ends a frame, and frames run
// in one mode, with a short probe of the other now and then; the mode with
// the shorter frames stays.
//
// In solo mode workers take no job from the owner's deques and the owner's
// pushes wake nobody, so the owner's jobs run in its Wait and Reset, as on
// the serial executor; jobs readied elsewhere (a guest's, an event's
// successors, a worker's children) still run on the workers. Results are
// the same in both modes: they never depend on who runs a job.
//
// Everything here is executed only by the driver of parts[0] inside Reset
// (see Pool.Reset), which holds Pool.guard; p.solo is the one field that
// others read.

// Probing solo mode costs frames when the workers do help, so the owner
// probes it only while it spends more than idleProbe of its frames outside
// jobs (waiting for others, or scheduling): a pool whose owner is busy
// running jobs all frame long has nothing to gain from running them alone.
//
// The probe schedule: a probe runs probeFrames frames of the other mode
// and keeps the last probeFrames-1 of them (the first pays for the switch:
// a wake-up, cold caches). The first probe comes after probeFirst frames,
// of which only the last sets the mean (a pool's first frames can be empty
// or cold); then one every probeMin frames, and, while each finds the
// other mode slower by more than clearMargin, four times more rarely each
// time, up to every probeMax frames: a clear answer costs little to
// re-check. A probe switches the mode when its frames are shorter than the
// home mode's mean by switchMargin.
const (
	probeFrames  = 4
	probeFirst   = 8
	probeMin     = 16
	probeMax     = 512
	switchMargin = 0.05
	clearMargin  = 0.15
	meanWeight   = 8 // the mean of frame times moves 1/meanWeight of the way to each frame
	idleProbe    = 0.15
)

// adapter keeps the home mode's frame times and the probe schedule.
type adapter struct {
	last    int64   // p.now() at the previous Reset; 0 before the first
	mean    int64   // mean frame time of the home mode, 0 while unknown
	solo    bool    // the home mode: the one run between probes
	wait    int     // frames of the home mode before the next probe
	every   int     // the probe interval now
	seen    int     // home-mode frames seen, up to probeFirst
	probe   int     // frames left in the current probe, 0 outside one
	sum     int64   // kept probe frame times
	settled bool    // the home mode's last frame was not a switch's first
	busy    int64   // the owner's busy time (WorkerStats.Busy) at the previous Reset
	idle    float64 // mean share of the home mode's frames that the owner spent outside jobs
}

// frameEnd takes the frame that ended at now, in which the owner's busy
// time reached busy, and returns whether the next frame runs solo.
func (a *adapter) frameEnd(now, busy int64) bool {
	d := now - a.last
	first := a.last == 0
	idle := 1 - float64(busy-a.busy)/float64(max(d, 1))
	a.last, a.busy = now, busy
	if first {
		a.wait, a.every = probeFirst, probeMin
		return a.solo
	}
	if a.probe > 0 {
		return a.probeFrame(d)
	}
	a.seen = min(a.seen+1, probeFirst)
	switch {
	case a.seen < probeFirst: // a pool's first frames can be empty: only the last counts
		a.mean, a.idle = d, idle
	case a.settled:
		a.mean = blend(a.mean, d)
		a.idle += (idle - a.idle) / meanWeight
	}
	a.settled = true
	if a.wait--; a.wait > 0 || a.mean == 0 || (!a.solo && a.idle < idleProbe) {
		return a.solo
	}
	a.probe, a.sum = probeFrames, 0
	return !a.solo
}

// probeFrame takes a frame of a probe of the other mode; after the last
// one it decides which mode is home, and returns the next frame's mode.
func (a *adapter) probeFrame(d int64) bool {
	a.probe--
	if a.probe < probeFrames-1 { // the first frame paid for the switch
		a.sum += d
	}
	if a.probe > 0 {
		return !a.solo
	}
	got := a.sum / (probeFrames - 1)
	switch {
	case float64(got) < float64(a.mean)*(1-switchMargin):
		a.solo, a.mean = !a.solo, got
		a.every = probeMin
	case float64(got) > float64(a.mean)*(1+clearMargin):
		a.every = min(4*a.every, probeMax)
	default:
		a.every = probeMin
	}
	a.wait, a.settled = a.every, false
	return a.solo
}

// blend moves mean 1/meanWeight of the way to d, counting d as at most
// twice the mean: one stalled frame (another process, a page fault) must
// not make the other mode look faster. An unknown mean becomes d.
func blend(mean, d int64) int64 {
	if mean == 0 {
		return d
	}
	return mean + (min(d, 2*mean)-mean)/meanWeight
}

// adapt ends a frame for the adapter and sets the next frame's mode.
// Executed only by the driver of parts[0] in Reset, once no job is in
// flight: workers read p.solo when they look for work, so a change takes
// effect at their next look.
func (p *Pool) adapt() {
	if len(p.parts) == 1 {
		return
	}
	p.solo.Store(p.adapter.frameEnd(p.now()+1, int64(p.parts[0].busy.Load())))
}

// stealable reports whether thieves may take jobs from victim v's deques:
// always, except from the owner's in solo mode. Any goroutine.
func (p *Pool) stealable(v *participant) bool { return v.id != 0 || !p.solo.Load() }

// private reports whether no other participant may take what w pushes:
// w is the owner of the serial executor or of a solo frame. Its jobs then
// go on its private stack, and splitting a range job cannot pay. Executed
// only by w's goroutine.
func (p *Pool) private(w *participant) bool { return len(p.parts) == 1 || !p.stealable(w) }
