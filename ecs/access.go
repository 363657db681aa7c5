package ecs

import (
	"errors"
	"reflect"
	"slices"
	"unsafe"

	ark "github.com/mlange-42/ark/ecs"
	"github.com/weft-engine/weft/safety"
)

// Decl is one system's declaration of what it reads and writes. Systems
// get it from World.System at build time; tokens and queries are made from
// it. Executed only by the owner.
type Decl struct {
	w      *World
	name   string
	order  int
	seg    int // the engine's segment of the step it runs in (observe_events.go)
	decls  []safety.Decl
	access safety.Access
	err    []error
	nq     int         // queries built on it
	bufs   []*Commands // system-level buffers, by job
	res    []resource  // the resources it declared, checked by Err

	uses     []*use         // every token it declared: the access seam (seam.go)
	cmds     *use           // its command buffers' use (Commands)
	emitters []emitter      // its emissions, sized by its queries
	digest   digest         // what its chunk jobs wrote this step (digest.go)
	wres     []reflect.Type // the resources it declares written, for its digest (digest_writes.go)
	role     string         // "system", or "observer" (observe.go), for errors
	obs      *observer      // an observer's: its function and buffers
}

// resource is a declared resource: its type and whether the world has it.
type resource struct {
	typ reflect.Type
	has func() bool
}

// System makes the declaration of a system named name. Its order in
// command playback is its creation order until the engine sets its
// built order.
func (w *World) System(name string) *Decl {
	d := &Decl{w: w, name: name, order: len(w.decls), role: "system"}
	if w.inFrame {
		d.fail(w.lockedErr("World.System"))
	}
	d.cmds = &use{on: &w.checks, d: d, kind: kindCommands, mode: safety.Write}
	w.decls = append(w.decls, d)
	return d
}

// Name is the system's name.
func (d *Decl) Name() string { return d.name }

// Err returns the problems found while declaring (tokens from another
// system, declarations during a frame, resources the world does not have
// yet, an observer of events that no system emits), joined; nil if there
// were none. Call it after every system's declarations, as the engine's
// Build does for an observer.
func (d *Decl) Err() error {
	errs := slices.Clip(d.err)
	if d.obs != nil && len(d.obs.observes) == 0 {
		errs = append(errs, errorf(ErrBadArgument, d.name, "", "observer %q observes nothing, so nothing would call it; in its Build call ecs.Observe[T](b.Decl(), trigger) or ecs.ObserveEvent[T](b.Decl())", d.name))
	}
	if d.obs != nil {
		errs = append(errs, d.obs.unheard()...)
	}
	for _, r := range d.res {
		if !r.has() {
			errs = append(errs, errorf(ErrNoResource, d.name, r.typ.String(),
				"system %q declares resource %v, which the world does not have; call ecs.AddResource(w, &%v{...}) before engine.Build (before or after engine.New)", d.name, r.typ, r.typ))
		}
	}
	return errors.Join(errs...)
}

func (d *Decl) fail(err error) { d.err = append(d.err, err) }

// Commands is the system's command buffer for its job number job (not a
// chunk job: those use Chunk.Commands). Its playback rank is (system
// order, before the system's queries, job). Executed only by the owner,
// while building the frame (in the system's Schedule, or Merge: then it
// plays back at the end of the next step's frame); the job then uses the
// buffer alone. Another system's Schedule, Merge or job is refused
// (ErrUndeclared), as for any token; a negative job with
// ErrBadArgument.
func (d *Decl) Commands(job int) *Commands {
	if d == nil {
		panic(errorf(ErrBadArgument, "", "", "Commands of a nil *ecs.Decl; use the Decl of the system's Builder (b.Decl()), kept from Build"))
	}
	d.cmds.here()
	if d.obs != nil {
		d.w.refuse(errorf(ErrBadArgument, d.name, "", "Commands(%d) of observer %q: an observer records into Observed.Commands, which plays in the same playback", job, d.name))
	}
	if job < 0 {
		d.w.refuse(errorf(ErrBadArgument, d.name, "", "Commands(%d) of system %q: the job number must be at least 0", job, d.name))
	}
	for len(d.bufs) <= job {
		d.bufs = append(d.bufs, d.w.newCommands(d, -1, len(d.bufs)))
	}
	return d.bufs[job]
}

// Col is a column token of component T, a Reader or a Writer: it declares
// the access and selects the query's columns.
type Col[T any] interface {
	Column(c *Chunk) []T
	token() *use
}

// Reader is the token of a declared read of component T.
type Reader[T any] struct{ u *use }

// Writer is the token of a declared write of component T.
type Writer[T any] struct{ u *use }

// newColumn declares a column use of T by d's system.
func newColumn[T any](d *Decl, k kind) *use {
	c := component[T](d.w)
	u := d.declare(k, c.key, d.w.names[c.id.Index()])
	var zero T
	u.id, u.size = c.id, unsafe.Sizeof(zero)
	return u
}

// Read declares that d's system reads component T.
func Read[T any](d *Decl) Reader[T] { return Reader[T]{newColumn[T](d, kindRead)} }

// Write declares that d's system reads and writes component T.
func Write[T any](d *Decl) Writer[T] { return Writer[T]{newColumn[T](d, kindWrite)} }

func (r Reader[T]) token() *use { return r.u }
func (w Writer[T]) token() *use { return w.u }

// Column is the chunk's rows of T, to read only: in checked mode a write
// is caught after the job by a checksum. It is nil for an Optional column
// that the chunk's table lacks. Executed only by the job that owns c.
func (r Reader[T]) Column(c *Chunk) []T { return columnOf[T](c, r.u, kindRead) }

// Column is the chunk's rows of T. Its capacity ends at the chunk's end,
// so appending cannot reach other rows. It is nil for an Optional column
// that the chunk's table lacks. A watched component (Changed, Added) is
// marked written in the chunk's blocks. Executed only by the job that owns
// c.
func (w Writer[T]) Column(c *Chunk) []T { return columnOf[T](c, w.u, kindWrite) }

func columnOf[T any](c *Chunk, u *use, k kind) []T {
	if u == nil {
		zero[T](k)
	}
	p := c.column(u)
	if p == nil {
		return nil
	}
	return unsafe.Slice((*T)(p), c.end-c.start)
}

// ResReader is the token of a declared read of resource T.
type ResReader[T any] struct {
	u *use
	r ark.Resource[T]
}

// ResWriter is the token of a declared write of resource T. A resource is
// one value for the whole world, so chunk jobs that run at the same time
// cannot all write it: see Get and In for where a write is allowed, and
// Reduction for summing chunk results into it.
type ResWriter[T any] struct {
	u *use
	r ark.Resource[T]
}

// newResource declares a use of resource T by d's system.
func newResource[T any](d *Decl, k kind) (*use, ark.Resource[T]) {
	u := d.declare(k, resourceKey[T](d.w), reflect.TypeFor[T]().String())
	r := ark.NewResource[T](d.w.ark)
	d.res = append(d.res, resource{reflect.TypeFor[T](), r.Has})
	return u, r
}

// ReadRes declares that d's system reads resource T.
func ReadRes[T any](d *Decl) ResReader[T] {
	u, r := newResource[T](d, kindReadRes)
	return ResReader[T]{u, r}
}

// WriteRes declares that d's system reads and writes resource T.
func WriteRes[T any](d *Decl) ResWriter[T] {
	u, r := newResource[T](d, kindWriteRes)
	d.wres = append(d.wres, reflect.TypeFor[T]())
	return ResWriter[T]{u, r}
}

// Get is a copy of the resource (the zero value if it is absent). Any job
// of the system may call it, and its Schedule and Merge, and the owner
// outside a step; the declaration orders it after the writers of other
// systems.
func (r ResReader[T]) Get() T {
	if r.u == nil {
		zero[T](kindReadRes)
	}
	r.u.here()
	if p := r.r.Get(); p != nil {
		return *p
	}
	var zero T
	return zero
}

// Get is the resource, nil if it is absent. Executed only by the owner,
// outside a frame: in a system's Merge, in an exclusive system's Run, or
// in setup code. Inside a frame (from a job, or from Schedule while other
// systems' jobs run) it is refused with ErrRacyWrite: the error goes to
// EndFrame and Get panics with it. A job writes the resource with In, from
// a pass that runs as one job, or sums into it with a Reduction.
func (r ResWriter[T]) Get() *T {
	if r.u == nil {
		zero[T](kindWriteRes)
	}
	r.u.here()
	if d := r.u.d; d.w.inFrame { // written only by the owner while no job runs
		d.w.refuse(errorf(ErrRacyWrite, d.name, r.u.typ,
			"system %q called ResWriter[%s].Get inside a frame, where jobs may run at the same time; in a job, collect per-chunk values with ecs.NewReduction and add them up in Merge, or run the pass as one job (engine Builder.ChunksInOrder) and use In(chunk); on the owner, write it in Merge", d.name, r.u.typ))
	}
	return r.r.Get()
}

// In is the resource, nil if it is absent, for the job of chunk c. The
// pass must run as one job over every chunk in chunk order (engine
// Builder.ChunksInOrder), so that no other job of the system writes
// it at the same time; otherwise In is refused with ErrRacyWrite (the
// error goes to EndFrame and In panics with it). Executed only by the job
// that owns c.
func (r ResWriter[T]) In(c *Chunk) *T {
	if r.u == nil {
		zero[T](kindWriteRes)
	}
	r.u.inOrder(c, "system %q wrote resource %s from a chunk job that may run beside other chunk jobs; collect per-chunk values with ecs.NewReduction and add them up in Merge, or run the pass as one job with engine Builder.ChunksInOrder")
	return r.r.Get()
}
