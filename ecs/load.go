package ecs

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"unsafe"

	ark "github.com/mlange-42/ark/ecs"
)

// snapshotOf turns a save file into a snapshot of w, checking every
// part of it against itself and against w; nothing of w changes.
// Executed only by the owner.
func (w *World) snapshotOf(f *saveFile, s *Snapshot) error {
	ids, err := w.fileComps(f.Comps)
	if err != nil {
		return err
	}
	st, e := w.arkStateOf()
	if e != nil {
		return e
	}
	pool, ok := fromBytes[ark.Entity](f.Pool)
	if !ok || len(pool) < int(st.pool.reserved) {
		return errors.New("the entity pool is cut")
	}
	*s = Snapshot{w: w, pool: pool, next: f.Next, available: f.Available, ticks: f.Ticks, moves: f.Moves, tags: f.Tags}
	alive := make([]bool, len(pool))
	if err := w.fileTables(f, ids, s, alive, st.pool.reserved); err != nil {
		return err
	}
	if err := freeList(pool, alive, f.Next, f.Available, st.pool.reserved); err != nil {
		return err
	}
	if err := w.fileResources(f, s); err != nil {
		return err
	}
	if err := w.fileEvents(f, s); err != nil {
		return err
	}
	if err := w.fileVersions(f, ids, s); err != nil {
		return err
	}
	if len(f.Queries) != 2*len(w.allQueries) {
		return fmt.Errorf("%d queries in the file, %d in the world", len(f.Queries)/2, len(w.allQueries))
	}
	for i := 0; i < len(f.Queries); i += 2 {
		s.queries = append(s.queries, queryTicks{f.Queries[i], f.Queries[i+1]})
	}
	return w.fileEnabled(f, ids, s)
}

// fileComps maps the file's components to w's, by name and shape.
func (w *World) fileComps(types []fileType) ([]ark.ID, error) {
	byType := map[fileType]ark.ID{}
	for tp, c := range w.comps {
		byType[typeOf(tp)] = c.id
	}
	var ids []ark.ID
	for _, t := range types {
		id, ok := byType[t]
		if !ok {
			return nil, fmt.Errorf("component %s (shape %s) is not registered in the world, or has another shape", t.Name, t.Shape)
		}
		ids = append(ids, id)
	}
	return ids, nil
}

// fileTables fills s's tables from the file's, marking their entities
// alive: each must be an entity of the pool, in one table only, and every
// entity its components hold must name an id of the pool.
func (w *World) fileTables(f *saveFile, ids []ark.ID, s *Snapshot, alive []bool, reserved uint32) error {
	for _, ft := range f.Tables {
		t, err := fileKey(ft.Comps, ids)
		if err != nil {
			return err
		}
		ents, ok := fromBytes[ark.Entity](ft.Ents)
		if !ok || len(ents) == 0 || len(ft.Cols) != len(t.ids) || s.find(t.key, 0) >= 0 {
			return errors.New("a table is cut, empty or repeated")
		}
		for _, e := range ents {
			id := int(e.ID())
			if id < int(reserved) || id >= len(s.pool) || s.pool[id] != e || alive[id] {
				return fmt.Errorf("table entity %v is not an entity of the pool, or is in two places", e)
			}
			alive[id] = true
		}
		t.ents, t.cols = ents, ft.Cols
		for i, id := range t.ids {
			if err := w.checkColumn(id, t.cols[i], len(ents), len(s.pool)); err != nil {
				return err
			}
		}
		s.tables, s.n = append(s.tables, t), s.n+1
	}
	return nil
}

// fileKey is the table of a file's component list comps, which indexes
// ids: its key and ids, or an error for an index out of the list or a
// component listed twice.
func fileKey(comps []uint16, ids []ark.ID) (tableCopy, error) {
	var t tableCopy
	for _, c := range comps {
		if int(c) >= len(ids) {
			return t, errors.New("a table names a component that the file does not list")
		}
		id := ids[c]
		if t.key[id.Index()>>6]&(1<<(id.Index()&63)) != 0 {
			return t, errors.New("a table lists a component twice")
		}
		t.key[id.Index()>>6] |= 1 << (id.Index() & 63)
		t.ids = append(t.ids, id)
	}
	return t, nil
}

// checkColumn checks a column's length and the entities its rows hold.
func (w *World) checkColumn(id ark.ID, col []byte, rows, pool int) error {
	size := w.types[id.Index()].Size()
	if uintptr(len(col)) != uintptr(rows)*size {
		return fmt.Errorf("a column of %s has %d bytes for %d rows", w.names[id.Index()], len(col), rows)
	}
	for _, off := range w.layouts[id.Index()].ents {
		for r := range rows {
			e := *(*arkEntity)(unsafe.Pointer(&col[uintptr(r)*size+off]))
			if e != (arkEntity{}) && int(e.id) >= pool {
				return fmt.Errorf("a %s holds entity %d, which the pool does not have", w.names[id.Index()], e.id)
			}
		}
	}
	return nil
}

// freeList checks the pool's dead entities: the free list from next
// reaches available dead ids, each once, and every id of the pool is
// reserved, alive or on it.
func freeList(pool []ark.Entity, alive []bool, next, available, reserved uint32) error {
	seen := slices.Clone(alive)
	cur := next
	for range available {
		if cur < reserved || int(cur) >= len(pool) || seen[cur] {
			return errors.New("the pool's free list is broken")
		}
		seen[cur], cur = true, uint32(pool[cur].ID())
	}
	for id := reserved; int(id) < len(pool); id++ {
		if !seen[id] {
			return fmt.Errorf("pool entry %d is neither alive nor free", id)
		}
	}
	return nil
}

// fileResources matches the file's resources to w's, by type.
func (w *World) fileResources(f *saveFile, s *Snapshot) error {
	if len(f.Resources) != len(w.resList) {
		return fmt.Errorf("%d resources in the file, %d in the world", len(f.Resources), len(w.resList))
	}
	for _, r := range w.resList {
		i := slices.IndexFunc(f.Resources, func(b fileBlob) bool { return b.Type == typeOf(r.typ) })
		if i < 0 || uintptr(len(f.Resources[i].Bytes)) != r.typ.Size() {
			return fmt.Errorf("resource %v is not in the file, or has another shape", r.typ)
		}
		s.res = append(s.res, f.Resources[i].Bytes)
	}
	return nil
}

// fileEvents matches the file's unread events to w's streams, by type.
func (w *World) fileEvents(f *saveFile, s *Snapshot) error {
	if len(f.Events) != len(w.streamOrder) {
		return fmt.Errorf("%d event streams in the file, %d in the world", len(f.Events), len(w.streamOrder))
	}
	for _, st := range w.streamOrder {
		i := slices.IndexFunc(f.Events, func(fe fileEvents) bool { return fe.Type == typeOf(st.eventType()) })
		if i < 0 {
			return fmt.Errorf("events %v are not in the file, or have another shape", st.eventType())
		}
		c, err := st.decode(f.Events[i])
		if err != nil {
			return err
		}
		s.events = append(s.events, c)
	}
	return nil
}

// fileVersions fills s's records and change versions. Each table is compared again
// with its entities at its next Prepare (seen differs from the world's
// moves), which sizes its versions to the table whatever the file says.
func (w *World) fileVersions(f *saveFile, ids []ark.ID, s *Snapshot) error {
	s.vers = map[tableKey]*versCopy{}
	for _, fv := range f.Versions {
		var key tableKey
		vc := &versCopy{rows: rowTable{seen: f.Moves - 1}}
		tv := &vc.vers
		for _, c := range fv.Comps {
			if int(c) >= len(ids) {
				return errors.New("change versions name a component that the file does not list")
			}
			key[ids[c].Index()>>6] |= 1 << (ids[c].Index() & 63)
		}
		var ok1, ok2 bool
		vc.rows.key = key
		vc.rows.ents, ok1 = fromBytes[ark.Entity](fv.Ents)
		tv.moved, ok2 = fromBytes[uint64](fv.Moved)
		if !ok1 || !ok2 || s.vers[key] != nil {
			return errors.New("change versions are cut or repeated")
		}
		for _, fc := range fv.Cols {
			if int(fc.Comp) >= len(ids) {
				return errors.New("change versions name a component that the file does not list")
			}
			c := &colVers{allChanged: fc.AllChanged, allAdded: fc.AllAdded}
			if !c.changed.fromFile(fc.Changed) || !c.added.fromFile(fc.Added) {
				return errors.New("change versions are cut")
			}
			tv.cols[ids[fc.Comp].Index()] = c
		}
		s.vers[key] = vc
	}
	return nil
}

func (t *ticks) fromFile(b [2][]byte) bool {
	var ok1, ok2 bool
	t.blocks, ok1 = fromBytes[uint64](b[0])
	t.groups, ok2 = fromBytes[uint64](b[1])
	return ok1 && ok2
}

// makeArchetypes makes the file's archetypes that w lacks, in the file's
// order, so that tables are visited in the order of the saved world (it
// decides the order of chunks, and so of commands). The archetypes w has
// must be, among the file's, its first ones in its order; else the file
// is refused and nothing changes. Executed only by the owner, before the
// restore, which puts back the pool that making them disturbs.
func (w *World) makeArchetypes(f *saveFile) error {
	ids, err := w.fileComps(f.Comps)
	if err != nil {
		return errorf(ErrBadFile, "", "", "%v", err)
	}
	want := make([]tableKey, len(f.Archetypes))
	sets := make([][]ark.ID, len(f.Archetypes))
	for i, a := range f.Archetypes {
		for _, c := range a {
			if int(c) >= len(ids) {
				return errorf(ErrBadFile, "", "", "the save file is corrupted: an archetype names a component that the file does not list")
			}
			want[i][ids[c].Index()>>6] |= 1 << (ids[c].Index() & 63)
			sets[i] = append(sets[i], ids[c])
		}
	}
	have := 0
	for _, a := range w.ark.Stats().Archetypes {
		var key tableKey
		for _, x := range a.ComponentIDs {
			key[x>>6] |= 1 << (x & 63)
		}
		i := slices.Index(want, key)
		if i < 0 {
			continue
		}
		if i != have {
			return errorf(ErrBadFile, "", "", "the world made its archetypes in another order than the saved one (archetype %d of the file is its %d-th); load into a world made as the saved one was, before it ran other steps", i, have)
		}
		have++
	}
	for _, set := range sets[have:] {
		w.ark.RemoveEntity(w.unsafe.NewEntity(set...))
	}
	return nil
}

// eventType is the stream's event type.
func (s *stream[T]) eventType() reflect.Type { return reflect.TypeFor[T]() }
