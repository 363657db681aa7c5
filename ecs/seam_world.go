package ecs

import (
	"reflect"
	"slices"
	"sync/atomic"

	ark "github.com/mlange-42/ark/ecs"
	"github.com/weft-engine/weft/internal/seam"
	"github.com/weft-engine/weft/jobs"
)

// The engine's seam (internal/seam): what package engine calls on a world
// and no user does. worldSeam implements it with the world's unexported
// parts, so ecs's exported types carry none of it; engine.New opens it.

func init() { seam.Register(openSeam) }

// engineSeam is the seam with ecs's types.
type engineSeam = seam.World[*Decl, AnyQuery, *Chunk, Written]

func openSeam(w *World) engineSeam { return worldSeam{w} }

// worldSeam is world w's side of the seam. Executed only by the owner,
// between frames unless a method says otherwise.
type worldSeam struct{ w *World }

var _ engineSeam = worldSeam{}

// SetOwner records the engine's side of the frames.
func (s worldSeam) SetOwner(o seam.Owner[*Decl]) { s.w.owner = o }

// System is d's declaration as data, at the end of its system's Build.
func (s worldSeam) System(d *Decl) seam.System {
	out := seam.System{Decls: slices.Clone(d.decls), Access: d.access}
	for _, u := range d.uses {
		out.Uses = append(out.Uses, seam.Use{Key: u.key, Mode: u.mode, Reach: kinds[u.kind].reach})
	}
	if d.obs != nil {
		out.Observes = slices.Clone(d.obs.observes)
	}
	return out
}

// Query is q as data; its ID is -1 if q is of another world, which
// Prepare then refuses.
func (s worldSeam) Query(q AnyQuery) seam.Query {
	b := q.base()
	out := seam.Query{ID: b.id}
	if b.w != s.w {
		out.ID = -1
	}
	for _, c := range b.cols {
		out.Columns = append(out.Columns, c.key)
	}
	for _, wt := range b.watches {
		out.Watched = append(out.Watched, wt.key)
	}
	return out
}

// Body is the body of a chunk pass over q that runs fn (seam.World.Body).
// In checked mode each chunk records, while fn runs, that its participant
// runs q's system, for the token checks that take no chunk (seam.go).
func (s worldSeam) Body(q AnyQuery, fn func(c *Chunk), inOrder bool, rows *atomic.Int64) (each, all jobs.Func) {
	b, w := q.base(), s.w
	counted := func(c *Chunk) {
		prev := w.enter(c.worker, b.d)
		fn(c)
		w.leave(c.worker, prev)
		rows.Add(int64(c.Len()))
	}
	if inOrder {
		return b.jobAll(counted, true), nil
	}
	return b.job(counted), b.jobAll(counted, false)
}

// RangeBody is the body of a range pass of d's system that runs fn,
// recorded as Body's chunks are.
func (s worldSeam) RangeBody(d *Decl, fn func(worker, lo, hi int)) jobs.Func {
	w := s.w
	return func(c *jobs.Ctx) {
		worker := c.Worker()
		prev := w.enter(worker, d)
		lo, hi := c.Range()
		fn(worker, lo, hi)
		w.leave(worker, prev)
	}
}

// Place sets d's rank in command playback (buffers of lower ranks play
// first) and the segment of the step it runs in, for the event observers
// (observe_events.go). Executed only by the owner, at build time.
func (s worldSeam) Place(d *Decl, order, segment int) { d.order, d.seg = order, segment }

// StartStep starts a step for every event stream, with no job in flight.
func (s worldSeam) StartStep() {
	w := s.w
	w.steps++
	for _, st := range w.streamOrder {
		st.rotate(w.steps)
	}
}

// BeginFrame begins the frame of segment of the step, whose jobs run on
// participants participants: its EndFrame observes the events of the
// systems of the segments up to it.
func (s worldSeam) BeginFrame(segment, participants int) error {
	w := s.w
	if err := w.BeginFrame(); err != nil {
		return err
	}
	w.evSeg, w.evDue = segment, true
	if len(w.slots) < participants {
		w.slots = make([]runSlot, participants)
	}
	clear(w.slots)
	return nil
}

// Prepare cuts query into this frame's chunks of at most batch rows and
// returns their rows, valid until its next Prepare. Executed only by the
// owner, inside the frame.
func (s worldSeam) Prepare(query, batch int) ([]int32, error) {
	w := s.w
	if query < 0 || query >= len(w.allQueries) {
		return nil, errorf(ErrBadArgument, "", "", "Prepare of a query of another world; build a system's queries on its own Decl")
	}
	q := w.allQueries[query]
	if _, err := q.prepare(batch); err != nil {
		return nil, err
	}
	q.lens = q.lens[:0]
	for i := range q.chunks {
		q.lens = append(q.lens, int32(q.chunks[i].Len()))
	}
	return q.lens, nil
}

// Aligned reports whether queries a and b, prepared this frame, cut it
// into the same chunks (queryBase.aligned).
func (s worldSeam) Aligned(a, b int) bool {
	qs := s.w.allQueries
	return a >= 0 && b >= 0 && a < len(qs) && b < len(qs) && qs[a].aligned(qs[b])
}

// SetDigests sets what chunk jobs keep of their writes from the next
// frame on (a DigestMode).
func (s worldSeam) SetDigests(mode uint8) error { return s.w.setDigests(DigestMode(mode)) }

// TakeDigest is what d's system wrote since the last call, and under
// DigestCapture its rows.
func (s worldSeam) TakeDigest(d *Decl) (uint64, []Written) { return d.takeDigest() }

// DigestMerged adds d's written resources, after its Merge, to its digest.
func (s worldSeam) DigestMerged(d *Decl) { d.digestMerged() }

// Components are the world's component types, those registered with Ark
// directly included.
func (s worldSeam) Components() []reflect.Type {
	var out []reflect.Type
	for _, id := range ark.ComponentIDs(s.w.ark) {
		if info, ok := ark.ComponentInfo(s.w.ark, id); ok {
			out = append(out, info.Type)
		}
	}
	return out
}

// DigestAll is a digest of the whole world, an exclusive system's.
func (s worldSeam) DigestAll() (uint64, []Written) { return s.w.digestAll() }
