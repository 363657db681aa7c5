package ecs

import (
	"reflect"
	"strconv"
	"unsafe"

	ark "github.com/mlange-42/ark/ecs"
)

// layout is what playback and hashing need to know of a component type,
// found once by reflection when the type is registered: where its entity
// fields are (to resolve Spawn placeholders in recorded values) and its
// plain-data leaves (to hash a value the same way on every machine).
type layout struct {
	ents     []uintptr // offsets of ark.Entity fields, nested structs and arrays included
	entNames []string  // their paths, for problems: "Target.Of"
	leaves   []leaf    // numbers and strings, in field order; padding is not data
	opaque   string    // the first field that hashing cannot see through ("" if none)
	words    int       // 8-byte words of a type made only of them, else 0 (digest.go)
}

// leaf is a number of size bytes (1, 2, 4 or 8) at off, or a string.
type leaf struct {
	off  uintptr
	size uintptr
	str  bool
}

var entityType = reflect.TypeFor[ark.Entity]()

// layoutOf walks t's fields. Entities inside slices, maps, pointers or
// interfaces are out of its reach: such a field makes the type opaque to
// hashing and its entities are not resolved (see docs/guide/10-spawn-references.md).
func layoutOf(t reflect.Type) layout {
	var l layout
	l.walk(t, 0, t.Name())
	l.words = l.denseWords(t.Size())
	return l
}

func (l *layout) walk(t reflect.Type, off uintptr, path string) {
	switch k := t.Kind(); {
	case t == entityType:
		l.ents, l.entNames = append(l.ents, off), append(l.entNames, path)
		l.leaves = append(l.leaves, leaf{off: off, size: 4}, leaf{off: off + 4, size: 4})
	case k == reflect.Struct:
		for i := range t.NumField() {
			f := t.Field(i)
			l.walk(f.Type, off+f.Offset, path+"."+f.Name)
		}
	case k == reflect.Array:
		for i := range t.Len() {
			l.walk(t.Elem(), off+uintptr(i)*t.Elem().Size(), path+"["+strconv.Itoa(i)+"]")
		}
	case k == reflect.String:
		l.leaves = append(l.leaves, leaf{off: off, str: true})
	case k >= reflect.Bool && k <= reflect.Complex128 && k != reflect.Uintptr:
		if k == reflect.Complex64 || k == reflect.Complex128 { // two floats
			l.leaves = append(l.leaves, leaf{off: off, size: t.Size() / 2}, leaf{off: off + t.Size()/2, size: t.Size() / 2})
			return
		}
		l.leaves = append(l.leaves, leaf{off: off, size: t.Size()})
	default: // pointers, slices, maps, interfaces, channels, functions, uintptr
		if l.opaque == "" {
			l.opaque = path + " (" + k.String() + ")"
		}
	}
}

// fnv64 is FNV-1a, 64 bits, fed little-endian numbers: the digest of
// World.Hash.
type fnv64 uint64

const (
	fnvOffset fnv64 = 14695981039346656037
	fnvPrime  fnv64 = 1099511628211
)

// put hashes the low size bytes of v, least significant first.
func (h *fnv64) put(v uint64, size uintptr) {
	for i := range size {
		*h = (*h ^ fnv64(byte(v>>(8*i)))) * fnvPrime
	}
}

// value hashes the value at p, leaf by leaf.
func (h *fnv64) value(l *layout, p unsafe.Pointer) {
	for _, f := range l.leaves {
		q := unsafe.Add(p, f.off)
		switch {
		case f.str:
			s := *(*string)(q)
			h.put(uint64(len(s)), 8)
			for i := range len(s) {
				h.put(uint64(s[i]), 1)
			}
		case f.size == 1:
			h.put(uint64(*(*uint8)(q)), 1)
		case f.size == 2:
			h.put(uint64(*(*uint16)(q)), 2)
		case f.size == 4:
			h.put(uint64(*(*uint32)(q)), 4)
		default:
			h.put(*(*uint64)(q), 8)
		}
	}
}
