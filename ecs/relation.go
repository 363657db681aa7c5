package ecs

import (
	"fmt"
	"reflect"
	"unsafe"

	ark "github.com/mlange-42/ark/ecs"
)

// Relations: an entity points at another, its target, under a relation
// kind R (ChildOf: its parent; a game's own, such as "follows"). The
// target is a column of the entity, Link[R], that only weft writes: a
// system reads it through a RelationReader (a column of its queries, so
// a relation is read where the rows are), and changes it through a
// RelationWriter's commands, played back after the step like every
// structural change, or from owner code between steps (SetTarget).
//
// Ark's own relation components keep one table per target, so a
// hierarchy of many small families would become as many tables of a few
// rows, too small for chunk jobs, and a snapshot keyed by component set
// could not tell them apart. A column keeps every child of a kind in one
// table, split into chunks like any other, and its bytes (target and
// depth) are in snapshots, save files and World.Hash with no extra code.
//
// The world keeps, per kind, the children of each target (relindex.go):
// a despawned target takes its children with it or leaves them detached
// (the kind's Policy), in one function of playback, despawnTree, so no
// entity points at a dead one; and each link keeps its depth (1 under a
// root), which a pass by depth reads (AtDepth) so that parents are
// finished before their children.

// Policy is what happens to an entity when its target is despawned.
type Policy uint8

const (
	// DespawnChildren despawns the entity too, and its own children, depth
	// first in the order of their entities (ChildOf's policy).
	DespawnChildren Policy = iota
	// Detach removes the entity's link: it stays, with no target.
	Detach
)

// ChildOf is the hierarchy: its target is the parent. Despawning a
// parent despawns its children (DespawnChildren).
type ChildOf struct{}

// Link is the column of relation kind R: the entity's target and its
// depth (1 for the child of an entity that has no link of R). Only weft
// writes it; read it through a RelationReader.
type Link[R any] struct {
	target Entity
	depth  int32
}

// Target is the entity's target; it is alive whenever a system reads it.
func (l Link[R]) Target() Entity { return l.target }

// Depth is the number of links from the entity up to a root (1 for a
// root's child).
func (l Link[R]) Depth() int { return int(l.depth) }

// String shows the link in inspections.
func (l Link[R]) String() string {
	return fmt.Sprintf("{target: %d (generation %d), depth: %d}", l.target.ID(), l.target.Gen(), l.depth)
}

// NewRelation declares relation kind R with its policy; ChildOf is
// declared on first use with DespawnChildren, its only policy (Detach
// answers ErrBadArgument). A kind is declared once, before tokens and
// targets of it: another call answers ErrBadArgument.
// Executed only by the owner, outside of frames.
func NewRelation[R any](w *World, p Policy) error {
	if w.inFrame {
		return w.lockedErr("ecs.NewRelation")
	}
	if p > Detach {
		return errorf(ErrBadArgument, "", reflect.TypeFor[R]().String(), "ecs.NewRelation with policy %d: pass ecs.DespawnChildren or ecs.Detach", p)
	}
	if tp := reflect.TypeFor[R](); tp == reflect.TypeFor[ChildOf]() && p != DespawnChildren {
		return errorf(ErrBadArgument, "", tp.String(), "ecs.NewRelation[ecs.ChildOf] with policy Detach: ChildOf is built in, and despawning a parent despawns its children (DespawnChildren); declare a relation type of your own for Detach, e.g. type Follows struct{} and ecs.NewRelation[Follows](w, ecs.Detach)")
	}
	if rk := w.relOf(reflect.TypeFor[R]()); rk != nil {
		return errorf(ErrBadArgument, "", rk.name, "relation %s is declared already (once per kind; ChildOf on its first use); declare a kind once, before any token of it", rk.name)
	}
	newRelKind[R](w, p)
	return nil
}

// relation is the kind R of w, declared on first use for ChildOf (not
// while the world is locked, by a frame or an open iteration); nil for
// a kind never declared.
func relation[R any](w *World) *relKind {
	tp := reflect.TypeFor[R]()
	if rk := w.relOf(tp); rk != nil {
		return rk
	}
	if tp == reflect.TypeFor[ChildOf]() && !w.inFrame && !w.ark.IsLocked() {
		return newRelKind[R](w, DespawnChildren)
	}
	return nil
}

func (w *World) relOf(tp reflect.Type) *relKind {
	for _, rk := range w.rels {
		if rk.rel == tp {
			return rk
		}
	}
	return nil
}

// newRelKind registers R's link column under R's name. Executed only by
// the owner, outside of frames.
func newRelKind[R any](w *World, p Policy) *relKind {
	tp := reflect.TypeFor[R]()
	c := componentNamed[Link[R]](w, "Link["+tp.Name()+"]")
	rk := &relKind{rel: tp, name: tp.Name(), id: c.id, policy: p, children: map[Entity][]Entity{}}
	w.rels = append(w.rels, rk)
	w.relByID[c.id.Index()] = rk
	return rk
}

// undeclared is the error of a token or call of a kind never declared.
func undeclared[R any]() *Error {
	tp := reflect.TypeFor[R]()
	return errorf(ErrBadArgument, "", tp.String(), "relation %v is not declared; declare it once with ecs.NewRelation[%v](w, ecs.DespawnChildren or ecs.Detach) before the engine's Build", tp, tp.Name())
}

// RelationReader is the token of a declared read of relation R: a column
// of Link[R] for the system's queries (pass it to NewQueryN, or to
// Optional to include entities without a target), which also reads the
// depth of rows and the components of their targets.
type RelationReader[R any] struct{ Reader[Link[R]] }

// RelationWriter is the token of a declared change of relation R: it
// records, in a command buffer, setting or removing an entity's target,
// played back after the step.
type RelationWriter[R any] struct {
	u *use
}

// ReadRelation declares that d's system reads relation R (a read of
// Link[R]): it runs after the systems that change R in the same step.
// Executed only by the owner, at build time.
func ReadRelation[R any](d *Decl) RelationReader[R] {
	if relation[R](d.w) == nil {
		d.fail(undeclared[R]())
	}
	return RelationReader[R]{Reader[Link[R]]{newColumn[Link[R]](d, kindReadRelation)}}
}

// WriteRelation declares that d's system changes relation R (a write of
// Link[R] over the whole world, like a write lookup's). Executed only by
// the owner, at build time.
func WriteRelation[R any](d *Decl) RelationWriter[R] {
	if relation[R](d.w) == nil {
		d.fail(undeclared[R]())
	}
	return RelationWriter[R]{u: newColumn[Link[R]](d, kindWriteRelation)}
}

// AtDepth is the chunk's rows whose link is at depth d (0: rows with no
// link, in an Optional column's table that lacks it), in row order, in
// the chunk's own slice that On and Off of enable.go share. A pass per
// depth over AtDepth finishes every parent before its children. Executed
// only by the job that owns c.
func (r RelationReader[R]) AtDepth(c *Chunk, d int) []int {
	if r.u == nil {
		zero[R](kindReadRelation)
	}
	links := r.Column(c)
	dst := c.rowBuf()
	if links == nil {
		if d != 0 {
			return dst[:0]
		}
		for i := range dst {
			dst[i] = i
		}
		return dst
	}
	n, want := 0, int32(d)
	for i := range links { // branch-free: depths mix within a chunk
		dst[n] = i
		n += b2i(links[i].depth == want)
	}
	return dst[:n]
}

// depths reports whether q's system reads a relation, whose AtDepth
// needs the query's row buffer (sizeRowBuf).
func (q *queryBase) depths() bool {
	for _, u := range q.d.uses {
		if u.kind == kindReadRelation {
			return true
		}
	}
	return false
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Depths is one more than the deepest link of R in the world: the number
// of passes by depth that cover every entity, roots included. Called by
// the system's Schedule (the world changes links only at playback) or by
// the owner outside a step.
func (r RelationReader[R]) Depths() int {
	if r.u == nil {
		zero[R](kindReadRelation)
	}
	r.u.here()
	rk := r.u.d.w.relByID[r.u.id.Index()]
	return rk.maxDepth() + 1
}

// Target is e's target of R, and whether it has one (none for an entity
// that is not alive). Called, as Depths, by the system's Schedule or
// Merge, by the observer that declared r in its call, or by the owner
// outside a step: links change only at playback.
func (r RelationReader[R]) Target(e Entity) (Entity, bool) {
	if r.u == nil {
		zero[R](kindReadRelation)
	}
	r.u.here()
	w := r.u.d.w
	if isPlaceholder(e) || !w.ark.Alive(e) {
		return Entity{}, false
	}
	if l := w.link(w.relByID[r.u.id.Index()], e); l != nil {
		return l.target, true
	}
	return Entity{}, false
}

// Children appends to dst the entities whose target of R is e, in the
// order of their ids. Called as Target.
func (r RelationReader[R]) Children(e Entity, dst []Entity) []Entity {
	if r.u == nil {
		zero[R](kindReadRelation)
	}
	r.u.here()
	return append(dst, r.u.d.w.relByID[r.u.id.Index()].children[e]...)
}

// Targets reads component T of the targets of a chunk's rows: made by
// TargetsOf for one chunk, used by its job.
type Targets[T any] struct {
	w     *World
	id    ark.ID
	links []Link[struct{}]
}

// TargetsOf reads, for the job of chunk c, component T of the targets of
// the chunk's rows under relation r, through col, a column token of T of
// the same system. The system declared T, so other systems are ordered
// around it; inside the system a target's row must not be written by a
// job that runs beside this one: read targets one depth up, in a pass
// per depth (AtDepth). Executed only by the job that owns c.
func TargetsOf[T, R any](col Col[T], r RelationReader[R], c *Chunk) Targets[T] {
	cu := col.token()
	switch {
	case cu == nil:
		zero[T](kindRead)
	case r.u == nil:
		zero[R](kindReadRelation)
	}
	cu.in(c)
	links := r.Column(c)
	return Targets[T]{w: c.q.w, id: cu.id, links: *(*[]Link[struct{}])(unsafe.Pointer(&links))}
}

// Get is the T of row's target, and true; false if the row has no target
// (a row of a table without the link) or the target has no T. Executed
// only by the job that owns the chunk.
func (t Targets[T]) Get(row int) (v T, ok bool) {
	if row < 0 || row >= len(t.links) {
		return v, false
	}
	e := t.links[row].target
	if !t.w.ark.Alive(e) || !t.w.unsafe.HasUnchecked(e, t.id) {
		return v, false
	}
	return *(*T)(t.w.unsafe.GetUnchecked(e, t.id)), true
}

// Set records setting child's target to target (placeholders of Spawn
// resolve). At playback a target that is dead, the child itself or one
// of its descendants is skipped as a problem (ErrBadCommand). Executed
// only by the job (or owner) that owns b; the token must be of b's
// system.
func (rw RelationWriter[R]) Set(b *Commands, child, target Entity) {
	rw.check(b)
	b.relate(rw.u.id, child, target)
}

// relate records setting child's target under the link column id.
func (b *Commands) relate(id ark.ID, child, target Entity) {
	b.targets = append(b.targets, target)
	b.push(command{op: opRelate, id: id, e: child, val: int32(len(b.targets) - 1)})
}

// Remove records removing child's link of R; a child without one is
// skipped as a problem.
func (rw RelationWriter[R]) Remove(b *Commands, child Entity) {
	rw.check(b)
	b.push(command{op: opUnrelate, id: rw.u.id, e: child})
}

func (rw RelationWriter[R]) check(b *Commands) {
	if rw.u == nil {
		zero[R](kindWriteRelation)
	}
	if b == nil {
		panic(errorf(ErrBadArgument, rw.u.d.name, rw.u.typ, "%s of system %q was given a nil command buffer; pass Chunk.Commands or Decl.Commands", rw.u.token(), rw.u.d.name))
	}
	if b.d != nil && b.d != rw.u.d {
		rw.u.foreign(b.d)
	}
}

// Relate records, in b, a buffer of the owner's (World.NewCommands),
// setting child's target of R: setup code that spawns a hierarchy in one
// buffer, placeholders and all. It answers ErrBadArgument for an
// undeclared R or a system's buffer, whose system records through its
// own RelationWriter. Executed only by the owner.
func Relate[R any](b *Commands, child, target Entity) error {
	if b == nil || b.d != nil {
		return errorf(ErrBadArgument, "", reflect.TypeFor[R]().String(), "ecs.Relate records only in the owner's buffers (World.NewCommands); a system records through the RelationWriter it declared (ecs.WriteRelation)")
	}
	rk := relation[R](b.w)
	if rk == nil {
		return undeclared[R]()
	}
	b.relate(rk.id, child, target)
	return nil
}

// SetTarget sets e's target of relation R now: ErrNotFound if e or
// target is not alive, ErrBadArgument if R is not declared or target is
// e or one of its descendants (a cycle), ErrLocked from an observer
// (its changes go through its commands). Executed only by the owner,
// outside of frames.
func SetTarget[R any](w *World, e, target Entity) error {
	if err := w.notPlaying("ecs.SetTarget"); err != nil {
		return err
	}
	rk, err := ownerRel[R](w, "ecs.SetTarget", e)
	if err != nil {
		return err
	}
	if isPlaceholder(target) || !w.ark.Alive(target) {
		return errorf(ErrNotFound, "", rk.name, "ecs.SetTarget: target %v is not alive; a target must be alive", target)
	}
	if why := w.relate(rk, e, target); why != "" {
		return errorf(ErrBadArgument, "", rk.name, "ecs.SetTarget of %v to %v: %s", e, target, why)
	}
	return nil
}

// RemoveTarget removes e's link of R, if it has one; ErrLocked from an
// observer, as SetTarget. Executed only by the owner, outside of frames.
func RemoveTarget[R any](w *World, e Entity) error {
	if err := w.notPlaying("ecs.RemoveTarget"); err != nil {
		return err
	}
	rk, err := ownerRel[R](w, "ecs.RemoveTarget", e)
	if err == nil {
		w.unrelate(rk, e)
	}
	return err
}

// TargetOf is e's target of relation R, and whether it has one. Executed
// only by the owner, outside of frames; an observer reads through the
// RelationReader it declares (ErrUndeclared otherwise, as ecs.Get).
func TargetOf[R any](w *World, e Entity) (Entity, bool, error) {
	rk, err := ownerRel[R](w, "ecs.TargetOf", e)
	if err != nil || !w.unsafe.HasUnchecked(e, rk.id) {
		return Entity{}, false, err
	}
	return (*Link[R])(w.unsafe.GetUnchecked(e, rk.id)).target, true, nil
}

// ChildrenOf appends to dst the entities whose target of R is e, in the
// order of their ids. Executed only by the owner, outside of frames; an
// observer reads through its RelationReader, as for TargetOf.
func ChildrenOf[R any](w *World, e Entity, dst []Entity) ([]Entity, error) {
	rk, err := ownerRel[R](w, "ecs.ChildrenOf", e)
	if err != nil {
		return dst, err
	}
	return append(dst, rk.children[e]...), nil
}

// notPlaying refuses a structural change made now (what) while a
// playback runs, from an observer: the playback is walking the tables it
// would move. Executed only by the owner.
func (w *World) notPlaying(what string) error {
	if w.playing() {
		return errorf(ErrLocked, "", "", "%s during a playback (from an observer); record the change in Observed.Commands through a RelationWriter the observer declares (ecs.WriteRelation), which plays in the same playback", what)
	}
	return nil
}

// ownerRel checks an owner call of what on e: outside a frame, R
// declared, e alive.
func ownerRel[R any](w *World, what string, e Entity) (*relKind, error) {
	if w.inFrame {
		return nil, w.lockedErr(what)
	}
	rk := relation[R](w)
	switch {
	case w.observing != nil:
		tp := reflect.TypeFor[R]()
		return nil, errorf(ErrUndeclared, w.observing.name, tp.String(), "observer %q called %s, which reaches what the observer did not declare; declare ecs.ReadRelation[%v] in its Build and read through that token's Target and Children", w.observing.name, what, tp)
	case rk == nil:
		return nil, undeclared[R]()
	case isPlaceholder(e) || !w.ark.Alive(e):
		return nil, errorf(ErrNotFound, "", rk.name, "%s of entity %v, which is not alive (despawned, or never spawned)", what, e)
	}
	return rk, nil
}

// link is e's link of kind rk, nil if it has none. Executed only by the
// owner.
func (w *World) link(rk *relKind, e Entity) *Link[struct{}] {
	if !w.unsafe.HasUnchecked(e, rk.id) {
		return nil
	}
	// Link[R] has one layout for every R.
	return (*Link[struct{}])(unsafe.Pointer(w.unsafe.GetUnchecked(e, rk.id)))
}
