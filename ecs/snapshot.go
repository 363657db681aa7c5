package ecs

import (
	"reflect"
	"slices"
	"unsafe"

	ark "github.com/mlange-42/ark/ecs"
)

// Snapshots: a copy of everything that decides a world's next steps, and
// a restore that puts it back so that those steps run bit for bit as the
// first time.
//
// A snapshot holds every table (its components, its entities in row
// order, each component's rows as bytes), Ark's entity pool (ids,
// generations and the order in which dead ids are recycled), every
// resource added with AddResource, the events emitted but not yet read,
// the change versions with every query's last tick, the on/off bits of
// enableable components, and the counters
// they are compared with. Components and resources must be plain data
// (no pointers, slices, maps, strings or interfaces): their bytes are
// their value, so a copy is a memmove.
//
// A restore puts a table back by copying its bytes when it holds the
// same entities in the same rows as at the snapshot (a rewind of a few
// steps in a world whose bodies live longer than that); a table that
// differs gets as many rows as it had, through Ark, and its entities and
// their places are written into Ark's entity column and index. Frame and event-step counters only grow: they
// tell frames and steps apart, and a restore must not make an old one
// look current.
//
// State that a system keeps in its own fields is not in the world and not
// in a snapshot: keep what the next step depends on in components and
// resources (docs/guide/13-snapshots.md).

// Snapshot is a copy of a world's state, reused from one World.Snapshot
// to the next so that a warm one allocates nothing. The zero value is
// empty; a snapshot belongs to the world it was taken of.
type Snapshot struct {
	w               *World
	pool            []ark.Entity
	next, available uint32
	tables          []tableCopy
	n               int      // tables in use
	res             [][]byte // by World.resList index
	events          []any    // by World.streamOrder index: *eventsCopy[T]
	vers            map[tableKey]*versCopy
	queries         []queryTicks // by World.allQueries index
	enabled         [][]uint64   // off bits by World.enableList index (enable.go)
	enable          []fileOff    // a loaded file's bits of components the world must make enableable first
	ticks, moves    uint64
	tags            uint32

	same    []bool       // Restore's scratch: tables that need no rebuild
	have    []int        // Restore's scratch: rows of src's tables that the world's keep, then their Ark ids
	removed []ark.Entity // Restore's scratch: rows to remove
	order   []int        // Restore's scratch: src's table of each of the world's, in Ark's order
	spare   []*versCopy  // copies of tables that went, to reuse
	spareTV []*tableVers // the world's versions of tables that went, to reuse
}

// tableCopy is one table: its components, entities and column bytes.
type tableCopy struct {
	key  tableKey
	ids  []ark.ID
	ents []ark.Entity
	cols [][]byte // by ids index
}

// queryTicks are a query's change ticks.
type queryTicks struct{ tick, last uint64 }

// Entities is the number of entities the snapshot holds.
func (s *Snapshot) Entities() int {
	n := 0
	for _, t := range s.tables[:s.n] {
		n += len(t.ents)
	}
	return n
}

// Snapshot copies w's state into dst, reusing dst's memory. Executed only
// by the owner, outside of frames; it refuses with WEFT-E005 during one
// and with WEFT-E012 when a component or resource holds pointers.
func (w *World) Snapshot(dst *Snapshot) error {
	if w.inFrame {
		return w.lockedErr("World.Snapshot")
	}
	st, err := w.arkStateOf()
	if err != nil {
		return err
	}
	if err := w.plainData(); err != nil {
		return err
	}
	dst.w = w
	dst.pool = append(roomFor(dst.pool, len(st.pool.entities)), st.pool.entities...)
	dst.next, dst.available = st.pool.next, st.pool.available
	dst.n = 0
	q := w.all.Query()
	for q.NextTable() {
		if x, ok := w.foreign(q.Entities()[0]); ok {
			q.Close()
			return foreignErr(x)
		}
		if dst.n == len(dst.tables) {
			dst.tables = append(dst.tables, tableCopy{})
		}
		dst.claim(w.tableOf(q.Entities()[0]))
		w.copyOut(&dst.tables[dst.n], q.Entities())
		dst.n++
	}
	for len(dst.res) < len(w.resList) {
		dst.res = append(dst.res, nil)
	}
	for i, r := range w.resList {
		dst.res[i] = append(dst.res[i][:0], r.bytes()...)
	}
	for len(dst.events) < len(w.streamOrder) {
		dst.events = append(dst.events, nil)
	}
	for i, s := range w.streamOrder {
		dst.events[i] = s.save(dst.events[i])
	}
	dst.saveVersions(w)
	dst.saveEnabled(w)
	dst.queries = dst.queries[:0]
	for _, q := range w.allQueries {
		dst.queries = append(dst.queries, queryTicks{q.tick, q.last})
	}
	dst.ticks, dst.moves, dst.tags = w.ticks, w.rows.moves, w.tags
	return nil
}

// plainData refuses the components and resources that hold pointers.
func (w *World) plainData() *Error {
	for _, c := range w.comps {
		if f := w.refs[c.id.Index()]; f != "" {
			name := w.names[c.id.Index()]
			return errorf(ErrNoSnapshot, "", name, "a snapshot cannot copy component %s: its field %s holds a pointer, and a copy of it would share what it points to; make the component plain data (numbers, arrays, structs, ecs entities)", name, f)
		}
	}
	for _, r := range w.resList {
		if r.refs != "" {
			return errorf(ErrNoSnapshot, "", r.typ.String(), "a snapshot cannot copy resource %v: its field %s holds a pointer, and a copy of it would share what it points to; make the resource plain data", r.typ, r.refs)
		}
	}
	return nil
}

// foreign finds a component of e's table that was registered with Ark
// directly, not through weft, which knows nothing of its type.
func (w *World) foreign(e ark.Entity) (uint8, bool) {
	ids := w.unsafe.IDs(e)
	for i := range ids.Len() {
		if x := ids.Get(i).Index(); w.types[x] == nil {
			return x, true
		}
	}
	return 0, false
}

func foreignErr(x uint8) *Error {
	return errorf(ErrNoSnapshot, "", "", "a snapshot cannot copy component #%d: it was registered with Ark directly (World.Ark), so weft does not know its type; register it with ecs.NewComponent", x)
}

// copyOut copies the table whose entities are ents into t.
func (w *World) copyOut(t *tableCopy, ents []ark.Entity) {
	ids := w.unsafe.IDs(ents[0])
	t.ids, t.key = t.ids[:0], tableKey{}
	for i := range ids.Len() {
		id := ids.Get(i)
		t.ids = append(t.ids, id)
		t.key[id.Index()>>6] |= 1 << (id.Index() & 63)
	}
	t.ents = append(roomFor(t.ents, len(ents)), ents...)
	for len(t.cols) < len(t.ids) {
		t.cols = append(t.cols, nil)
	}
	for i, id := range t.ids {
		col := w.column(ents[0], id, len(ents))
		t.cols[i] = append(roomFor(t.cols[i], len(col)), col...)
	}
}

// roomFor is s emptied, with room for n elements: a new slice half again
// as large when s has less, so that a table that grows a little from
// one snapshot to the next (the ring reuses each snapshot every few
// steps) does not make a copy grow every time.
func roomFor[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, 0, n+n/2)
	}
	return s[:0]
}

// column is the bytes of component id's column in the table whose first
// entity is first, n rows.
func (w *World) column(first ark.Entity, id ark.ID, n int) []byte {
	size := w.types[id.Index()].Size()
	if size == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(w.unsafe.GetUnchecked(first, id)), uintptr(n)*size)
}

// Restore puts w back in the state of src, a snapshot of w. Executed only
// by the owner, outside of frames; it refuses with WEFT-E005 during one
// and with WEFT-E007 for a snapshot of another world or an empty one, and
// then changes nothing.
func (w *World) Restore(src *Snapshot) error {
	if w.inFrame {
		return w.lockedErr("World.Restore")
	}
	if src.w != w {
		return errorf(ErrBadArgument, "", "", "Restore of a snapshot of another world (or of none): restore a snapshot that World.Snapshot of this world filled; to move a world, save it (World.Save) and load it (World.Load)")
	}
	st, err := w.arkStateOf()
	if err != nil {
		return err
	}
	if !w.sameTables(src) {
		st.cover(len(src.pool)) // src's entities may have ids w never made
		w.rebuild(src, st)
	}
	for _, t := range src.tables[:src.n] {
		for i, id := range t.ids {
			copy(w.column(t.ents[0], id, len(t.ents)), t.cols[i])
		}
	}
	st.setPool(src.pool, src.next, src.available)
	for i, r := range w.resList[:min(len(w.resList), len(src.res))] {
		copy(r.bytes(), src.res[i])
	}
	for i, s := range w.streamOrder[:min(len(w.streamOrder), len(src.events))] {
		s.load(src.events[i])
	}
	src.loadVersions(w)
	src.loadEnabled(w)
	w.rows.restored()
	for i, q := range w.allQueries[:min(len(w.allQueries), len(src.queries))] {
		q.tick, q.last = src.queries[i].tick, src.queries[i].last
	}
	w.ticks, w.rows.moves, w.tags = src.ticks, src.moves, src.tags
	w.rebuildRelations()
	w.pb.forget() // the restored world never had the last playback's spawns
	return nil
}

// sameTables reports whether every table holds src's entities in src's
// rows, and marks in src.same the tables of src that do. Executed only by
// the owner, in Restore.
func (w *World) sameTables(src *Snapshot) bool {
	for len(src.same) < src.n {
		src.same = append(src.same, false)
	}
	clear(src.same)
	all, i := true, 0
	q := w.all.Query()
	for q.NextTable() {
		ents := q.Entities()
		j := src.find(w.tableOf(ents[0]), i)
		if j >= 0 && slices.Equal(src.tables[j].ents, ents) {
			src.same[j] = true
		} else {
			all = false
		}
		i++
	}
	return all && i == src.n
}

// claim moves the copy of the table with key that s held in its last
// snapshot, if any not yet reused, to index s.n, so that its memory is
// filled again by the same table and a warm snapshot of a world whose
// tables come and go allocates nothing.
func (s *Snapshot) claim(key tableKey) {
	for j := s.n; j < len(s.tables); j++ {
		if s.tables[j].key == key {
			s.tables[s.n], s.tables[j] = s.tables[j], s.tables[s.n]
			return
		}
	}
}

// find is the index of src's table with key, looking from i on first
// (tables come in the same order), or -1.
func (s *Snapshot) find(key tableKey, i int) int {
	for k := range s.n {
		if j := (i + k) % s.n; s.tables[j].key == key {
			return j
		}
	}
	return -1
}

// rebuild makes every table whose entities differ from src's hold src's
// entities in src's rows: it removes the rows past src's count (the last
// ones, which move nothing), creates the missing ones, then writes src's
// entities into the table's entity column and their places into Ark's
// entity index. The entities that Ark handed out or recycled meanwhile
// do not matter: Restore puts src's pool back after. So a rebuild costs
// a copy of the tables that differ, plus the rows their counts differ
// by. Executed only by the owner, in Restore.
func (w *World) rebuild(src *Snapshot, st arkState) {
	src.removed, src.have = src.removed[:0], src.have[:0]
	for range src.n {
		src.have = append(src.have, 0)
	}
	q := w.all.Query()
	for q.NextTable() {
		ents := q.Entities()
		j, want := src.find(w.tableOf(ents[0]), 0), 0
		if j >= 0 {
			if src.same[j] {
				continue
			}
			want = len(src.tables[j].ents)
			src.have[j] = min(len(ents), want)
		}
		if len(ents) > want {
			src.removed = append(src.removed, ents[want:]...)
		}
	}
	for _, e := range slices.Backward(src.removed) { // each table's last row first
		w.ark.RemoveEntity(e)
	}
	for j, t := range src.tables[:src.n] {
		for k := src.have[j]; k < len(t.ents) && !src.same[j]; k++ {
			w.unsafe.NewEntity(t.ids...)
		}
	}
	index := *st.index
	src.order = src.order[:0]
	q = w.all.Query()
	for q.NextTable() { // which table is which, before any entry of the index changes
		ents := q.Entities()
		j := src.find(w.tableOf(ents[0]), 0)
		src.order = append(src.order, j)
		src.have[j] = int(index[ents[0].ID()].table)
	}
	q = w.all.Query()
	for i := 0; q.NextTable(); i++ {
		ents := q.Entities()
		if j := src.order[i]; !src.same[j] {
			copy(ents, src.tables[j].ents)
			for row, e := range ents {
				index[e.ID()] = arkIndex{table: uint32(src.have[j]), row: uint32(row)}
			}
		}
	}
}

// resourceCopy is a resource added with AddResource: where its value is.
type resourceCopy struct {
	typ  reflect.Type
	ptr  unsafe.Pointer
	refs string // its first field that holds a pointer, "" for plain data
	lay  layout // its leaves, for digests (digest_writes.go)
}

func (r resourceCopy) bytes() []byte { return unsafe.Slice((*byte)(r.ptr), r.typ.Size()) }

// versCopy is a snapshot's copy of one table's record (rows.go) and
// change versions.
type versCopy struct {
	rows rowTable
	vers tableVers
}

// saveVersions copies into s the record and change versions of every
// table that has versions.
func (s *Snapshot) saveVersions(w *World) {
	if s.vers == nil {
		s.vers = map[tableKey]*versCopy{}
	}
	for k, c := range s.vers {
		if rt := w.rows.tables[k]; rt == nil || w.vers.of(rt) == nil {
			delete(s.vers, k)
			s.spare = append(s.spare, c)
		}
	}
	for k, rt := range w.rows.tables {
		tv := w.vers.of(rt)
		if tv == nil {
			continue
		}
		c := s.vers[k]
		if c == nil {
			c = reuse(&s.spare)
			s.vers[k] = c
		}
		c.rows.copyRows(rt)
		c.vers.copyFrom(tv)
	}
}

// loadVersions puts s's records and change versions back into w; the
// world's records of other tables go (their followers rebuild them).
func (s *Snapshot) loadVersions(w *World) {
	r := &w.rows
	for k, rt := range r.tables {
		if s.vers[k] == nil {
			if tv := w.vers.of(rt); tv != nil {
				s.spareTV = append(s.spareTV, tv)
			}
			r.drop(k)
		}
	}
	for k, c := range s.vers {
		rt := r.tables[k]
		if rt == nil {
			rt = r.newTable(k)
			r.tables[k] = rt
		}
		rt.copyRows(&c.rows)
		tv := w.vers.of(rt)
		if tv == nil {
			tv = reuse(&s.spareTV)
			rt.state[w.vers.at] = tv
		}
		tv.copyFrom(&c.vers)
	}
}

// reuse takes the last of *spare, or makes a new T: tables come and go
// from step to step, and a warm snapshot and restore allocate nothing.
func reuse[T any](spare *[]*T) *T {
	n := len(*spare)
	if n == 0 {
		return new(T)
	}
	x := (*spare)[n-1]
	*spare = (*spare)[:n-1]
	return x
}

// copyFrom makes tv a copy of o, reusing tv's memory.
func (tv *tableVers) copyFrom(o *tableVers) {
	tv.moved = append(tv.moved[:0], o.moved...)
	for i, c := range o.cols {
		if c == nil {
			tv.cols[i] = nil
			continue
		}
		if tv.cols[i] == nil {
			tv.cols[i] = &colVers{}
		}
		d := tv.cols[i]
		d.changed.copyFrom(&c.changed)
		d.added.copyFrom(&c.added)
		d.allChanged, d.allAdded = c.allChanged, c.allAdded
	}
}

func (t *ticks) copyFrom(o *ticks) {
	t.blocks = append(t.blocks[:0], o.blocks...)
	t.groups = append(t.groups[:0], o.groups...)
}

// eventsCopy is a stream's events not yet read: by writer, its events of
// the last step (in the order readers see them) and those emitted since.
type eventsCopy[T any] struct {
	cur, pending [][]T
}

// save copies the stream's unread events into dst (an *eventsCopy[T] or
// nil) and returns it.
func (s *stream[T]) save(dst any) any {
	c, _ := dst.(*eventsCopy[T])
	if c == nil {
		c = &eventsCopy[T]{}
	}
	for len(c.cur) < len(s.writers) {
		c.cur, c.pending = append(c.cur, nil), append(c.pending, nil)
	}
	for i, e := range s.writers {
		c.cur[i] = e.cur.appendTo(c.cur[i][:0])
		c.pending[i] = append(c.pending[i][:0], e.pending...)
	}
	return c
}

// load puts the unread events of src back: a writer's last step becomes
// its owner part, which readers see first, as they saw the whole part.
func (s *stream[T]) load(src any) {
	c := src.(*eventsCopy[T])
	for i, e := range s.writers[:min(len(s.writers), len(c.cur))] {
		p := &e.cur
		clear(p.owner)
		p.owner = append(p.owner[:0], c.cur[i]...)
		for _, q := range p.chunks {
			for k := range q {
				clear(q[k])
				q[k] = q[k][:0]
			}
		}
		clear(e.pending)
		e.pending = append(e.pending[:0], c.pending[i]...)
	}
}

// pointerField is the path of t's first field that holds a pointer
// (strings, slices, maps, pointers, interfaces, channels, functions), ""
// for plain data.
func pointerField(t reflect.Type, path string) string {
	switch t.Kind() {
	case reflect.Struct:
		for i := range t.NumField() {
			if p := pointerField(t.Field(i).Type, path+"."+t.Field(i).Name); p != "" {
				return p
			}
		}
	case reflect.Array:
		return pointerField(t.Elem(), path+"[0]")
	case reflect.String, reflect.Slice, reflect.Map, reflect.Pointer, reflect.UnsafePointer,
		reflect.Interface, reflect.Chan, reflect.Func:
		return path + " (" + t.Kind().String() + ")"
	}
	return ""
}
