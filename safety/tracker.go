package safety

import (
	"strconv"

	"github.com/weft-engine/weft/jobs"
)

// Options configure a Tracker.
type Options struct {
	// NoChecks skips the schedule-time check of ScheduleAfter and
	// ParallelForAfter; dependencies are still derived and recorded.
	// The build tag weft_nochecks does the same at compile time.
	NoChecks bool
}

// Tracker derives and checks the dependencies of one frame's jobs from
// their Access. All its methods are executed only by the pool's owner,
// outside of jobs: the per-key state is not synchronised.
type Tracker struct {
	pool  *jobs.Pool
	reg   *Registry
	check bool

	writer  [MaxKeys]int32 // per key: index of the last writer, -1 for none
	readers [MaxKeys][]int32
	touched []Key // keys with state, cleared by Reset

	recs []rec   // by jobs.Handle.Index; valid if rec.frame == frame
	deps []int32 // the recorded prerequisites of every rec, rec.d0:rec.d1
	// frame, and the marks below, are stamps: bumping them clears the
	// matching per-job flags in O(1).
	frame, dedup, reach uint32
	stack               []int32
	hs, group, search   []jobs.Handle
	copyDeps            []jobs.Handle // chunks: one copy's prerequisites
	skip                jobs.Handle   // verify: a chained group, checked chunk by chunk
}

type rec struct {
	h      jobs.Handle
	label  jobs.Label
	acc    *Access
	d0, d1 int32
	copies int32 // a chunk group's copies: the first copies of its prerequisites
	seen   bool  // the owner observed the job done (see observed)
	frame  uint32
	dedup  uint32 // == Tracker.dedup: already a candidate dependency
	reach  uint32 // == Tracker.reach: visited by the current search
}

// NewTracker makes a Tracker for the jobs of pool; reg names keys in errors.
func NewTracker(pool *jobs.Pool, reg *Registry, opts Options) *Tracker {
	t := &Tracker{pool: pool, reg: reg, check: checksCompiled && !opts.NoChecks, frame: 1}
	for i := range t.writer {
		t.writer[i] = -1
	}
	return t
}

// SetChecks turns the schedule-time check on or off (a no-op under the
// build tag weft_nochecks), e.g. from a debug hotkey.
func (t *Tracker) SetChecks(on bool) { t.check = checksCompiled && on }

// Reset forgets the frame's jobs. Call it with pool.Reset, between frames.
func (t *Tracker) Reset() {
	for _, k := range t.touched {
		t.writer[k] = -1
		t.readers[k] = t.readers[k][:0]
	}
	t.touched = t.touched[:0]
	t.deps = t.deps[:0]
	t.frame++
}

// Schedule schedules j after the jobs it conflicts with, derived from a as
// Unity does: after the last writer of every key it reads, and after the
// last writer and the readers since of every key it writes. a must not
// change until Reset.
func (t *Tracker) Schedule(j jobs.Job, a *Access) (jobs.Handle, error) {
	return t.add(j, a, nil, t.derive(a), false)
}

// ParallelFor is Schedule for pool.ParallelFor(j, n, batch).
func (t *Tracker) ParallelFor(j jobs.Job, a *Access, n, batch int) (jobs.Handle, error) {
	return t.add(j, a, &forEach{n, batch}, t.derive(a), false)
}

// ScheduleAfter schedules j after deps only, and first checks them: if a
// job still in flight conflicts with a and is not among the transitive
// prerequisites of deps, it returns an *Error with ErrMissingDependency
// and schedules nothing. A job is in flight until the owner has observed
// it done (Wait on it or on a job after it, or Reset), whether or not a
// worker has finished it: the answer is the same for every worker count.
func (t *Tracker) ScheduleAfter(j jobs.Job, a *Access, deps ...jobs.Handle) (jobs.Handle, error) {
	return t.add(j, a, nil, deps, true)
}

// ParallelForAfter is ScheduleAfter for pool.ParallelFor(j, n, batch, deps...).
func (t *Tracker) ParallelForAfter(j jobs.Job, a *Access, n, batch int, deps ...jobs.Handle) (jobs.Handle, error) {
	return t.add(j, a, &forEach{n, batch}, deps, true)
}

// ScheduleChunks schedules n copies of j, copy k with Label.Chunk = k and
// Lo, Hi = k, k+1, all after the jobs that a conflicts with but not after
// each other: the chunks of one query touch disjoint rows. The returned
// handle finishes when every copy has, and stands for them all as the
// writer or reader of a's keys.
func (t *Tracker) ScheduleChunks(j jobs.Job, a *Access, n int) (jobs.Handle, error) {
	return t.chunks(j, a, n, nil, jobs.Handle{}, t.derive(a))
}

// ChunksAfter is ScheduleChunks after deps only, checked as ScheduleAfter
// is. With chained, the handle of an earlier group of n copies (from
// ScheduleChunks or ChunksAfter), copy k waits for chained's copy k and
// not for the whole group: chunk-wise chaining of two passes over the same
// chunks. The caller guarantees that copy k of both groups touches the
// same rows and that the two conflict on nothing else: the check exempts
// chained, and checks every other conflict as ScheduleAfter does. A
// failing copy of chained blocks only its twin.
func (t *Tracker) ChunksAfter(j jobs.Job, a *Access, n int, chained jobs.Handle, deps ...jobs.Handle) (jobs.Handle, error) {
	var prev []int32
	if chained != (jobs.Handle{}) {
		c := t.at(chained.Index())
		if c == nil || c.h != chained || c.copies != int32(n) {
			return jobs.Handle{}, errorf(ErrBadArgument, "ChunksAfter(%s, %d chunks): the chained handle %v is not a group of %d chunk copies of this frame; chain onto what ScheduleChunks or ChunksAfter returned, with the same chunk count",
				jobName(j.Label), n, chained, n)
		}
		prev = t.deps[c.d0 : c.d0+c.copies]
	}
	if t.check {
		t.search = append(t.search[:0], deps...)
		for _, i := range prev {
			t.search = append(t.search, t.recs[i].h)
		}
		t.skip = chained
		err := t.verify(j.Label, a, t.search)
		t.skip = jobs.Handle{}
		if err != nil {
			return jobs.Handle{}, err
		}
	}
	return t.chunks(j, a, n, prev, chained, deps)
}

// chunks schedules and records n copies of j after deps, copy k also
// after prev[k] (the copies of chained) if given, and their combined
// handle. With no copies, the combined handle waits for deps and chained
// itself, so that order through it still holds.
func (t *Tracker) chunks(j jobs.Job, a *Access, n int, prev []int32, chained jobs.Handle, deps []jobs.Handle) (jobs.Handle, error) {
	t.group = t.group[:0]
	for k := range n {
		j.Label.Chunk, j.Lo, j.Hi = k, k, k+1
		t.copyDeps = append(t.copyDeps[:0], deps...)
		if prev != nil {
			t.copyDeps = append(t.copyDeps, t.recs[prev[k]].h)
		}
		h, err := t.pool.Schedule(j, t.copyDeps...)
		if err != nil {
			return h, err
		}
		t.note(h, j.Label, a, t.copyDeps)
		t.group = append(t.group, h)
	}
	t.copyDeps = append(t.copyDeps[:0], t.group...)
	if n == 0 {
		t.copyDeps = append(t.copyDeps, deps...)
		if chained != (jobs.Handle{}) {
			t.copyDeps = append(t.copyDeps, chained)
		}
	}
	h, err := t.pool.Combine(t.copyDeps...)
	if err != nil {
		return h, err
	}
	// Recorded after the copies, their prerequisites and chained (which
	// every copy follows through its twin, so the group finishes after
	// it), so that the check's search reaches them through it.
	t.group = append(t.group, deps...)
	if chained != (jobs.Handle{}) {
		t.group = append(t.group, chained)
	}
	j.Label.Chunk = 0
	t.record(h, j.Label, a, t.group)
	t.recs[h.Index()].copies = int32(n)
	return h, nil
}

// Combine is pool.Combine, recorded so that the check sees through it:
// a job after the combined handle is after each of hs.
func (t *Tracker) Combine(hs ...jobs.Handle) (jobs.Handle, error) {
	h, err := t.pool.Combine(hs...)
	if err == nil {
		t.record(h, jobs.Label{Name: "combine"}, &noAccess, hs)
	}
	return h, err
}

var noAccess Access

// add checks (if explicit), schedules and records one job; batch > 0 makes it a ParallelFor.
// forEach is add's shape for Schedule (nil) and for ParallelFor (the
// item count and batch size, which the pool validates).
type forEach struct{ n, batch int }

func (t *Tracker) add(j jobs.Job, a *Access, pf *forEach, deps []jobs.Handle, explicit bool) (jobs.Handle, error) {
	if explicit && t.check {
		if err := t.verify(j.Label, a, deps); err != nil {
			return jobs.Handle{}, err
		}
	}
	var h jobs.Handle
	var err error
	if pf != nil {
		h, err = t.pool.ParallelFor(j, pf.n, pf.batch, deps...)
	} else {
		h, err = t.pool.Schedule(j, deps...)
	}
	if err != nil {
		return h, err
	}
	t.record(h, j.Label, a, deps)
	return h, nil
}

// at is the record of job index i, if it was scheduled through t this frame.
func (t *Tracker) at(i int) *rec {
	if i < 0 || i >= len(t.recs) || t.recs[i].frame != t.frame {
		return nil
	}
	return &t.recs[i]
}

// inFlight reports whether the job of record r has not finished, for
// derive: a derived dependency on a finished job would change nothing, so
// leaving it out is safe whatever the timing (the check, which must answer
// the same for every timing, uses observed instead). Workers publish
// outcomes atomically; a job seen finished stays finished.
func (t *Tracker) inFlight(r *rec) bool {
	o, err := t.pool.Outcome(r.h)
	return err == nil && !o.Done()
}

// derive collects into t.hs the unfinished jobs that a new job with access
// a must follow, each once.
func (t *Tracker) derive(a *Access) []jobs.Handle {
	t.hs = t.hs[:0]
	t.dedup++
	for i := range a.w {
		for u := a.r[i] | a.w[i]; u != 0; u &= u - 1 {
			k := Key(i*64 + trailing(u))
			t.candidate(t.writer[k])
			if a.w[i]&(1<<(k&63)) != 0 {
				for _, r := range t.readers[k] {
					t.candidate(r)
				}
			}
		}
	}
	return t.hs
}

func (t *Tracker) candidate(i int32) {
	r := t.at(int(i))
	if r == nil || r.dedup == t.dedup {
		return
	}
	r.dedup = t.dedup
	if t.inFlight(r) {
		t.hs = append(t.hs, r.h)
	}
}

// record notes h's prerequisites and makes it the last writer or a reader
// of each of its keys.
func (t *Tracker) record(h jobs.Handle, l jobs.Label, a *Access, deps []jobs.Handle) {
	t.note(h, l, a, deps)
	i := h.Index()
	for w := range a.w {
		for u := a.r[w] | a.w[w]; u != 0; u &= u - 1 {
			k := Key(w*64 + trailing(u))
			if t.writer[k] < 0 && len(t.readers[k]) == 0 {
				t.touched = append(t.touched, k)
			}
			if a.w[w]&(1<<(k&63)) != 0 {
				t.writer[k] = int32(i)
				t.readers[k] = t.readers[k][:0]
			} else {
				t.readers[k] = append(t.readers[k], int32(i))
			}
		}
	}
}

// note records h and its prerequisites, for the check's searches, without
// making it a writer or reader of its keys: a chunk copy, which its
// group's combined handle stands for.
func (t *Tracker) note(h jobs.Handle, l jobs.Label, a *Access, deps []jobs.Handle) {
	i := h.Index()
	for len(t.recs) <= i {
		t.recs = append(t.recs, rec{})
	}
	d0 := int32(len(t.deps))
	for _, d := range deps {
		t.deps = append(t.deps, int32(d.Index()))
	}
	t.recs[i] = rec{h: h, label: l, acc: a, d0: d0, d1: int32(len(t.deps)), frame: t.frame}
}

// verify is the schedule-time check of a job with access a and explicit
// deps. Checking the last writer and the readers since of each key is
// enough: every job recorded before them was checked or derived against
// them in turn, so it is their prerequisite or was finished.
func (t *Tracker) verify(l jobs.Label, a *Access, deps []jobs.Handle) error {
	for i := range a.w {
		for u := a.r[i] | a.w[i]; u != 0; u &= u - 1 {
			k := Key(i*64 + trailing(u))
			writes := a.w[i]&(1<<(k&63)) != 0
			if c := t.at(int(t.writer[k])); c != nil {
				if err := t.conflict(l, a, deps, c, k); err != nil {
					return err
				}
			}
			if !writes {
				continue
			}
			for _, ri := range t.readers[k] {
				if c := t.at(int(ri)); c != nil {
					if err := t.conflict(l, a, deps, c, k); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}

func (t *Tracker) conflict(l jobs.Label, a *Access, deps []jobs.Handle, c *rec, k Key) error {
	if c.h == t.skip || t.observed(c) || t.reaches(deps, c) {
		return nil
	}
	return t.missing(c, l, a, k)
}

// observed reports whether the owner has seen c's job done: it waited on
// it, or on a job after it (jobs.Pool.Observed). Until then the check
// counts the job as in flight even if a worker has finished it, so that
// its answer is the same for every worker count and every timing. A job
// seen done stays so until Reset: the answer is kept.
func (t *Tracker) observed(c *rec) bool {
	if !c.seen {
		seen, err := t.pool.Observed(c.h)
		c.seen = err == nil && seen
	}
	return c.seen
}

// reaches reports whether c is a recorded transitive prerequisite of deps.
// A job's prerequisites were reserved in the arena before it, so the
// search skips jobs with a lower index than c: in a chain it stops at once.
func (t *Tracker) reaches(deps []jobs.Handle, c *rec) bool {
	target := int32(c.h.Index())
	t.reach++
	t.stack = t.stack[:0]
	for _, d := range deps {
		t.stack = append(t.stack, int32(d.Index()))
	}
	for len(t.stack) > 0 {
		i := t.stack[len(t.stack)-1]
		t.stack = t.stack[:len(t.stack)-1]
		if i == target {
			return true
		}
		r := t.at(int(i))
		if i < target || r == nil || r.reach == t.reach {
			continue
		}
		r.reach = t.reach
		t.stack = append(t.stack, t.deps[r.d0:r.d1]...)
	}
	return false
}

func (t *Tracker) missing(c *rec, l jobs.Label, a *Access, k Key) *Error {
	key := t.reg.Name(k)
	em, lm := c.acc.Mode(k), a.Mode(k)
	e, n := jobName(c.label), jobName(l)
	return &Error{
		Code: ErrMissingDependency,
		Msg: "the previously scheduled job " + e + " " + em.String() + " " + key +
			". You are trying to schedule " + n + ", which " + lm.String() + " " + key +
			". To guarantee safety, make " + e + " a dependency of " + n + " (or complete it first).",
		Detail: Detail{Earlier: c.label.Name, Later: l.Name, Key: key, EarlierMode: em, LaterMode: lm},
	}
}

// jobName quotes a label's name, with its chunk when it has one.
func jobName(l jobs.Label) string {
	s := strconv.Quote(l.Name)
	if l.Chunk > 0 {
		s += "[" + strconv.Itoa(l.Chunk) + "]"
	}
	return s
}
