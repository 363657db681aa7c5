package safety

import (
	"math/bits"
	"strconv"
)

// MaxKeys bounds the keys of a Registry: 256 component and 256 resource
// types, Ark's limits.
const MaxKeys = 512

const words = MaxKeys / 64

// Key names one component or resource type in an Access. Keys come from a
// Registry, dense from 0.
type Key uint16

// Mode is how a job uses a key.
type Mode uint8

// The modes. Write includes reading.
const (
	None Mode = iota
	Read
	Write
)

var modeNames = [...]string{"does not use", "reads", "writes"}

// String is the verb used in error texts: "reads", "writes".
func (m Mode) String() string {
	if int(m) < len(modeNames) {
		return modeNames[m]
	}
	return "Mode(?)"
}

type bitset [words]uint64

func (b *bitset) set(k Key)      { b[k>>6] |= 1 << (k & 63) }
func (b *bitset) has(k Key) bool { return b[k>>6]&(1<<(k&63)) != 0 }

// Access is a set of keys, each read or written. The zero value is empty.
// It is a value of 128 bytes: union and conflict tests are a few word
// operations, with no allocation.
type Access struct {
	r, w bitset // a written key is in w only
}

// Read adds k as read, unless it is already written.
func (a *Access) Read(k Key) {
	if !a.w.has(k) {
		a.r.set(k)
	}
}

// Write adds k as written.
func (a *Access) Write(k Key) {
	a.w.set(k)
	a.r[k>>6] &^= 1 << (k & 63)
}

// Add adds k with mode m; None adds nothing.
func (a *Access) Add(k Key, m Mode) {
	switch m {
	case Read:
		a.Read(k)
	case Write:
		a.Write(k)
	}
}

// Mode reports how a uses k.
func (a *Access) Mode(k Key) Mode {
	switch {
	case a.w.has(k):
		return Write
	case a.r.has(k):
		return Read
	}
	return None
}

// Union adds every key of o, keeping the stronger mode.
func (a *Access) Union(o *Access) {
	for i := range a.w {
		a.w[i] |= o.w[i]
		a.r[i] = (a.r[i] | o.r[i]) &^ a.w[i]
	}
}

// Conflict reports the lowest key that a and o both use with at least one
// writing it; ok is false if they do not conflict.
func (a *Access) Conflict(o *Access) (k Key, ok bool) {
	for i := range a.w {
		if c := a.conflicts(o, i); c != 0 {
			return Key(i*64 + bits.TrailingZeros64(c)), true
		}
	}
	return 0, false
}

// Conflicts appends to dst every key that a and o both use with at least
// one writing it, lowest first.
func (a *Access) Conflicts(o *Access, dst []Key) []Key {
	for i := range a.w {
		for c := a.conflicts(o, i); c != 0; c &= c - 1 {
			dst = append(dst, Key(i*64+bits.TrailingZeros64(c)))
		}
	}
	return dst
}

// conflicts is word i of the keys that a and o conflict on.
func (a *Access) conflicts(o *Access, i int) uint64 {
	return a.w[i]&(o.w[i]|o.r[i]) | o.w[i]&a.r[i]
}

// Empty reports whether a has no key.
func (a *Access) Empty() bool { return a.r == bitset{} && a.w == bitset{} }

// Decl is one declaration of a system: a key and its mode. A system's
// declarations are checked for conflicts among themselves by Check.
type Decl struct {
	Key  Key
	Mode Mode
}

// Registry names the keys, for error texts and for the unknown-key check.
// Executed only by the owner, at build time; afterwards it is read-only and
// any goroutine may read it.
type Registry struct {
	names []string
}

// Register adds a key named name (a type name, e.g. "Position").
func (r *Registry) Register(name string) (Key, error) {
	if len(r.names) >= MaxKeys {
		return 0, errorf(ErrBadArgument, "cannot register %q: a Registry holds at most %d keys", name, MaxKeys)
	}
	r.names = append(r.names, name)
	return Key(len(r.names) - 1), nil
}

// Name is k's name, or "key#k" for an unknown key.
func (r *Registry) Name(k Key) string {
	if r != nil && int(k) < len(r.names) {
		return r.names[k]
	}
	return "key#" + strconv.Itoa(int(k))
}

// Len is the number of registered keys.
func (r *Registry) Len() int { return len(r.names) }

func (r *Registry) known(k Key) bool { return int(k) < len(r.names) }

func trailing(u uint64) int { return bits.TrailingZeros64(u) }
