package engine

import (
	"errors"
	"slices"
	"strings"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/jobs"
)

// A segment's job failures, reported whole: one WEFT-G009 per system whose
// jobs failed (a job panicked) or misused the world (an ecs check), in
// built order, each naming its system, its cause, and the systems its
// failure kept from running. A system's passes run one after another and
// its dependents wait for its last, so a failure blocks the rest of its
// own passes and every system after it that depends on it: the pool names
// the job at the root of each block (the one scheduled first, whatever
// the worker count), and that job's label says whose pass it was.

// failure is what went wrong with one system in a segment. Executed only
// by the owner, between a segment's playback and its merges.
type failure struct {
	en      *entry      // nil: misuses that name no system of the segment
	root    *jobs.Error // the failed job (a panic), or nil
	misuse  []error     // the world's refusals that are this system's
	skipped []string    // the systems its failure blocked, in built order
}

// reportJobs finds the segment's failures after its jobs ended and its
// commands played back (misuse is what EndFrame reported) and records one
// WEFT-G009 per failing system, in built order. Executed only by the
// owner, in runSegment.
func (e *Engine) reportJobs(seg int, misuse []error) {
	fs := e.jobFailures(seg)
	if len(fs) == 0 && len(misuse) == 0 {
		return // the step's usual path: nothing allocated
	}
	fs = assignMisuse(fs, e.misuseOwners(seg), misuse)
	for _, f := range fs {
		err := e.failureError(f)
		e.fail(err)
		e.out.rec.failure(e, f, err)
	}
}

// jobFailures finds, in built order, the systems of segment seg whose own
// job failed, and adds to each the systems that its failure blocked.
func (e *Engine) jobFailures(seg int) []*failure {
	var fs []*failure
	for _, en := range e.sched.par {
		if en.seg != seg || !en.started {
			continue
		}
		if o, err := e.run.pool.Outcome(en.last); err != nil || o == jobs.Succeeded {
			continue
		}
		root := rootFailure(e.run.pool.Wait(en.last))
		if root == nil || ownsLabel(en, root.Detail.Job.Name) {
			fs = append(fs, &failure{en: en, root: root})
			continue
		}
		if i := slices.IndexFunc(fs, func(f *failure) bool { return ownsLabel(f.en, root.Detail.Job.Name) }); i >= 0 {
			fs[i].skipped = append(fs[i].skipped, en.name)
		} else { // blocked by a job of no failing system: report it as its own
			fs = append(fs, &failure{en: en, root: root})
		}
	}
	return fs
}

// rootFailure is the failure at the root of a finished job's error: the
// failed (or cancelled) job that blocked it, or the job itself.
func rootFailure(err error) *jobs.Error {
	var je *jobs.Error
	if !errors.As(err, &je) {
		return nil
	}
	for je.Code == jobs.ErrBlocked {
		next, ok := je.Err.(*jobs.Error)
		if !ok {
			break
		}
		je = next
	}
	return je
}

// ownsLabel reports whether one of en's passes has the job label name.
func ownsLabel(en *entry, name string) bool {
	return slices.ContainsFunc(en.passes, func(p *Pass) bool { return p.label == name })
}

// flatten is the list an error joins, or the error alone.
func flatten(err error) []error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}

// misuseOwners maps the names of the segment's systems to them, for
// misuses found without a failed job (ecs names the system in its Error).
func (e *Engine) misuseOwners(seg int) map[string]*entry {
	m := map[string]*entry{}
	for _, en := range e.sched.par {
		if en.seg == seg {
			m[en.name] = en
		}
	}
	return m
}

// assignMisuse gives each misuse to its system: the one whose failed job
// panicked with it (a refusal), else the one the ecs error names, else
// none. It returns the failures in built order, the unnamed last; each
// system's misuses sorted by text, since jobs record them in the order
// they ran.
func assignMisuse(fs []*failure, owners map[string]*entry, misuse []error) []*failure {
	for _, m := range misuse {
		f := restatedBy(fs, m)
		if f == nil {
			var ee *ecs.Error
			en := (*entry)(nil)
			if errors.As(m, &ee) {
				en = owners[ee.System]
			}
			if i := slices.IndexFunc(fs, func(f *failure) bool { return f.en == en }); i >= 0 {
				f = fs[i]
			} else {
				f = &failure{en: en}
				fs = append(fs, f)
			}
		}
		f.misuse = append(f.misuse, m)
	}
	for _, f := range fs {
		slices.SortStableFunc(f.misuse, func(a, b error) int { return strings.Compare(a.Error(), b.Error()) })
	}
	slices.SortStableFunc(fs, func(a, b *failure) int { return order(a.en) - order(b.en) })
	return fs
}

// order is a failure's place: its system's built order, the unnamed last.
func order(en *entry) int {
	if en == nil {
		return int(^uint(0) >> 1)
	}
	return en.index
}

// restatedBy is the failure whose job panicked with misuse m (the world
// refuses a job by panicking with the refusal it records), or nil.
func restatedBy(fs []*failure, m error) *failure {
	for _, f := range fs {
		if f.root == nil {
			continue
		}
		var ee *ecs.Error
		if errors.As(f.root, &ee) && ee.Error() == m.Error() {
			return f
		}
	}
	return nil
}

// failureError is f as a WEFT-G009: a misuse is its own cause (the failed
// job that restates it adds nothing), a panic is the failed job's error.
func (e *Engine) failureError(f *failure) *Error {
	step := e.res.time.Step
	var err *Error
	switch {
	case f.en == nil:
		err = errorf(ErrJob, "", joinOne(f.misuse), "jobs misused the world in step %d", step)
	case len(f.misuse) > 0:
		err = errorf(ErrJob, f.en.name, joinOne(f.misuse), "system %q misused the world in step %d", f.en.name, step)
	default:
		err = errorf(ErrJob, f.en.name, f.root, "system %q: a job failed in step %d", f.en.name, step)
	}
	if len(f.skipped) > 0 {
		err.Detail.Skipped = f.skipped
		err.Msg += "; blocked by it (not merged): " + quoteList(f.skipped)
	}
	return err
}

// joinOne is errs joined, or the one error alone.
func joinOne(errs []error) error {
	if len(errs) == 1 {
		return errs[0]
	}
	return errors.Join(errs...)
}

func quoteList(names []string) string {
	var b strings.Builder
	for i, n := range names {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(`"` + n + `"`)
	}
	return b.String()
}
