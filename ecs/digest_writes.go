package ecs

import (
	"reflect"
	"slices"
	"unsafe"

	ark "github.com/mlange-42/ark/ecs"
)

// The writes a system makes besides its queries' written columns, and
// how each reaches its digest (digest.go):
//
//   - through a write lookup: the job that called LookupWriter.Get adds
//     the rows it got, with their values after the pass, when its last
//     chunk ends (a lookup writes only from a pass that runs as one job,
//     and a system's passes run one after another, so that job is the
//     only one of its system running); after each chunk instead, a row
//     reached from two chunks would count the value between them, which
//     the batch size decides;
//   - to a resource it declares written (WriteRes, In or Get, and
//     Reductions combined into it in Merge): its value after the
//     system's Merge, added by the owner (digestMerged);
//   - commands: each command its buffers played, in playback order (the
//     system's buffers play one after another, in chunk order), as the
//     op, the entity it reached or made and the component's value after
//     it applied, mixed in order, so that the same commands in another
//     order give another digest;
//   - an exclusive system: everything it can touch, the world's entities
//     with every component and every resource after its Run (DigestAll),
//     one pass over the world per exclusive system that ran.

// keep adds a written value to d's captured rows. Called by any job of
// d's system, or by the owner; slow, for finding a divergence.
func (d *Decl) keep(e ark.Entity, name string, typ reflect.Type, p unsafe.Pointer, sum uint64) {
	var v any
	if p != nil {
		v = reflect.NewAt(typ, p).Elem().Interface() // a copy
	}
	g := &d.digest
	g.mu.Lock()
	g.rows = append(g.rows, Written{Entity: e, Component: name, Value: v, Sum: sum})
	g.mu.Unlock()
}

// rowOf is the digest part of e's component id as it is now, kept under
// DigestCapture; 0 if e is dead or lacks it.
func (w *World) rowOf(d *Decl, e ark.Entity, id ark.ID) uint64 {
	if !w.ark.Alive(e) || !w.unsafe.HasUnchecked(e, id) {
		return 0
	}
	p := w.unsafe.GetUnchecked(e, id)
	s := w.layouts[id.Index()].rowSum(entityKey(e), id, p)
	if w.digests == DigestCapture && d != nil {
		d.keep(e, w.names[id.Index()], w.types[id.Index()], p, s)
	}
	return s
}

// digestLookups adds the rows d's jobs got through write lookups since
// the last call, as they are now. Executed only by the job of d's system
// that ran the pass, right after it (query.go), or by the owner between
// frames.
func (d *Decl) digestLookups() {
	var sum uint64
	for _, lw := range d.w.lookupWrites {
		if lw.d != d || len(lw.pend) == 0 {
			continue
		}
		for _, e := range lw.pend {
			sum += d.w.rowOf(d, e, lw.id)
		}
		lw.pend = lw.pend[:0]
	}
	if sum != 0 {
		d.digest.sum.Add(sum)
	}
}

// digestMerged adds to the system's digest the resources it declares
// written, as they are after its Merge, and any lookup rows not yet
// added. Executed only by the owner, after the system's Merge (or where
// it would run), before the next system's.
func (d *Decl) digestMerged() {
	w := d.w
	if w.digests == DigestOff {
		return
	}
	d.digestLookups()
	var sum uint64
	for _, t := range d.wres {
		sum += w.resourceRow(d, t)
	}
	d.digest.sum.Add(sum)
}

// resourceRow is the digest part of resource t's value, kept under
// DigestCapture; 0 if the world has no such resource.
func (w *World) resourceRow(d *Decl, t reflect.Type) uint64 {
	if i := slices.IndexFunc(w.resList, func(r resourceCopy) bool { return r.typ == t }); i >= 0 {
		return w.resourceRowAt(d, i)
	}
	return 0
}

// resourceRowAt is resourceRow of the i-th resource of w.resList.
func (w *World) resourceRowAt(d *Decl, i int) uint64 {
	r := &w.resList[i]
	s := r.lay.rowSum(resourceKey0+uint64(i), ark.ID{}, r.ptr)
	if w.digests == DigestCapture && d != nil {
		d.keep(ark.Entity{}, r.typ.String(), r.typ, r.ptr, s)
	}
	return s
}

// resourceKey0 keys resources in digests apart from every entity.
const resourceKey0 = 0xFFFF_FFFF_0000_0000

// digestCommand mixes the commands from..to of b, just played, into its
// system's command digest; applied says whether a command on an entity
// applied. Executed only by the owner, in play.
func (w *World) digestCommand(b *Commands, from, to int, applied bool) {
	d := b.d
	if d == nil {
		return // the owner's buffers: the owner's input, recorded by a replay
	}
	c := &b.cmds[from]
	h := mix(d.digest.cmds ^ uint64(c.op) + 1)
	switch {
	case c.op == opSpawn || c.op == opSpawnBatch:
		n := to - from + 1
		if c.op == opSpawn {
			n = 1
		}
		for _, e := range w.pb.spawned[len(w.pb.spawned)-n:] {
			h = mix(h ^ w.entityRow(d, e))
		}
	case !applied:
		h = mix(h ^ entityKey(c.e) ^ 0xBAD)
	default:
		e, _ := w.pb.resolve(c.e)
		h = mix(h ^ entityKey(e) ^ uint64(c.id.Index())<<56)
		switch c.op {
		case opAdd, opSet:
			h = mix(h ^ w.rowOf(d, e, c.id))
		case opDespawn:
			if w.digests == DigestCapture {
				d.keep(e, "despawned", nil, nil, h)
			}
		case opRemove:
			if w.digests == DigestCapture {
				d.keep(e, w.names[c.id.Index()]+" removed", nil, nil, h)
			}
		}
	}
	d.digest.cmds = h
}

// entityRow is a digest of e and every component it has, each kept under
// DigestCapture.
func (w *World) entityRow(d *Decl, e ark.Entity) uint64 {
	h := fmix(mix(entityKey(e)))
	ids := w.unsafe.IDs(e)
	for i := range ids.Len() {
		h += w.rowOf(d, e, ids.Get(i))
	}
	return h
}

// digestAll is a digest of the whole world, an exclusive system's: every
// entity with every component, and every resource, and under
// DigestCapture every row of it (an []ecs.Written). Executed only by the
// owner, between frames.
func (w *World) digestAll() (uint64, []Written) {
	d := &w.excl
	q := w.all.Query()
	for q.NextTable() {
		ents := q.Entities()
		ids := w.unsafe.IDs(ents[0])
		var keys uint64
		for _, e := range ents {
			keys += fmix(mix(entityKey(e)))
		}
		d.digest.sum.Add(keys)
		for k := range ids.Len() {
			id := ids.Get(k)
			if w.types[id.Index()] == nil {
				continue // registered with Ark directly: weft cannot read it
			}
			l, size := &w.layouts[id.Index()], w.types[id.Index()].Size()
			p := w.unsafe.GetUnchecked(ents[0], id)
			var sum uint64
			for _, e := range ents {
				s := l.rowSum(entityKey(e), id, p)
				sum += s
				if w.digests == DigestCapture {
					d.keep(e, w.names[id.Index()], w.types[id.Index()], p, s)
				}
				p = unsafe.Add(p, size)
			}
			d.digest.sum.Add(sum)
		}
	}
	for i := range w.resList {
		d.digest.sum.Add(w.resourceRowAt(d, i))
	}
	return d.digest.take()
}
