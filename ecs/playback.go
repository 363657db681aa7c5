package ecs

import (
	"fmt"
	"slices"
	"unsafe"

	ark "github.com/mlange-42/ark/ecs"

	"github.com/weft-engine/weft/internal/fault"
)

// Report is the outcome of a playback.
type Report struct {
	Applied  int       // commands applied
	Observed int       // observer calls
	Problems []Problem // commands skipped, in playback order
	// Observers are the observers' failures (ErrObserver) and a cut
	// cascade (ErrObserverCascade), in the order met.
	Observers []error

	pb *playback // the world's playback state, for Spawned
}

// Problem is a command that could not be applied as recorded: it was
// skipped (ErrBadCommand, or ErrUnresolved for a placeholder as its
// entity), or applied with the zero entity in place of a placeholder in
// its value that did not resolve (ErrUnresolved). The commands around it
// still applied.
type Problem struct {
	Code   fault.Code
	System string // the system that recorded it ("" for the owner's buffers)
	Chunk  int    // the chunk or job of its buffer
	Seq    int    // its position in the buffer
	Op     string // spawn, despawn, add, set, remove, switch on, switch off
	Entity ark.Entity
	Reason string
}

func (r *Report) reset() {
	r.Applied, r.Observed = 0, 0
	r.Problems = r.Problems[:0]
	clear(r.Observers)
	r.Observers = r.Observers[:0]
}

// Spawned is the entity that e, a Spawn placeholder of a buffer that
// this report's playback played, became; e itself if it is not a
// placeholder. The entity is the one its spawn made, even if a later
// command of the playback despawned it. The report is the world's and
// answers for its last playback: ask after World.Apply, before the
// world's next playback (Apply or step) and before a Restore or Load,
// which forget it. A placeholder that no buffer of the playback made is
// ErrUnresolved, as are the placeholder of a spawn past its buffer's first
// 262,143 (Commands.Spawn) and a call from inside a playback (an observer).
// A placeholder names its buffer by a tag of 14 bits, which buffers
// reuse: one kept from an older buffer or taken from another world may
// carry the tag of a buffer this playback played, and then names that
// buffer's spawn; ask with the placeholders of the buffers just applied.
// Executed only by the owner.
func (r *Report) Spawned(e Entity) (Entity, error) {
	switch {
	case !isPlaceholder(e):
		return e, nil
	case r.pb != nil && r.pb.b != nil:
		return Entity{}, errorf(ErrUnresolved, "", "", "Report.Spawned(%v) during a playback (from an observer): its spawns are not all made yet; ask after World.Apply returns, or record what needs the entity in Observed.Commands, where the placeholder resolves", e)
	case r.pb != nil:
		if got, why := r.pb.resolve(e); why == "" {
			return got, nil
		}
	}
	return Entity{}, errorf(ErrUnresolved, "", "", "Report.Spawned(%v): no buffer of the report's playback spawned it (the placeholder of another buffer, or of a buffer played before the world's last playback, Restore or Load); ask the report of the World.Apply that played its buffer, before the world's next Apply, step, Restore or Load", e)
}

// by names who recorded the problem's command: a system, an observer, or
// the owner (a World.NewCommands buffer, played by World.Apply).
func (p Problem) by() string {
	if p.System == "" {
		return "the owner (a World.NewCommands buffer)"
	}
	return fmt.Sprintf("system %q", p.System)
}

// Err is an *Error summarising the problems, with the first one's code,
// or nil.
func (r *Report) Err() error {
	if len(r.Problems) == 0 {
		return nil
	}
	p := r.Problems[0]
	if p.Code == ErrUnresolved {
		return &Error{Code: p.Code, System: p.System, Msg: fmt.Sprintf(
			"%d commands had problems; the first: %s of %v by %s (buffer %d, command %d): %s",
			len(r.Problems), p.Op, p.Entity, p.by(), p.Chunk, p.Seq, p.Reason)}
	}
	return &Error{Code: ErrBadCommand, System: p.System, Msg: fmt.Sprintf(
		"%d commands were skipped; the first: %s of %v by %s (buffer %d, command %d): %s; record commands only for entities that are alive when the buffer plays, and check components with the previous frame's state",
		len(r.Problems), p.Op, p.Entity, p.by(), p.Chunk, p.Seq, p.Reason)}
}

// Unresolved is an *Error (ErrUnresolved) summarising the problems of
// placeholders that did not resolve, or nil if there are none: unlike a
// command skipped for a dead entity, which a game meets in normal play,
// it is a bug in the systems that recorded it.
func (r *Report) Unresolved() error {
	n, first := 0, -1
	for i, p := range r.Problems {
		if p.Code == ErrUnresolved {
			n++
			if first < 0 {
				first = i
			}
		}
	}
	if n == 0 {
		return nil
	}
	p := r.Problems[first]
	return &Error{Code: p.Code, System: p.System, Msg: fmt.Sprintf(
		"%d Spawn placeholders did not resolve; the first: %s of %v by %s (buffer %d, command %d): %s",
		n, p.Op, p.Entity, p.by(), p.Chunk, p.Seq, p.Reason)}
}

// playback is the state of one playback (EndFrame or Apply): the
// entities its spawns made, in playback order, and where the spawns of
// each buffer played so far are, so that a placeholder resolves in any
// buffer that plays after its own.
//
// Playback resolves placeholders in the entity of each command and in the
// ark.Entity fields of recorded component values (Add, Set, Spawner
// values), nested structs and arrays included. It cannot see entities in
// slices, maps, pointers, interfaces or resources: a placeholder stored
// there stays a placeholder, which every later use through ecs reports
// (a command's problem, Get's error) and Ark finds dead.
type playback struct {
	spawned []ark.Entity
	played  map[uint32]span // by buffer tag
	r       *Report
	b       *Commands // the buffer playing
	off     int       // its first spawn in spawned
	i       int       // the command playing
}

// forget drops what the last playback spawned, so that Report.Spawned
// answers for none of it. Executed only by the owner, in Restore (and
// Load, which restores).
func (p *playback) forget() {
	clear(p.played)
	p.spawned = p.spawned[:0]
}

// span is a played buffer's spawns in playback.spawned; n < 0 marks a tag
// that two buffers of the playback share, whose placeholders are refused.
type span struct{ off, n int }

// playAll plays the buffers in order into w.report. Executed only by the
// owner, with the world unlocked.
func (w *World) playAll(bufs []*Commands) {
	p := &w.pb
	w.report.reset()
	p.r, p.spawned = &w.report, p.spawned[:0]
	w.report.pb = p
	if p.played == nil {
		p.played = map[uint32]span{}
	}
	clear(p.played)
	if w.evDue {
		w.evDue = false
		if w.obs != nil {
			w.observeEvents()
		}
	}
	for _, b := range bufs {
		w.play(b)
	}
	if w.obs != nil {
		w.playObservers()
	}
	p.b = nil
}

// play applies b's commands in order and resets it. Executed only by the
// owner, in playAll.
func (w *World) play(b *Commands) {
	p := &w.pb
	p.b, p.off = b, len(p.spawned)
	for i := 0; i < len(b.cmds); i++ {
		p.i = i
		from, applied := i, true
		switch b.cmds[i].op {
		case opSpawn:
			i = w.spawn(b, i)
		case opSpawnBatch:
			i = w.spawnBatch(b, i)
		default:
			if applied = w.playOnEntity(b, i); applied {
				p.r.Applied++
			}
		}
		if w.digests != DigestOff {
			w.digestCommand(b, from, i, applied)
		}
	}
	s := span{p.off, len(p.spawned) - p.off}
	if _, shared := p.played[b.tag]; shared {
		s.n = -1
	}
	p.played[b.tag] = s
	b.reset()
}

// spawnBatch plays the run of batch spawns of one spawner that starts at
// i, and returns the index of the last one. Executed only by the owner,
// in play.
func (w *World) spawnBatch(b *Commands, i int) int {
	c := &b.cmds[i]
	j := i
	for j+1 < len(b.cmds) && b.cmds[j+1].op == opSpawnBatch && b.cmds[j+1].aux == c.aux {
		j++
	}
	first := len(w.pb.spawned)
	w.spawners[c.aux].play(b, int(c.val), j-i+1)
	w.pb.r.Applied += j - i + 1
	if w.obs != nil {
		for _, e := range w.pb.spawned[first:] {
			w.notifyAdded(e)
		}
	}
	return j
}

// playOnEntity applies the command at i to its entity (despawn, add, set,
// remove) and reports whether it applied; a command that cannot apply is
// recorded as a problem. Executed only by the owner, in play.
func (w *World) playOnEntity(b *Commands, i int) bool {
	c := &b.cmds[i]
	u := w.unsafe
	e, why := w.pb.resolve(c.e)
	if why != "" {
		w.problem(ErrUnresolved, why)
		return false
	}
	if !w.ark.Alive(e) {
		w.problem(ErrBadCommand, "the entity is not alive (despawned, or never spawned)")
		return false
	}
	switch c.op {
	case opDespawn:
		w.despawnTree(e)
		return true
	case opRelate, opUnrelate:
		return w.playRelation(b, c, e)
	}
	if w.relByID[c.id.Index()] != nil {
		w.problem(ErrBadCommand, "a relation's "+w.names[c.id.Index()]+" is written only through a RelationWriter or ecs.Relate, which keep the children and depths; record the change through them")
		return false
	}
	switch c.op {
	case opRemove:
		return w.remove(e, c.id)
	case opEnable, opDisable:
		return w.playSwitch(c, e)
	}
	had := u.HasUnchecked(e, c.id)
	switch {
	case c.op == opSet && !had:
		w.problem(ErrBadCommand, "the entity has no "+w.names[c.id.Index()]+"; add it first")
		return false
	case !had:
		w.ids = append(w.ids[:0], c.id)
		u.Add(e, w.ids...)
	}
	w.setValue(b, c, e)
	w.touch(e, c.id, !had)
	if w.obs != nil {
		t := OnSet
		if !had {
			t = OnAdd
		}
		w.notify(t, e, c.id)
	}
	return true
}

// remove applies a Remove of component id from e, alive, after calling
// its OnRemove observers, and reports whether it applied. Executed only
// by the owner, in play.
func (w *World) remove(e ark.Entity, id ark.ID) bool {
	if !w.unsafe.HasUnchecked(e, id) {
		w.problem(ErrBadCommand, "the entity has no "+w.names[id.Index()]+" to remove")
		return false
	}
	if w.obs != nil {
		w.notify(OnRemove, e, id)
		if !w.ark.Alive(e) || !w.unsafe.HasUnchecked(e, id) {
			return true
		}
	}
	w.ids = append(w.ids[:0], id)
	w.unsafe.Remove(e, w.ids...)
	return true
}

// despawnTree despawns e and applies, to the entities that e is the
// target of, their kinds' policies: DespawnChildren despawns them the
// same way, depth first in the order of their entities; Detach removes
// their links, as a command would (unlink), while e is still alive.
// Every despawn of playback goes through here, so each
// entity of a hierarchy is despawned once, children before parents, and
// no link is left pointing at a dead entity. Executed only by the owner,
// in playback.
func (w *World) despawnTree(e ark.Entity) {
	if w.obs != nil { // before anything of it goes: its links, its children
		w.notifyDespawn(e)
	}
	w.unlinkDead(e)
	for _, rk := range w.rels {
		kids := rk.children[e]
		if len(kids) == 0 {
			continue
		}
		delete(rk.children, e)
		for _, k := range kids {
			if !w.ark.Alive(k) { // despawned through another kind already
				continue
			}
			if rk.policy == DespawnChildren {
				w.despawnTree(k)
				continue
			}
			w.unlink(rk, k)
		}
	}
	w.ark.RemoveEntity(e)
}

// playRelation applies a relation command c to e, alive, and reports
// whether it applied. Executed only by the owner, in play.
func (w *World) playRelation(b *Commands, c *command, e ark.Entity) bool {
	rk := w.relByID[c.id.Index()]
	if c.op == opUnrelate {
		if !w.unlink(rk, e) {
			w.problem(ErrBadCommand, "the entity has no target of "+rk.name+" to remove")
			return false
		}
		return true
	}
	t, why := w.pb.resolve(b.targets[c.val])
	switch {
	case why != "":
		w.problem(ErrUnresolved, "its target: "+why)
		return false
	case !w.ark.Alive(t):
		w.problem(ErrBadCommand, "its target "+fmt.Sprint(t)+" is not alive")
		return false
	}
	had := w.link(rk, e) != nil
	if why := w.relate(rk, e, t); why != "" {
		w.problem(ErrBadCommand, why)
		return false
	}
	if w.obs != nil {
		tr := OnSet
		if !had {
			tr = OnAdd
		}
		w.notify(tr, e, rk.id)
	}
	return true
}

// unlink removes e's link of rk, if it has one, after calling the
// OnRemove observers of its Link column, and reports whether it had one.
// Executed only by the owner, in playback.
func (w *World) unlink(rk *relKind, e ark.Entity) bool {
	if w.link(rk, e) == nil {
		return false
	}
	if w.obs != nil {
		w.notify(OnRemove, e, rk.id)
	}
	return w.unrelate(rk, e)
}

// setValue copies command c's recorded value into e's component and
// resolves the placeholders in it. Executed only by the owner, in play.
func (w *World) setValue(b *Commands, c *command, e ark.Entity) {
	b.stores[c.id.Index()].apply(w.unsafe, e, c.id, c.val)
	if len(w.layouts[c.id.Index()].ents) > 0 {
		w.resolveFields(c.id, w.unsafe.GetUnchecked(e, c.id))
	}
}

// spawn creates the entity of the spawn at i with the components of the
// adds that directly follow it, and returns the index of the last command
// it used. Executed only by the owner, in play.
func (w *World) spawn(b *Commands, i int) int {
	ph := b.cmds[i].e
	j := i + 1
	w.ids = w.ids[:0]
	for ; j < len(b.cmds) && b.cmds[j].op == opAdd && b.cmds[j].e == ph; j++ {
		if !slices.Contains(w.ids, b.cmds[j].id) {
			w.ids = append(w.ids, b.cmds[j].id)
		}
	}
	e := w.unsafe.NewEntity(w.ids...)
	w.pb.spawned = append(w.pb.spawned, e)
	for k := i + 1; k < j; k++ {
		w.pb.i = k
		w.setValue(b, &b.cmds[k], e)
	}
	w.pb.r.Applied += j - i
	if w.obs != nil {
		w.notifyAdded(e)
	}
	return j - 1
}

// resolve maps a placeholder to the entity its spawn made, in the buffer
// playing or in one played before it in this playback (after it, in one
// it played: Report.Spawned); it returns why not if it cannot. Any other
// entity is itself. Executed only by the owner.
func (p *playback) resolve(e ark.Entity) (ark.Entity, string) {
	if !isPlaceholder(e) {
		return e, ""
	}
	tag, n := e.Gen()>>spawnBits, int(e.Gen()&(maxSpawns-1))
	if n == maxSpawns-1 {
		return e, fmt.Sprintf("the placeholder of a spawn past the first %d of its buffer; spread the spawns over more buffers (jobs or chunks)", maxSpawns-1)
	}
	s := span{p.off, len(p.spawned) - p.off}
	if p.b == nil || tag != p.b.tag { // after the playback (Report.Spawned): only played buffers
		s = p.played[tag] // the zero span if its buffer has not played
	}
	switch {
	case s.n < 0:
		return e, "a Spawn placeholder whose tag two buffers of this playback share (one chance in 16384); pass the entity in a later frame, once it is real"
	case n >= s.n:
		return e, "a Spawn placeholder that no buffer played so far in this playback made: its buffer plays later, played in an earlier frame, or belongs to another world; use a placeholder only in its own buffer and in buffers that play after it in the same frame"
	}
	return p.spawned[s.off+n], ""
}

// resolveFields replaces the placeholders in the entity fields of the
// value at v, of component id. One that does not resolve becomes the zero
// entity, and a problem. Executed only by the owner, in play.
func (w *World) resolveFields(id ark.ID, v unsafe.Pointer) {
	l := &w.layouts[id.Index()]
	for k, off := range l.ents {
		f := (*ark.Entity)(unsafe.Add(v, off))
		e, why := w.pb.resolve(*f)
		if why != "" {
			w.problem(ErrUnresolved, fmt.Sprintf("its %s holds %v, %s; the field was set to the zero entity", l.entNames[k], *f, why))
			e = ark.Entity{}
		}
		*f = e
	}
}

// problem records the command playing as a problem. Executed only by the
// owner, in play.
func (w *World) problem(code fault.Code, reason string) {
	p := &w.pb
	c := &p.b.cmds[p.i]
	pr := Problem{Code: code, Chunk: p.b.index, Seq: p.i, Op: opNames[c.op], Entity: c.e, Reason: reason}
	if p.b.d != nil {
		pr.System = p.b.d.name
	}
	p.r.Problems = append(p.r.Problems, pr)
}
