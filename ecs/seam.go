package ecs

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	ark "github.com/mlange-42/ark/ecs"
	"github.com/weft-engine/weft/internal/seam"
	"github.com/weft-engine/weft/safety"
)

// The access seam. Every token (Reader, Writer, LookupReader,
// LookupWriter, Emitter, EventReader, ResReader, ResWriter, EnabledReader,
// EnabledWriter, RelationReader, RelationWriter, and a
// system's command buffers) is one use: a record in its system's Decl,
// made when the token is declared at build time, of what it reaches and
// how. Every call through a token checks that record in one place,
// against the system that runs the caller:
//
//   - a call that takes the job's chunk (Column, Emit, In, LookupWriter.Get)
//     against the chunk's system (use.in);
//   - any other call (lookups, resources, EventReader.Events, EmitOwner,
//     Decl.Commands) against the system that the engine says the calling
//     goroutine runs (engine's seam: its Owner, and the participants' slots): a job's system on a
//     participant that runs one of its passes, the system in Schedule or
//     Merge on the owner, none outside a step (use.here).
//
// A token of another system is refused with ErrUndeclared, naming both
// systems, the token and the call that declares it; a zero token (never
// made) with ErrBadArgument in every mode, before it is dereferenced.
// The engine reads the records once, at Build, as plain data
// (seam_world.go, System) for ordering, chaining and Explain, by their
// reach, so a new kind of token is a line
// in kinds and its calls to in or here: the engine needs no change unless
// the kind reaches in a new way.

// kind is a kind of token.
type kind uint8

// The kinds of token.
const (
	kindRead kind = iota
	kindWrite
	kindReadLookup
	kindWriteLookup
	kindReadRes
	kindWriteRes
	kindEmit
	kindEvents
	kindCommands
	kindReadEnabled
	kindWriteEnabled
	kindReadRelation
	kindWriteRelation
	numKinds
)

// kinds describe each kind: its reach and mode, whether the safety checks
// see its key, its token's name (%s: the type) and the fix for a system
// that used another's (%[1]q: that system, %[2]s: the type).
var kinds = [numKinds]struct {
	reach      seam.Reach
	mode       safety.Mode
	safety     bool
	token, fix string
}{
	kindRead:          {seam.Rows, safety.Read, true, "Reader[%s]", declareIn + "ecs.Read[%[2]s]" + useIt},
	kindWrite:         {seam.Rows, safety.Write, true, "Writer[%s]", declareIn + "ecs.Write[%[2]s]" + useIt},
	kindReadLookup:    {seam.AnyRow, safety.Read, true, "LookupReader[%s]", declareIn + "ecs.ReadLookup[%[2]s]" + useIt},
	kindWriteLookup:   {seam.AnyRow, safety.Write, true, "LookupWriter[%s]", declareIn + "ecs.WriteLookup[%[2]s]" + useIt},
	kindReadRes:       {seam.Whole, safety.Read, true, "ResReader[%s]", declareIn + "ecs.ReadRes[%[2]s]" + useIt},
	kindWriteRes:      {seam.Whole, safety.Write, true, "ResWriter[%s]", declareIn + "ecs.WriteRes[%[2]s]" + useIt},
	kindEmit:          {seam.Emits, safety.Write, false, "Emitter[%s]", declareIn + "ecs.Emit[%[2]s]" + useIt},
	kindEvents:        {seam.Reads, safety.Read, false, "EventReader[%s]", declareIn + "ecs.ReadEvents[%[2]s]" + useIt},
	kindReadEnabled:   {seam.Rows, safety.Read, true, "EnabledReader[%s]", declareIn + "ecs.ReadEnabled[%[2]s]" + useIt},
	kindWriteEnabled:  {seam.Rows, safety.Write, true, "EnabledWriter[%s]", declareIn + "ecs.WriteEnabled[%[2]s]" + useIt},
	kindReadRelation:  {seam.Rows, safety.Read, true, "RelationReader[%s]", declareIn + "ecs.ReadRelation[%[2]s]" + useIt},
	kindWriteRelation: {seam.AnyRow, safety.Write, true, "RelationWriter[%s]", declareIn + "ecs.WriteRelation[%[2]s]" + useIt},
	kindCommands:      {seam.Buffers, safety.Write, false, "command buffers%.0s", "record in %[1]q's own buffers: Commands(job) of the Decl of its Builder (b.Decl()), kept from its Build%.0[2]s"},
}

const (
	declareIn = "declare it in %[1]q with "
	useIt     = "(b.Decl()) and use that token"
)

// use is one token's record in its system's declaration.
type use struct {
	on   *bool // its world's checked mode, read by here without a call
	d    *Decl
	kind kind
	mode safety.Mode
	key  safety.Key
	typ  string  // the type it reaches, for errors
	id   ark.ID  // the component (columns, lookups)
	size uintptr // a row's size (columns)
}

// declare records a use of kind k of key by d's system. Executed only by
// the owner, at build time.
func (d *Decl) declare(k kind, key safety.Key, typ string) *use {
	if d.w.inFrame {
		d.fail(d.w.lockedErr("declaring access of system " + d.name))
	}
	if d.obs != nil {
		if err := notInObserver(d.name, k, typ); err != nil {
			d.fail(err)
		}
	}
	u := &use{on: &d.w.checks, d: d, kind: k, mode: kinds[k].mode, key: key, typ: typ}
	if kinds[k].safety {
		d.access.Add(key, u.mode)
		if i := d.sharedWith(u); i >= 0 { // one declaration of the component, the stronger mode
			d.decls[i].Mode = max(d.decls[i].Mode, u.mode)
		} else {
			d.decls = append(d.decls, safety.Decl{Key: key, Mode: u.mode})
		}
	}
	d.uses = append(d.uses, u)
	return u
}

// sharedWith is the index in d.decls of the declaration that u shares:
// a component's on/off state (enable.go) and its column are one key for
// the safety checks, so a system that declares both declares it once.
// So are a relation's read and change (relationPair).
// It is -1 when u declares its key alone (a second column token of one
// component stays a second declaration, which the checks refuse).
func (d *Decl) sharedWith(u *use) int {
	for _, o := range d.uses {
		if o.key == u.key && (isEnabled(o.kind) != isEnabled(u.kind) && isColumn(o.kind) && isColumn(u.kind) || relationPair(o.kind, u.kind)) {
			return slices.IndexFunc(d.decls, func(x safety.Decl) bool { return x.Key == u.key })
		}
	}
	return -1
}

// relationPair reports whether a and b are a read and a change of one
// relation: the change plays back after the step, so reading the links
// and changing them in one system is one declaration, a write.
func relationPair(a, b kind) bool {
	return a != b && (a == kindReadRelation || a == kindWriteRelation) && (b == kindReadRelation || b == kindWriteRelation)
}

func isEnabled(k kind) bool { return k == kindReadEnabled || k == kindWriteEnabled }

// isColumn reports whether k reaches the rows of a component of the
// chunk: a column or its on/off state.
func isColumn(k kind) bool {
	return k == kindRead || k == kindWrite || k == kindReadRelation || isEnabled(k)
}

func (u *use) token() string { return fmt.Sprintf(kinds[u.kind].token, shown(u.kind, u.typ)) }

// fix is what to change when system by used u without declaring it.
func (u *use) fix(by string) string { return fmt.Sprintf(kinds[u.kind].fix, by, shown(u.kind, u.typ)) }

// shown is typ, a token's type, as a user writes it in the token's name
// and declaration: a relation's kind (ChildOf), not its column
// (Link[ChildOf]).
func shown(k kind, typ string) string {
	if k == kindReadRelation || k == kindWriteRelation {
		return strings.TrimSuffix(strings.TrimPrefix(typ, "Link["), "]")
	}
	return typ
}

// in checks a call through u from the job of chunk c, in every mode: the
// token must be of c's system, and c of a frame in progress. Executed
// only by the job that owns c.
func (u *use) in(c *Chunk) {
	if c == nil {
		panic(errorf(ErrBadArgument, u.d.name, u.typ, "%s of system %q was given a nil chunk; pass the calling job's chunk", u.token(), u.d.name))
	}
	if c.q.d != u.d {
		u.foreign(c.q.d)
	}
	if !c.q.w.inFrame {
		u.d.w.reject(errorf(ErrBadArgument, c.q.d.name, u.typ, "%s of system %q was used with a chunk of a frame that has ended; a chunk is valid only in its own job, during its frame", u.token(), c.q.d.name))
	}
}

// inOrder checks, as in, a call through u that writes what chunks share,
// which the pass must then run as one job (engine Builder.ChunksInOrder); else it refuses
// the call with ErrRacyWrite and the text of format (%q: the system, %s:
// the type). Executed only by the job that owns c.
func (u *use) inOrder(c *Chunk, format string) {
	u.in(c)
	if !c.inOrder {
		u.d.w.refuse(errorf(ErrRacyWrite, c.q.d.name, u.typ, format, c.q.d.name, u.typ))
	}
}

// here checks a call through u that takes no chunk, in checked mode,
// against the system that runs the caller (engine's seam: its Owner, and the participants' slots). Without
// an engine (a world driven by hand) nothing says who runs it, and it
// passes. It is small enough to inline, so that a lookup with checks off
// pays one load and a branch. Called by any goroutine.
func (u *use) here() {
	if checksCompiled && *u.on {
		u.running()
	}
}

// running is here's check in checked mode. Called by any goroutine.
func (u *use) running() {
	w := u.d.w
	by := w.observing // set only while playback, on the owner, calls an observer
	if by == nil {
		if w.owner == nil {
			return
		}
		by = w.runningDecl()
	}
	switch {
	case by == u.d:
	case by != nil:
		u.foreign(by)
	case w.inFrame:
		w.reject(errorf(ErrUndeclared, "", u.typ, "%s of system %q was used from a goroutine that runs no job of the step; use a token only in the jobs, Schedule and Merge of the system that declared it", u.token(), u.d.name))
	}
}

// runSlot is what one participant runs: the system of its pass job,
// padded to a cache line so that participants do not share one.
type runSlot struct {
	d *Decl
	_ [56]byte
}

// enter records, in checked mode under an engine, that participant worker
// runs a job of d's system, and returns what it ran before. Executed only
// by the participant worker, at the start of a pass job's body.
func (w *World) enter(worker int, d *Decl) *Decl {
	if !checksCompiled || !w.checks || worker >= len(w.slots) {
		return nil
	}
	s := &w.slots[worker]
	prev := s.d
	s.d = d
	return prev
}

// leave undoes enter. Executed only by the participant worker, at the end
// of the body.
func (w *World) leave(worker int, prev *Decl) {
	if checksCompiled && w.checks && worker < len(w.slots) {
		w.slots[worker].d = prev
	}
}

// runningDecl is the declaration of the system whose code the calling
// goroutine runs: a pass job's system on the participant that runs it
// (checked mode), else, on the owner, the system in Schedule or Merge
// (Owner.Running). Called by any goroutine under an engine; a participant
// reads only its own slot.
func (w *World) runningDecl() *Decl {
	i := w.owner.Participant()
	if i >= 0 && i < len(w.slots) {
		if d := w.slots[i].d; d != nil {
			return d
		}
	}
	if i <= 0 {
		return w.owner.Running()
	}
	return nil
}

// foreign refuses a call through u by system by, which did not declare
// it. Any goroutine.
func (u *use) foreign(by *Decl) {
	u.d.w.reject(errorf(ErrUndeclared, by.name, u.typ,
		"%s %q used %s of %s %q; a token works only in the %[4]s that declared it: %[6]s",
		by.role, by.name, u.token(), u.d.role, u.d.name, u.fix(by.name)))
}

// zero refuses a call through the zero token of kind k and type T (of
// a relation's token, T is the kind, R): one that was never made.
// Called by any goroutine.
func zero[T any](k kind) {
	typ := reflect.TypeFor[T]().String()
	if k == kindReadRelation || k == kindWriteRelation {
		typ = reflect.TypeFor[T]().Name()
	}
	panic(errorf(ErrBadArgument, "", typ, "the zero %s, a token that was never made, was used; make it in the system's Build with %s and keep that value",
		fmt.Sprintf(kinds[k].token, typ), strings.TrimSuffix(fmt.Sprintf(kinds[k].fix, "", typ)[len(`declare it in "" with `):], " and use that token")))
}

// reject panics with err, a refusal of the seam; inside a job it also
// records it for EndFrame (refuse), since the pool reports the job's
// panic only as a failure. On the owner, the engine's recover of
// Schedule or Merge reports it, and outside a step it is the caller's.
// Any goroutine.
func (w *World) reject(err *Error) {
	if w.inFrame && (w.owner == nil || w.owner.InJob()) {
		w.refuse(err)
	}
	panic(err)
}
