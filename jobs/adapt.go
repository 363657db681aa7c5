package jobs

import "slices"

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

// A probe runs probeFrames frames of the other mode, then probeFrames of
// the home mode, and switches when the probe's median (its first frame,
// which pays for the switch, left out) beats that of the home frames
// before and after it, so that a game filling up meanwhile favours neither
// mode, by switchMargin. The owner probes only while it spends over
// idleProbe of its frames outside jobs, not counting the share it is off
// a P because participants outnumber Ps (offP): an owner running jobs all
// frame long has nothing to gain alone, and its own descheduling says
// nothing about the workers. Clear answers back off: they cost little to
// re-check, but a single one may come from a pool's unusual first frames.
const (
	probeFrames  = 4             // frames of each mode in a probe
	probeFirst   = 8             // frames before the first probe
	probeMin     = 16            // frames between probes until two clear answers in a row
	probeMax     = 512           // the longest interval; each clear answer makes it four times longer
	switchMargin = 0.05          // how much faster the other mode must be
	clearMargin  = 0.15          // slower by this much is a clear answer, and so is a switch by it
	idleProbe    = 0.15          // the owner's idle share above which it probes solo mode
	probeBudget  = 0.05          // the most of the frames that probes of a slower mode may take
	idleCap      = 2 * idleProbe // the most one frame counts: a frame the owner barely ran in says nothing of the workers
	idleWeight   = 8             // the owner's idle share moves 1/idleWeight of the way to each frame's
)

// window holds the last probeFrames-1 frame times of one kind.
type window struct {
	d [probeFrames - 1]int64
	n int // frames put, ever
}

func (w *window) put(d int64) { w.d[w.n%len(w.d)] = d; w.n++ }

// median of the frames in w; 0 when it is not full.
func (w *window) median() int64 {
	if w.n < len(w.d) {
		return 0
	}
	s := w.d
	slices.Sort(s[:])
	return s[len(s)/2]
}

// adapter keeps the home mode's recent frames and the probe schedule.
type adapter struct {
	last    int64   // p.now() at the previous Reset; 0 before the first
	solo    bool    // the home mode: the one run between probes
	wait    int     // frames of the home mode before the next probe
	every   int     // the probe interval now
	clear   int     // probes in a row that found the other mode clearly slower (a clear switch counts as one)
	probe   int     // frames left in the current probe (see probeFrame), 0 outside one
	settled bool    // the home mode's last frame was not a switch's first
	busy    int64   // the owner's busy time (WorkerStats.Busy) at the previous Reset
	idle    float64 // mean share of the home mode's frames that the owner spent outside jobs, less offP, each frame's at most idleCap
	offP    float64 // the share of a frame the owner is expected off a P: 1 - GOMAXPROCS/participants when New ran, if positive

	before, other, after window // home frames before a probe, the probe's, home frames after it
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
	if a.settled {
		a.before.put(d)
		// Below offP a frame counts below 0: on shared Ps the owner's share
		// swings between frames, and the swings cancel out.
		a.idle += (min(idle-a.offP, idleCap) - a.idle) / idleWeight
	}
	a.settled = true
	if a.wait--; a.wait > 0 || a.before.median() == 0 || (!a.solo && a.idle < idleProbe) {
		return a.solo
	}
	a.probe, a.other.n, a.after.n = 2*probeFrames, 0, 0
	return !a.solo
}

// probeFrame takes a frame of a probe: probeFrames of the other mode, then
// probeFrames of the home mode, the first of each not counted. It returns
// the next frame's mode.
func (a *adapter) probeFrame(d int64) bool {
	switch {
	case a.probe == 2*probeFrames || a.probe == probeFrames: // paid for a switch
	case a.probe > probeFrames:
		a.other.put(d)
	default:
		a.after.put(d)
	}
	a.probe--
	switch {
	case a.probe > probeFrames:
		return !a.solo
	case a.probe > 0:
		return a.solo
	}
	a.decide()
	return a.solo
}

// decide ends a probe: the other mode becomes home if its frames were
// shorter than the home mode's around them by switchMargin.
func (a *adapter) decide() {
	got := float64(a.other.median())
	ref := float64(a.before.median()+a.after.median()) / 2
	a.before = a.after // the home mode's latest frames
	switch {
	case got < ref*(1-switchMargin):
		a.solo, a.settled = !a.solo, false
		a.before = a.other
		a.every, a.clear = probeMin, 0
		if ref > got*(1+clearMargin) { // the old home clearly slower: the first clear answer
			a.clear = 1
		}
	case got > ref*(1+clearMargin):
		if a.clear++; a.clear > 1 {
			a.every = max(min(4*a.every, probeMax), probeAfter(got/ref))
		}
	default:
		a.every, a.clear = probeMin, 0
	}
	a.wait = a.every
}

// probeAfter is the interval after which probing a mode k times slower
// than home costs at most probeBudget of the frames, within [probeMin,
// probeMax]: a probe of it costs probeFrames·(k−1) home frames. W1's
// parallel frames took four times its solo ones, and probes after 16, 16
// and 64 frames made a tenth of a 250-frame process parallel.
func probeAfter(k float64) int {
	return int(min(max(probeFrames*(k-1)/probeBudget, probeMin), probeMax))
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
