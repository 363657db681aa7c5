package ecs

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"maps"
	"reflect"
	"slices"
	"unsafe"

	"github.com/fxamacker/cbor/v2"
)

// Save files: a snapshot written out. The file is a fixed header (magic,
// version, payload length, CRC-32 of the payload) and a CBOR payload,
// saveFile; bulk data (entities, component columns, resources, events,
// change versions) travels as byte strings of little-endian plain data,
// so a file is as large as the world and is read without a per-value
// decode. Components, resources and event streams are matched by type
// name and shape, not by Ark's ids, which depend on registration order;
// tables, change versions and archetypes are renumbered on load.
//
// Loading reads and checks the whole file into a Snapshot first (every
// length, index, entity id, the pool's free list, the references held in
// entity fields) and restores it only then, so a truncated, corrupted or
// other-version file is refused with the world untouched. Entity ids and
// generations are kept, so references between entities inside components
// stay valid as they are: the loader only checks that each one names an id
// of the file's pool.

// SaveVersion is the version of the save format this build writes and
// reads.
const SaveVersion = 2

var saveMagic = [8]byte{'w', 'e', 'f', 't', 's', 'a', 'v', 'e'}

// headerSize is the header's bytes: magic, version (4), payload length
// (8), CRC-32 (4).
const headerSize = 8 + 4 + 8 + 4

// saveFile is the payload.
type saveFile struct {
	Comps      []fileType // components, indexed by the tables
	Archetypes [][]uint16 // component sets in Ark's archetype order, empty ones too
	Pool       []byte     // Ark's entity pool: (id, gen) pairs, uint32 each
	Next       uint32
	Available  uint32
	Tables     []fileTable
	Resources  []fileBlob
	Events     []fileEvents
	Versions   []fileVers
	Queries    []uint64      // tick, last of each query, in build order
	Enabled    []fileEnabled `cbor:",omitempty"`
	Ticks      uint64
	Moves      uint64
	Tags       uint32
}

type fileType struct {
	Name  string // package path and name
	Shape string // size and leaves: a changed type does not load
}

type fileTable struct {
	Comps []uint16 // indexes into Comps
	Ents  []byte   // (id, gen) pairs
	Cols  [][]byte // by Comps
}

// fileEnabled is an enableable component's off bits, by entity id.
type fileEnabled struct {
	Comp uint16 // index into Comps
	Off  []byte // uint64 each
}

type fileBlob struct {
	Type  fileType
	Bytes []byte
}

type fileEvents struct {
	Type         fileType
	Cur, Pending [][]byte // by writer
}

type fileVers struct {
	Comps []uint16
	Ents  []byte
	Seen  uint64
	Moved []byte // uint64 each
	Cols  []fileColVers
}

type fileColVers struct {
	Comp                 uint16
	Changed, Added       [2][]byte // blocks, groups: uint64 each
	AllChanged, AllAdded uint64
}

// Save writes the world's state to out. Executed only by the owner,
// outside of frames; it refuses what World.Snapshot refuses (WEFT-E005,
// WEFT-E012), and event types that hold pointers.
func (w *World) Save(out io.Writer) error {
	var s Snapshot
	if err := w.Snapshot(&s); err != nil {
		return err
	}
	f, err := w.fileOf(&s)
	if err != nil {
		return err
	}
	payload, err := cbor.Marshal(f)
	if err != nil {
		return errorf(ErrBadFile, "", "", "encoding the save file: %v", err)
	}
	var head [headerSize]byte
	copy(head[:], saveMagic[:])
	binary.LittleEndian.PutUint32(head[8:], SaveVersion)
	binary.LittleEndian.PutUint64(head[12:], uint64(len(payload)))
	binary.LittleEndian.PutUint32(head[20:], crc32.ChecksumIEEE(payload))
	if _, err := out.Write(head[:]); err != nil {
		return err
	}
	_, err = out.Write(payload)
	return err
}

// typeOf names t for a file: its path, name and shape.
func typeOf(t reflect.Type) fileType {
	l := layoutOf(t)
	return fileType{Name: t.PkgPath() + "." + t.Name(), Shape: fmt.Sprint(t.Size(), l.leaves)}
}

// fileOf turns a snapshot of w into a file's payload.
func (w *World) fileOf(s *Snapshot) (*saveFile, error) {
	f := &saveFile{Pool: asBytes(s.pool), Next: s.next, Available: s.available,
		Ticks: s.ticks, Moves: s.moves, Tags: s.tags}
	index := map[uint8]uint16{}
	comp := func(x uint8) uint16 {
		if i, ok := index[x]; ok {
			return i
		}
		index[x] = uint16(len(f.Comps))
		f.Comps = append(f.Comps, typeOf(w.types[x]))
		return index[x]
	}
	for _, a := range w.ark.Stats().Archetypes {
		set := []uint16{}
		for _, x := range a.ComponentIDs {
			if w.types[x] == nil {
				return nil, foreignErr(x)
			}
			set = append(set, comp(x))
		}
		f.Archetypes = append(f.Archetypes, set)
	}
	for _, t := range s.tables[:s.n] {
		ft := fileTable{Ents: asBytes(t.ents), Cols: t.cols[:len(t.ids)]}
		for _, id := range t.ids {
			ft.Comps = append(ft.Comps, comp(id.Index()))
		}
		f.Tables = append(f.Tables, ft)
	}
	for i, r := range w.resList {
		f.Resources = append(f.Resources, fileBlob{Type: typeOf(r.typ), Bytes: s.res[i]})
	}
	for i, st := range w.streamOrder {
		fe, err := st.encode(s.events[i])
		if err != nil {
			return nil, err
		}
		f.Events = append(f.Events, fe)
	}
	for _, key := range slices.SortedFunc(maps.Keys(s.vers), func(a, b tableKey) int { return slices.Compare(a[:], b[:]) }) {
		f.Versions = append(f.Versions, w.fileVersOf(key, s.vers[key], comp)) // in key order: the same world, the same file
	}
	for _, q := range s.queries {
		f.Queries = append(f.Queries, q.tick, q.last)
	}
	for i, b := range w.enableList {
		f.Enabled = append(f.Enabled, fileEnabled{Comp: comp(b.id.Index()), Off: asBytes(s.enabled[i])})
	}
	return f, nil
}

// fileVersOf is the file's record of one table's row record and change
// versions.
func (w *World) fileVersOf(key tableKey, c *versCopy, comp func(uint8) uint16) fileVers {
	tv := &c.vers
	fv := fileVers{Ents: asBytes(c.rows.ents), Seen: c.rows.seen, Moved: asBytes(tv.moved)}
	for x := range 256 {
		if key[x>>6]&(1<<(x&63)) != 0 {
			fv.Comps = append(fv.Comps, comp(uint8(x)))
		}
		if c := tv.cols[x]; c != nil {
			fv.Cols = append(fv.Cols, fileColVers{Comp: comp(uint8(x)),
				Changed:    [2][]byte{asBytes(c.changed.blocks), asBytes(c.changed.groups)},
				Added:      [2][]byte{asBytes(c.added.blocks), asBytes(c.added.groups)},
				AllChanged: c.allChanged, AllAdded: c.allAdded})
		}
	}
	return fv
}

// asBytes is the memory of a slice of plain data.
func asBytes[T any](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), uintptr(len(s))*unsafe.Sizeof(s[0]))
}

// fromBytes copies b into a new slice of plain data; false when b is not
// a whole number of elements.
func fromBytes[T any](b []byte) ([]T, bool) {
	var z T
	size := int(unsafe.Sizeof(z))
	if len(b)%size != 0 {
		return nil, false
	}
	out := make([]T, len(b)/size)
	copy(asBytes(out), b)
	return out, true
}

// encode is the file's record of a stream's unread events (an
// *eventsCopy[T]).
func (s *stream[T]) encode(src any) (fileEvents, error) {
	tp := reflect.TypeFor[T]()
	if f := pointerField(tp, tp.Name()); f != "" {
		return fileEvents{}, errorf(ErrNoSnapshot, "", tp.String(), "a save cannot write events %v: their field %s holds a pointer; make the event type plain data", tp, f)
	}
	c := src.(*eventsCopy[T])
	fe := fileEvents{Type: typeOf(tp)}
	for i := range s.writers {
		fe.Cur, fe.Pending = append(fe.Cur, asBytes(c.cur[i])), append(fe.Pending, asBytes(c.pending[i]))
	}
	return fe, nil
}

// decode is the unread events of a file's record, checked against the
// stream: an *eventsCopy[T], or an error.
func (s *stream[T]) decode(fe fileEvents) (any, error) {
	tp := reflect.TypeFor[T]()
	if len(fe.Cur) != len(s.writers) || len(fe.Pending) != len(s.writers) {
		return nil, fmt.Errorf("events %v: %d writers in the file, %d in the world", tp, len(fe.Cur), len(s.writers))
	}
	c := &eventsCopy[T]{}
	for i := range s.writers {
		cur, ok1 := fromBytes[T](fe.Cur[i])
		pending, ok2 := fromBytes[T](fe.Pending[i])
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("events %v: a part is not a whole number of events", tp)
		}
		c.cur, c.pending = append(c.cur, cur), append(c.pending, pending)
	}
	return c, nil
}

// Load replaces the world's state with the one saved in in. The whole
// file is read and checked first: a truncated or corrupted file, or one
// that does not fit the world (other components, resources, systems), is
// refused with WEFT-E013, a file of another format version with
// WEFT-E014, and the world is left as it was. A component that the saved
// world switched on and off becomes enableable here too. Executed only by
// the owner, outside of frames.
func (w *World) Load(in io.Reader) error {
	if w.inFrame {
		return w.lockedErr("World.Load")
	}
	f, err := readSave(in)
	if err != nil {
		return err
	}
	var s Snapshot
	if err := w.snapshotOf(f, &s); err != nil {
		return errorf(ErrBadFile, "", "", "the save file does not fit this world: %v; load it into a world made as the saved one was (the same components, resources and systems)", err)
	}
	if err := w.makeArchetypes(f); err != nil {
		return err
	}
	w.makeEnabled(&s)
	return w.Restore(&s)
}

// readSave reads and decodes a save file, checking its header.
func readSave(in io.Reader) (*saveFile, error) {
	var head [headerSize]byte
	if _, err := io.ReadFull(in, head[:]); err != nil {
		return nil, errorf(ErrBadFile, "", "", "the save file ends inside its header (%v): it is truncated or not a save file", err)
	}
	if !bytes.Equal(head[:8], saveMagic[:]) {
		return nil, errorf(ErrBadFile, "", "", "the file does not start with %q: it is not a weft save file", saveMagic[:])
	}
	if v := binary.LittleEndian.Uint32(head[8:]); v != SaveVersion {
		return nil, errorf(ErrSaveVersion, "", "", "the save file has format version %d and this build reads version %d; load it with the weft version that wrote it", v, SaveVersion)
	}
	size, sum := binary.LittleEndian.Uint64(head[12:]), binary.LittleEndian.Uint32(head[20:])
	var payload bytes.Buffer
	n, err := io.Copy(&payload, io.LimitReader(in, int64(min(size, 1<<62))))
	if err != nil || uint64(n) != size {
		return nil, errorf(ErrBadFile, "", "", "the save file is truncated: %d of its %d bytes of payload", n, size)
	}
	if crc32.ChecksumIEEE(payload.Bytes()) != sum {
		return nil, errorf(ErrBadFile, "", "", "the save file is corrupted: its checksum does not match its contents")
	}
	var f saveFile
	if err := cbor.Unmarshal(payload.Bytes(), &f); err != nil {
		return nil, errorf(ErrBadFile, "", "", "the save file is corrupted: %v", err)
	}
	return &f, nil
}
