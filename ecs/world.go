package ecs

import (
	"errors"
	"hash/maphash"
	"reflect"
	"slices"
	"sync"
	"unsafe"

	ark "github.com/mlange-42/ark/ecs"
	"github.com/weft-engine/weft/internal/seam"
	"github.com/weft-engine/weft/safety"
)

// Options configure a World.
type Options struct {
	// NoChecks turns off the checked mode: the declaration checks of
	// column views and the checksums of read-only columns. The build tag
	// weft_nochecks does the same at compile time.
	NoChecks bool
}

// World is an Ark world with a registry of declared access. All its
// methods are executed only by the owner goroutine; jobs touch the world
// only through a Chunk and its tokens.
type World struct {
	ark    *ark.World
	unsafe ark.Unsafe
	reg    safety.Registry
	checks bool
	seed   maphash.Seed

	comps   map[reflect.Type]compInfo // registered component types
	res     map[reflect.Type]safety.Key
	names   [256]string // component name by Ark ID index
	layouts [256]layout // component layout by Ark ID index
	types   [256]reflect.Type
	digests DigestMode     // what chunk jobs keep of their writes (digest.go)
	refs    [256]string    // a component's first field that holds a pointer, which snapshots refuse
	resList []resourceCopy // the resources, in the order added, for snapshots
	excl    Decl           // DigestAll's digest (digest_writes.go)

	decls    []*Decl
	spawners []batchSpawner
	tags     uint32 // buffer uses started, for their placeholders' tags

	inFrame    bool
	frame      uint64
	owner      seam.Owner[*Decl] // the engine's frames, if an engine drives this world (seam_world.go)
	slots      []runSlot         // by participant: the system its pass job runs (seam.go)
	all        *ark.Filter0      // matches everything; its query is the frame's guard
	guard      ark.Query0
	queries    []*queryBase // prepared this frame
	allQueries []*queryBase // every query built, for snapshots of their ticks

	mu   sync.Mutex // guards errs: jobs report into it
	errs []error

	streams     map[reflect.Type]any // event streams, *stream[T] by T
	streamOrder []eventStream        // the same, in creation order
	steps       uint64               // steps started (StartStep)

	rows rowRecord    // what moved where in the tables, for the row followers (rows.go)
	vers versFollower // change versions, a row follower (changed.go)
	bits bitsFollower // on/off bits by row, a row follower (enable_rows.go)

	watched      [256]bool      // components that change filters watch, by ID index
	ticks        uint64         // change ticks: one per Prepare and per commands' mark
	lookupWrites []*lookupWrite // every write lookup, for change detection (lookup.go)

	enabled    [256]*enableBits // enableable components' bits, by ID index (enable.go)
	enableList []*enableBits    // the same, in the order made
	enabler    [256]func()      // makes the component enableable (enabledOf), by ID index: for Load

	rels    []*relKind    // relation kinds, in the order declared (relation.go)
	relByID [256]*relKind // the same, by their Link column's ID index

	obs       *observers // nil until an observer observes something (observe.go)
	observing *Decl      // the observer playback is calling; owner only, read by the seam
	evSeg     int        // the segment the next EndFrame ends (observe_events.go)
	evDue     bool       // the next EndFrame observes events

	active   []*Commands  // EndFrame scratch
	hashEnts []ark.Entity // Hash scratch
	ids      []ark.ID
	report   Report
	pb       playback
}

type compInfo struct {
	id  ark.ID
	key safety.Key
}

// NewWorld makes an empty world.
func NewWorld(opts Options) *World {
	w := &World{
		ark:    ark.NewWorld(),
		checks: checksCompiled && !opts.NoChecks,
		seed:   maphash.MakeSeed(),
		comps:  map[reflect.Type]compInfo{},
		res:    map[reflect.Type]safety.Key{},

		streams: map[reflect.Type]any{},
	}
	w.unsafe = w.ark.Unsafe()
	w.startRows()
	w.vers.at = w.rows.follow(&w.vers)
	w.bits.w = w
	w.bits.at = w.rows.follow(&w.bits)
	w.all = ark.NewFilter0(w.ark)
	return w
}

// Ark is the underlying Ark world, for setting it up with Ark's own API
// (maps, batches). Executed only by the owner, outside of frames: while a
// frame is in progress Ark panics on structural changes.
func (w *World) Ark() *ark.World { return w.ark }

// Registry names the world's keys, for the safety package.
func (w *World) Registry() *safety.Registry { return &w.reg }

// SetChecks turns the checked mode on or off (a no-op under the build tag
// weft_nochecks), e.g. from a debug hotkey. Executed only by the owner,
// outside of frames: jobs read the flag without synchronisation.
func (w *World) SetChecks(on bool) error {
	if w.inFrame {
		return w.lockedErr("SetChecks")
	}
	w.checks = checksCompiled && on
	return nil
}

// InFrame reports whether a frame is in progress.
func (w *World) InFrame() bool { return w.inFrame }

// lockedErr is the error of a build-time or structural call during a frame.
func (w *World) lockedErr(what string) *Error {
	return errorf(ErrLocked, "", "", "%s while a frame is in progress (jobs may be in flight); with an engine, do it between steps, in a system's Merge or an exclusive system; without one, before World.BeginFrame or after World.EndFrame; or record it in a Commands buffer", what)
}

// component registers T with Ark and the safety registry, once.
func component[T any](w *World) compInfo {
	return componentNamed[T](w, reflect.TypeFor[T]().Name())
}

// componentNamed registers T, once, under name.
func componentNamed[T any](w *World, name string) compInfo {
	tp := reflect.TypeFor[T]()
	if c, ok := w.comps[tp]; ok {
		return c
	}
	if w.inFrame {
		panic(w.lockedErr("registering component " + tp.String()))
	}
	id := ark.ComponentID[T](w.ark)
	key, err := w.reg.Register(name)
	if err != nil {
		panic(err)
	}
	c := compInfo{id: id, key: key}
	w.comps[tp] = c
	w.names[id.Index()] = name
	w.layouts[id.Index()] = layoutOf(tp)
	w.types[id.Index()] = tp
	w.refs[id.Index()] = pointerField(tp, name)
	w.enabler[id.Index()] = func() { enabledOf[T](w) }
	return c
}

// Component is a registered component type, for recording commands.
type Component[T any] struct {
	id   ark.ID
	name string
}

// NewComponent registers T (if it is new) and returns its handle. Every
// component type must be registered before the first frame: Ark cannot
// register types while the world is locked. Executed only by the owner,
// outside of frames; during a frame it panics with ErrLocked.
func NewComponent[T any](w *World) Component[T] {
	c := component[T](w)
	return Component[T]{id: c.id, name: w.names[c.id.Index()]}
}

// AddResource adds res as the world's resource of type T, once per type.
// A system that declares a resource (ReadRes, WriteRes) needs it added
// before engine.Build. Executed only by the owner, outside of frames.
func AddResource[T any](w *World, res *T) error {
	if w.inFrame {
		return w.lockedErr("AddResource")
	}
	if res == nil {
		return errorf(ErrBadArgument, "", reflect.TypeFor[T]().String(), "AddResource(nil): pass a pointer to the %v value", reflect.TypeFor[T]())
	}
	resourceKey[T](w)
	if r := ark.NewResource[T](w.ark); r.Has() {
		return errorf(ErrBadArgument, "", reflect.TypeFor[T]().String(), "AddResource: the world already has a resource %v; add each resource type once (engine.New adds engine.Time, Input and Camera)", reflect.TypeFor[T]())
	}
	ark.AddResource(w.ark, res)
	tp := reflect.TypeFor[T]()
	w.resList = append(w.resList, resourceCopy{typ: tp, ptr: unsafe.Pointer(res), refs: pointerField(tp, tp.Name()), lay: layoutOf(tp)})
	return nil
}

// GetResource is the world's resource of type T, nil if it has none.
// Executed only by the owner, outside of frames (setup code, an exclusive
// system, a run condition); a system reads it through its token.
func GetResource[T any](w *World) *T { return ark.GetResource[T](w.ark) }

func resourceKey[T any](w *World) safety.Key {
	tp := reflect.TypeFor[T]()
	if k, ok := w.res[tp]; ok {
		return k
	}
	k, err := w.reg.Register("resource " + tp.Name())
	if err != nil {
		panic(err)
	}
	w.res[tp] = k
	return k
}

// BeginFrame starts the parallel phase: it locks the world against
// structural change with a guard query that stays open until EndFrame.
// Executed only by the owner.
func (w *World) BeginFrame() error {
	if w.inFrame {
		return w.lockedErr("BeginFrame")
	}
	w.guard = w.all.Query()
	w.inFrame = true
	w.frame++
	return nil
}

// EndFrame ends the parallel phase and plays back every Commands buffer
// recorded in it, ordered by (system order, query, chunk, sequence). It
// returns the playback report, valid until the next EndFrame, and the
// errors that jobs reported (wrong column views, writes through read
// declarations), joined. Executed only by the owner, after every job of
// the frame has finished (pool.Wait gives the happens-before edge).
func (w *World) EndFrame() (*Report, error) {
	if !w.inFrame {
		return nil, errorf(ErrBadArgument, "", "", "EndFrame without BeginFrame; call BeginFrame first")
	}
	w.guard.Close()
	w.inFrame = false
	w.active = w.active[:0]
	for _, q := range w.queries {
		for _, b := range q.bufs[:len(q.chunks)] {
			if len(b.cmds) > 0 {
				w.active = append(w.active, b)
			}
		}
	}
	w.queries = w.queries[:0]
	w.markLookupWrites()
	for _, d := range w.decls {
		for _, b := range d.bufs {
			if len(b.cmds) > 0 {
				w.active = append(w.active, b)
			}
		}
	}
	slices.SortFunc(w.active, (*Commands).compare)
	w.playAll(w.active)
	w.mu.Lock()
	err := errors.Join(distinct(w.errs)...)
	clear(w.errs)
	w.errs = w.errs[:0]
	w.mu.Unlock()
	return &w.report, err
}

// NewCommands makes a buffer for structural changes made by the owner
// outside of frames, applied with Apply.
func (w *World) NewCommands() *Commands { return w.newCommands(nil, -1, 0) }

// Apply plays b back now and resets it. The report is valid until the next
// Apply or EndFrame: it lists the commands skipped (ErrBadCommand, for
// a dead entity or a missing component, which a game meets in normal
// play; Report.Err sums them up). The error is what the playback did
// wrong: Spawn placeholders that did not resolve (Report.Unresolved,
// ErrUnresolved) and observers' failures. During a frame it returns an
// error with ErrLocked and applies nothing. Executed only by the owner.
func (w *World) Apply(b *Commands) (*Report, error) {
	if w.inFrame {
		return nil, w.lockedErr("Apply")
	}
	if w.playing() {
		return nil, errorf(ErrLocked, "", "", "Apply during a playback (from an observer); record the changes in Observed.Commands, which plays in the same playback")
	}
	w.active = append(w.active[:0], b)
	w.playAll(w.active)
	err := errors.Join(w.report.Observers...)
	if u := w.report.Unresolved(); u != nil { // a bug, as in a step (engine WEFT-G009)
		err = errors.Join(u, err)
	}
	return &w.report, err
}

// refuse records err, found inside a job or a frame, for EndFrame and
// panics with it: the pool reports the job failed, the engine the
// Schedule. Any goroutine may call it.
func (w *World) refuse(err *Error) {
	w.fail(err)
	panic(err)
}

// distinct is errs without the repeats of a message, in their order: the
// chunk jobs of one pass that make the same mistake report it once.
// Executed only by the owner, in EndFrame, on the error path.
func distinct(errs []error) []error {
	if len(errs) < 2 {
		return errs
	}
	var out []error
	seen := map[string]bool{}
	for _, err := range errs {
		if msg := err.Error(); !seen[msg] {
			seen[msg] = true
			out = append(out, err)
		}
	}
	return out
}

// fail records an error found inside a job, for EndFrame. Any goroutine
// may call it; the mutex orders it before EndFrame's read.
func (w *World) fail(err *Error) {
	w.mu.Lock()
	w.errs = append(w.errs, err)
	w.mu.Unlock()
}
