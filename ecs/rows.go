package ecs

import ark "github.com/mlange-42/ark/ecs"

// The row record: what moved where in the world's tables, kept once for
// every feature that keeps state by table row, a row follower (change
// detection's versions, changed.go; the on/off bits by row,
// enable_rows.go). A new one is a file with a rowFollower and a follow
// call in NewWorld.
//
// Ark moves rows when an entity is spawned, despawned (the table's last
// row fills its place) or moved to another table (a component or
// relation added or removed), whoever makes the change: commands, Ark
// itself, a restore. The record counts these changes through Ark's
// observers and keeps, per table, a copy of its entities as they were
// when last compared. Before a query's chunks are cut, the owner syncs
// each table that the query's features follow: after a structural change
// it compares the table's entities with the copy, block of 64 rows by
// block, and tells every follower that has state for the table which
// blocks hold other entities now. So the upkeep is in proportion to what
// moved, and a frame without structural changes costs a lookup and two
// counters per table. Followers are also told of each entity that a
// component or relation change moved to another table (it may come back
// to the row it left, which the comparison cannot see), and of a Restore
// or Load.
//
// Tables are named by their components (tableKey): weft makes no
// relation tables, and a second table with the same components met in a
// frame is not followed (its followers fall back to a pass's own state).

// rowFollower is a feature that keeps state by table row, in
// rowTable.state at the index follow gave it. It makes that state itself,
// for the whole table, the first time it needs it; the record keeps it in
// step from then on.
type rowFollower interface {
	// moved says that blocks (ascending) of rt hold other entities than
	// at the last sync; rt.ents is the table's entities now, which may be
	// more or fewer. It is called for every sync that compared, blocks
	// empty or not, when the follower has state for rt. Executed only by
	// the owner, in Prepare, before any job of the frame touches rt's rows.
	moved(rt *rowTable, blocks []int, tick uint64)
	// entered says that a component or relation change moved e to
	// another table. Executed only by the owner, in Ark's observers.
	entered(e ark.Entity)
	// restored says that a Restore or Load put the tables back: state
	// that the snapshot does not hold is to be rebuilt. Executed only by
	// the owner, at the end of the restore.
	restored()
}

// rowRecord is the world's row record.
type rowRecord struct {
	moves     uint64                 // structural changes seen by the observers
	tables    map[tableKey]*rowTable // by components
	byID      []*rowTable            // the same by Ark's table id, where Ark's layout is the mirrored one (arkpool.go)
	followers []rowFollower          // by index in rowTable.state
	blocks    []int                  // compare's scratch
	spare     []*rowTable            // tables a restore dropped, to reuse
}

// rowTable is the record of one table.
type rowTable struct {
	key   tableKey
	ents  []ark.Entity // the table's entities at the last sync
	seen  uint64       // rowRecord.moves then
	frame uint64       // the frame of the last sync
	base  *ark.Entity  // the table's first entity in that frame
	state []any        // by follower index: its state for the table, nil until it makes it
}

// tableKey names a table by its components.
type tableKey [4]uint64

// tableOf is the key of e's table. Executed only by the owner.
func (w *World) tableOf(e ark.Entity) tableKey {
	ids := w.unsafe.IDs(e)
	var key tableKey
	for i := range ids.Len() {
		x := ids.Get(i).Index()
		key[x>>6] |= 1 << (x & 63)
	}
	return key
}

// startRows makes the record and registers its observers, which see every
// structural change, whoever makes it. Executed only by the owner, in
// NewWorld, before any follower registers.
func (w *World) startRows() {
	r := &w.rows
	r.tables = map[tableKey]*rowTable{}
	count := func(ark.Entity) { r.moves++ }
	moved := func(e ark.Entity) {
		r.moves++
		for _, f := range r.followers {
			f.entered(e)
		}
	}
	ark.Observe(ark.OnCreateEntity).Do(count).Register(w.ark)
	ark.Observe(ark.OnRemoveEntity).Do(count).Register(w.ark)
	for _, ev := range []ark.EventType{ark.OnAddComponents, ark.OnRemoveComponents, ark.OnAddRelations, ark.OnRemoveRelations} {
		ark.Observe(ev).Do(moved).Register(w.ark)
	}
}

// follow registers f and returns its index in rowTable.state. Executed
// only by the owner, outside of frames.
func (r *rowRecord) follow(f rowFollower) int {
	r.followers = append(r.followers, f)
	for _, rt := range r.tables {
		rt.state = append(rt.state, nil)
	}
	return len(r.followers) - 1
}

// syncRows returns the record of the table whose entities are ents (not
// empty), compared with them once per frame after a structural change,
// its followers told what moved; nil for a second table with the same
// components in this frame. Executed only by the owner, in Prepare: a
// job touches only rows of its query's tables, which its Prepare synced
// before it started, and nothing moves rows within a frame.
func (w *World) syncRows(ents []ark.Entity, tick uint64) *rowTable {
	r := &w.rows
	rt := w.rowsOf(ents[0])
	if rt == nil {
		key := w.tableOf(ents[0])
		rt = r.newTable(key)
		rt.seen = r.moves - 1
		r.tables[key] = rt
		w.rowsOf(ents[0]) // caches it by table id
	}
	if rt.frame == w.frame {
		if rt.base != &ents[0] {
			return nil // another table with these components (relations)
		}
		return rt
	}
	rt.frame, rt.base = w.frame, &ents[0]
	if rt.seen != r.moves || len(rt.ents) != len(ents) {
		r.compare(rt, ents, tick)
		rt.seen = r.moves
	}
	return rt
}

// newTable is an empty record for key, one a restore dropped if any, so
// that tables that come and go allocate nothing.
func (r *rowRecord) newTable(key tableKey) *rowTable {
	rt := reuse(&r.spare)
	*rt = rowTable{key: key, ents: rt.ents[:0], state: rt.state}
	clear(rt.state)
	for len(rt.state) < len(r.followers) {
		rt.state = append(rt.state, nil)
	}
	return rt
}

// compare finds the blocks whose entities differ from rt's copy, copies
// ents, and tells the followers with state for rt.
func (r *rowRecord) compare(rt *rowTable, ents []ark.Entity, tick uint64) {
	r.blocks = r.blocks[:0]
	for b := range blocks(len(ents)) {
		lo, hi := b<<blockShift, min((b+1)<<blockShift, len(ents))
		if hi > len(rt.ents) || !equal(ents[lo:hi], rt.ents[lo:hi]) {
			r.blocks = append(r.blocks, b)
		}
	}
	rt.ents = append(rt.ents[:0], ents...)
	for i, f := range r.followers {
		if rt.state[i] != nil {
			f.moved(rt, r.blocks, tick)
		}
	}
}

func equal(a, b []ark.Entity) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// rowsOf is the record of e's table, nil if none was made. A table's id
// names the same components for the world's life (Ark never drops a
// table), so a record found by components is kept by id too, and the
// next lookup is an index. Executed only by the owner.
func (w *World) rowsOf(e ark.Entity) *rowTable {
	r := &w.rows
	st, err := w.arkStateOf()
	if err != nil {
		return r.tables[w.tableOf(e)]
	}
	t := int((*st.index)[e.ID()].table)
	if t < len(r.byID) && r.byID[t] != nil {
		return r.byID[t]
	}
	rt := r.tables[w.tableOf(e)]
	if rt != nil {
		for t >= len(r.byID) {
			r.byID = append(r.byID, nil)
		}
		r.byID[t] = rt
	}
	return rt
}

// drop takes the record of key out, to be reused. Executed only by the
// owner, in Restore.
func (r *rowRecord) drop(key tableKey) {
	r.spare = append(r.spare, r.tables[key])
	delete(r.tables, key)
	clear(r.byID) // found again by components
}

// heldRow is the record of e's table and e's row in it, ok where the
// record's copy holds e in that row, so that a follower's state of the
// row is e's: a follower rewrites it there after e changed in place
// (switched, or back in the row it left). Where the copy holds another
// entity, the row's block moved and the next sync rebuilds it. ok is
// false for a dead entity, and where Ark's layout is not the mirrored
// one. Executed only by the owner.
func (w *World) heldRow(e ark.Entity) (rt *rowTable, r int, ok bool) {
	st, err := w.arkStateOf()
	if err != nil || !w.ark.Alive(e) {
		return nil, 0, false
	}
	rt, r = w.rowsOf(e), int((*st.index)[e.ID()].row)
	return rt, r, rt != nil && r < len(rt.ents) && rt.ents[r] == e
}

// copyRows makes rt a copy of o's record (its followers' state aside),
// reusing rt's memory. Executed only by the owner, in Snapshot and
// Restore.
func (rt *rowTable) copyRows(o *rowTable) {
	rt.key = o.key
	rt.ents = append(rt.ents[:0], o.ents...)
	rt.seen, rt.frame, rt.base = o.seen, o.frame, o.base
}

// restored tells every follower that a Restore or Load put the tables
// back. Executed only by the owner, at the end of the restore.
func (r *rowRecord) restored() {
	for _, f := range r.followers {
		f.restored()
	}
}
