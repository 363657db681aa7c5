package ecs

import (
	ark "github.com/mlange-42/ark/ecs"
)

// The on/off bits of enableable components by table row (enable.go), in
// row order: bit r&63 of word r>>6 of a table's bits of T says that the
// entity in row r has T off. Jobs read and switch them; the owner keeps
// them in step with Ark's rows, which move when an entity is spawned,
// despawned (the table's last row fills its place), or moved to another
// table (a component or relation added or removed), whoever makes the
// change: commands, Ark itself, a restore.
//
// The bits by entity id are the truth the row bits are rebuilt from.
// Before a query that reads or switches a state gets its chunks, the
// owner brings each of its tables' row bits up to date: after any
// structural change it compares the table's entities, block of 64 rows
// by block, with their copy from the last time and rebuilds the words of
// the blocks that differ (a swap-remove, rows added or gone); and it
// rewrites the row of every entity that the owner switched, or that a
// component or relation change moved, since then (an entity can leave
// a table and come back to the same row, which the comparison alone
// would not see). So the upkeep is in proportion to what moved, not to
// the rows, and a frame without structural changes costs nothing.
//
// Tables are found by Ark's table id, through its entity index
// (arkpool.go); where Ark's layout is not the mirrored one, each pass
// builds its tables' bits afresh instead (a cost per row, the same
// result).

// tableBits are one table's row bits of every enableable component.
type tableBits struct {
	ents []ark.Entity // the table's entities when last brought up to date
	seen uint64       // World.rowMoves then
	off  [][]uint64   // by World.enableList index, by row
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
	st, err := w.arkStateOf()
	if err != nil {
		tb := &tableBits{}
		tb.update(w, ents)
		return tb
	}
	w.rewriteStale(st)
	t := int((*st.index)[ents[0].ID()].table)
	for t >= len(w.rowBits) {
		w.rowBits = append(w.rowBits, nil)
	}
	tb := w.rowBits[t]
	if tb == nil {
		tb = &tableBits{seen: w.rowMoves - 1}
		w.rowBits[t] = tb
	}
	if tb.seen != w.rowMoves || len(tb.ents) != len(ents) {
		tb.update(w, ents)
		tb.seen = w.rowMoves
	}
	return tb
}

// update rebuilds the words of the blocks whose entities differ from the
// copy (all of them, the first time), then copies ents.
func (tb *tableBits) update(w *World, ents []ark.Entity) {
	n := blocks(len(ents))
	for len(tb.off) < len(w.enableList) {
		tb.off = append(tb.off, nil)
	}
	for i, off := range tb.off {
		for len(off) < n {
			off = append(off, 0)
		}
		tb.off[i] = off[:n]
	}
	for b := range n {
		lo, hi := b<<blockShift, min((b+1)<<blockShift, len(ents))
		if hi <= len(tb.ents) && equal(ents[lo:hi], tb.ents[lo:hi]) {
			continue
		}
		for i, eb := range w.enableList {
			tb.off[i][b] = eb.word(ents[lo:hi])
		}
	}
	tb.ents = append(tb.ents[:0], ents...)
}

// rewriteStale rewrites, in the row bits of its table, the row of every
// entity switched by the owner or moved by a component or relation
// change since the last time, from its bits by id. A row past the
// table's copy is rebuilt by the comparison. Executed only by the owner,
// in Prepare.
func (w *World) rewriteStale(st arkState) {
	for _, e := range w.staleRows {
		if !w.ark.Alive(e) {
			continue
		}
		at := (*st.index)[e.ID()]
		if int(at.table) >= len(w.rowBits) || w.rowBits[at.table] == nil {
			continue
		}
		tb, r := w.rowBits[at.table], int(at.row)
		if r>>blockShift >= blocks(len(tb.ents)) {
			continue
		}
		for i, eb := range w.enableList {
			setBit(&tb.off[i][r>>blockShift], uint32(r&(blockRows-1)), eb.on(e.ID()))
		}
	}
	w.staleRows = w.staleRows[:0]
}

// maxStale is the most entities kept for rewriting; past it, the row
// bits are dropped and built afresh, so that a world whose passes do not
// run (paused) does not keep every move.
const maxStale = 1 << 16

// stale keeps e to have its row's bits rewritten before the next pass, if
// any table has row bits. Executed only by the owner, in structural
// changes or switches.
func (w *World) stale(e ark.Entity) {
	switch {
	case len(w.rowBits) == 0:
	case len(w.staleRows) == maxStale:
		w.dropRows()
	default:
		w.staleRows = append(w.staleRows, e)
	}
}

// dropRows forgets every table's row bits, to be built afresh by the next
// passes: after a restore or load, or when a component becomes
// enableable. Executed only by the owner, outside of frames.
func (w *World) dropRows() {
	clear(w.rowBits)
	w.rowBits = w.rowBits[:0]
	w.staleRows = w.staleRows[:0]
}
