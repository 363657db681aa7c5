package ecs

import (
	"cmp"
	"slices"
	"sync"
	"sync/atomic"
	"unsafe"

	ark "github.com/mlange-42/ark/ecs"
	"github.com/weft-engine/weft/safety"
)

// Digests of what each system writes, for replays: two runs whose systems
// write the same values have the same digests, system by system, so the
// first system whose digest differs is the first whose writes differ.
//
// A chunk job adds, after it ran, one number per row of each column its
// query declares written: a mix of the entity, the component and the
// value's plain-data leaves (the layout World.Hash uses). A sum of those
// does not depend on how the rows were cut into chunks or which worker
// ran them, so the digest is the same for every worker count and batch
// size. Writes through lookups, to resources and by commands, and an
// exclusive system's, are added as digest_writes.go says.

// DigestMode says what the chunk jobs keep of their writes.
type DigestMode uint8

// The digest modes.
const (
	DigestOff     DigestMode = iota
	DigestOn                 // a digest per system
	DigestCapture            // and every written row's value, to say which one differs
)

// Written is one row a system wrote in a step, kept under DigestCapture.
type Written struct {
	Entity    Entity
	Component string
	Value     any    // a copy of the component's value after the system's job
	Sum       uint64 // the row's part of the digest: equal values, equal sums
}

// digest is a system's digest of the current step and, under
// DigestCapture, the rows behind it. Chunk jobs add to it concurrently.
type digest struct {
	sum  atomic.Uint64
	mu   sync.Mutex // guards rows: jobs append to it
	rows []Written
	cmds uint64 // its commands, mixed in playback order; owner only (digest_writes.go)
}

// take returns the digest and the captured rows (sorted by entity, then
// component, then sum), and starts the next step's. Executed only by the owner,
// between frames.
func (g *digest) take() (uint64, []Written) {
	rows := g.rows
	slices.SortFunc(rows, func(a, b Written) int {
		if c := cmp.Compare(entityKey(a.Entity), entityKey(b.Entity)); c != 0 {
			return c
		}
		if c := cmp.Compare(a.Component, b.Component); c != 0 {
			return c
		}
		return cmp.Compare(a.Sum, b.Sum) // a row written twice (two passes): in a fixed order
	})
	g.rows = nil
	sum := g.sum.Swap(0)
	if g.cmds != 0 {
		sum, g.cmds = sum+fmix(g.cmds), 0
	}
	return sum, rows
}

// setDigests sets what chunk jobs keep of their writes from the next frame
// on. Executed only by the owner, outside of frames: jobs read the mode
// without synchronisation.
func (w *World) setDigests(m DigestMode) error {
	if w.inFrame {
		return w.lockedErr("SetDigests")
	}
	w.digests = m
	return nil
}

// takeDigest returns the system's digest since the last call and, under
// DigestCapture, the rows it wrote. Executed only by the owner, between
// frames.
func (d *Decl) takeDigest() (uint64, []Written) {
	d.digestLookups()
	return d.digest.take()
}

// digest adds the chunk's written columns to its system's digest.
// Executed only by the job that ran c, right after it.
func (c *Chunk) digest() {
	q := c.q
	ents := q.tables[c.table].ents[c.start:c.end]
	var sum uint64
	for i := range q.cols {
		col := q.cols[i]
		base := q.tables[c.table].cols[i]
		if col.mode != safety.Write || base == nil {
			continue
		}
		l := &q.w.layouts[col.id.Index()]
		p := unsafe.Add(base, uintptr(c.start)*col.size)
		for _, e := range ents {
			s := l.rowSum(entityKey(e), col.id, p)
			sum += s
			if q.w.digests == DigestCapture {
				q.capture(e, col.id, p, s)
			}
			p = unsafe.Add(p, col.size)
		}
	}
	q.d.digest.sum.Add(sum + c.switchedSum(ents))
}

// capture keeps a copy of the value at p, written to e's component id.
// Called by any job of q's system; slow, for finding a divergence.
func (q *queryBase) capture(e ark.Entity, id ark.ID, p unsafe.Pointer, sum uint64) {
	q.d.keep(e, q.w.names[id.Index()], q.w.types[id.Index()], p, sum)
}

// rowSum mixes an entity, a component and the value at p, leaf by leaf
// (a component of plain 8-byte words word by word): two equal values give
// the same sum on every run, padding aside.
func (l *layout) rowSum(key uint64, id ark.ID, p unsafe.Pointer) uint64 {
	h := mix(key ^ uint64(id.Index())<<56)
	if l.words > 0 {
		for i := range l.words {
			h = mix(h ^ *(*uint64)(unsafe.Add(p, i*8)))
		}
		return fmix(h)
	}
	for _, f := range l.leaves {
		q := unsafe.Add(p, f.off)
		switch {
		case f.str:
			s := *(*string)(q)
			h = mix(h ^ uint64(len(s)))
			for i := range len(s) {
				h = mix(h ^ uint64(s[i]))
			}
		case f.size == 1:
			h = mix(h ^ uint64(*(*uint8)(q)))
		case f.size == 2:
			h = mix(h ^ uint64(*(*uint16)(q)))
		case f.size == 4:
			h = mix(h ^ uint64(*(*uint32)(q)))
		default:
			h = mix(h ^ *(*uint64)(q))
		}
	}
	return fmix(h)
}

// mix stirs a word into a running hash (a multiply-xorshift round).
func mix(h uint64) uint64 {
	h *= 0x9E3779B97F4A7C15
	return h ^ h>>29
}

// fmix is SplitMix64's finaliser: every input bit reaches every output bit,
// so that sums of rows do not cancel by accident.
func fmix(h uint64) uint64 {
	h = (h ^ h>>30) * 0xBF58476D1CE4E5B9
	h = (h ^ h>>27) * 0x94D049BB133111EB
	return h ^ h>>31
}

// denseWords is the number of 8-byte words of a type made only of 8-byte
// numbers, back to back from offset 0 (no padding, no strings), or 0.
func (l *layout) denseWords(size uintptr) int {
	if size == 0 || size%8 != 0 || uintptr(len(l.leaves))*8 != size {
		return 0
	}
	for i, f := range l.leaves {
		if f.str || f.size != 8 || f.off != uintptr(i)*8 {
			return 0
		}
	}
	return int(size / 8)
}

// Digest is a digest of the entities that have every component of comps
// and of those components' values, like Hash, but cheaper: a sum over
// entities of a mix of each one and its components' plain-data leaves,
// word by word, so it needs no sort. Equal contents give equal digests on
// every run and machine; its values are not Hash's. A replay records it
// after every step. During a frame it answers ErrLocked; a component
// with a pointer-like field, ErrBadArgument. Executed only by the
// owner, outside of frames.
func (w *World) Digest(comps ...Comp) (uint64, error) {
	if w.inFrame {
		return 0, w.lockedErr("World.Digest")
	}
	ids := idsOf(comps)
	for _, id := range ids {
		if l := &w.layouts[id.Index()]; l.opaque != "" {
			return 0, errorf(ErrBadArgument, "", w.names[id.Index()], "World.Digest cannot digest %s: its field %s refers to memory outside the component; digest the components that hold plain data", w.names[id.Index()], l.opaque)
		}
	}
	var sum, n uint64
	q := ark.NewUnsafeFilter(w.ark, ids...).Query()
	for q.Next() {
		e := q.Entity()
		k := entityKey(e)
		sum += fmix(mix(k))
		for _, id := range ids {
			sum += w.layouts[id.Index()].rowSum(k, id, q.Get(id)) + w.enabledSum(k, id, e)
		}
		n++
	}
	return sum ^ fmix(n), nil
}
