package ecs

import (
	ark "github.com/mlange-42/ark/ecs"
)

// The on/off bits of enableable components by table row (enable.go), in
// row order: bit r&63 of word r>>6 of a table's bits of T says that the
// entity in row r has T off. Jobs read and switch them; the owner keeps
// them in step with Ark's rows as a row follower (rows.go).
//
// The bits by entity id are the truth the row bits are rebuilt from.
// Before a query that reads or switches a state gets its chunks, the
// owner syncs each of its tables' records, which rebuilds the words of
// the blocks whose entities changed, and rewrites the row of every
// entity that the owner switched, or that a component or relation change
// moved, since then (an entity can leave a table and come back to the
// same row, which the comparison alone would not see). So the upkeep is
// in proportion to what moved, not to the rows, and a frame without
// structural changes costs nothing.
//
// Where Ark's layout is not the mirrored one (arkpool.go), the row of a
// switched entity cannot be found, and each pass builds its tables' bits
// afresh instead (a cost per row, the same result).

// tableBits are one table's row bits of every enableable component: the
// on/off bits' state as a row follower.
type tableBits struct {
	off [][]uint64 // by World.enableList index, by row
}

// bitsFollower keeps the row bits of every table that a pass reading or
// switching a state met.
type bitsFollower struct {
	w      *World
	at     int          // its index in rowTable.state
	tables int          // tables with row bits
	stale  []ark.Entity // entities whose row bits are to be rewritten from their ids'
}

// rowBits returns the up-to-date row bits of the table whose entities are
// ents (not empty), when q's system reads or switches a state; else nil.
// Executed only by the owner, in Prepare: no job of the frame reads the
// table's bits yet (a table that an earlier query of the frame prepared
// is up to date already, and nothing moves rows within a frame).
func (q *queryBase) rowBits(ents []ark.Entity) *tableBits {
	if !q.enables() {
		return nil
	}
	w := q.w
	f := &w.bits
	if _, err := w.arkStateOf(); err != nil {
		return f.build(ents) // a switched entity's row cannot be found
	}
	f.rewriteStale()
	rt := w.syncRows(ents, q.tick)
	if rt == nil {
		return f.build(ents)
	}
	tb, _ := rt.state[f.at].(*tableBits)
	if tb == nil {
		tb = f.build(rt.ents)
		rt.state[f.at] = tb
		f.tables++
	}
	return tb
}

// build is the row bits of the table whose entities are ents, every
// block built.
func (f *bitsFollower) build(ents []ark.Entity) *tableBits {
	tb := &tableBits{}
	tb.fit(f.w, len(ents))
	for b := range blocks(len(ents)) {
		tb.rebuild(f.w, ents, b)
	}
	return tb
}

// moved rebuilds the words of the blocks whose entities changed, after
// sizing the bits to the table. Executed only by the owner, in Prepare
// (rowFollower).
func (f *bitsFollower) moved(rt *rowTable, moved []int, _ uint64) {
	tb := rt.state[f.at].(*tableBits)
	tb.fit(f.w, len(rt.ents))
	for _, b := range moved {
		tb.rebuild(f.w, rt.ents, b)
	}
}

// fit sizes the bits to a table of rows rows and every enableable
// component.
func (tb *tableBits) fit(w *World, rows int) {
	n := blocks(rows)
	for len(tb.off) < len(w.enableList) {
		tb.off = append(tb.off, nil)
	}
	for i, off := range tb.off {
		for len(off) < n {
			off = append(off, 0)
		}
		tb.off[i] = off[:n]
	}
}

// rebuild writes block b's words from the bits by id of ents' entities.
func (tb *tableBits) rebuild(w *World, ents []ark.Entity, b int) {
	lo, hi := b<<blockShift, min((b+1)<<blockShift, len(ents))
	for i, eb := range w.enableList {
		tb.off[i][b] = eb.word(ents[lo:hi])
	}
}

// rewriteStale rewrites, in the row bits of its table, the row of every
// entity switched by the owner or moved by a component or relation
// change since the last time, from its bits by id. Executed only by the
// owner, in Prepare.
func (f *bitsFollower) rewriteStale() {
	for _, e := range f.stale {
		rt, r, ok := f.w.heldRow(e)
		if !ok || rt.state[f.at] == nil {
			continue // the next sync rebuilds its block, or a pass builds it
		}
		tb := rt.state[f.at].(*tableBits)
		for i, eb := range f.w.enableList {
			setBit(&tb.off[i][r>>blockShift], uint32(r&(blockRows-1)), eb.on(e.ID()))
		}
	}
	f.stale = f.stale[:0]
}

// maxStale is the most entities kept for rewriting; past it, the row
// bits are dropped and built afresh, so that a world whose passes do not
// run (paused) does not keep every move.
const maxStale = 1 << 16

func (f *bitsFollower) entered(e ark.Entity) { f.keep(e) }

func (f *bitsFollower) restored() { f.drop() }

// keep keeps e to have its row's bits rewritten before the next pass, if
// any table has row bits. Executed only by the owner, in structural
// changes (entered) or switches.
func (f *bitsFollower) keep(e ark.Entity) {
	switch {
	case f.tables == 0:
	case len(f.stale) == maxStale:
		f.drop()
	default:
		f.stale = append(f.stale, e)
	}
}

// drop forgets every table's row bits, to be built afresh by the next
// passes: after a restore or load (restored), when a component becomes
// enableable, or when too many rows went stale. Executed only by the
// owner, outside of frames.
func (f *bitsFollower) drop() {
	if f.tables > 0 {
		for _, rt := range f.w.rows.tables {
			rt.state[f.at] = nil
		}
	}
	f.tables = 0
	f.stale = f.stale[:0]
}
