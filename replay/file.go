package replay

import (
	"bufio"
	"bytes"
	"errors"
	"hash/crc32"
	"io"

	"github.com/fxamacker/cbor/v2"

	"github.com/weft-engine/weft/engine"
)

// A replay file is a CBOR sequence (RFC 8742): a Header, then one Step
// per fixed step, each written as the step ends, so that a recording cut
// short by a crash keeps every whole step before it. CBOR is
// self-describing, so a reader can skip what it does not know and a
// corrupted file is refused, not misread.

// Magic opens every header: a file without it is not a replay.
const Magic = "weft-replay"

// Version is the format this package writes and reads; a file of
// another version is refused with WEFT-R002. A version also fixes what
// the digests cover, so a file whose digests were made otherwise is
// refused rather than found to diverge. Every version seals its header
// the same way (a Check over its canonical encoding), so that a header of
// another version is told from a corrupted one.
const Version = 2

// Header opens a recording: what a player needs to rebuild the run.
type Header struct {
	Magic     string
	Version   int
	FixedStep int64    // the engine's fixed step, in nanoseconds
	Systems   []string // the systems with digests, in the order they ran (engine.Engine.Digests)
	Resources []string // the tracked resources, in Track order
	Meta      []byte   // the game's own description of the run (seed, scene), encoded by Encode
	Check     uint32   // CRC-32 of the header encoded with Check 0: a changed byte is found
}

// Step is what entered one fixed step from outside the systems and what
// it left: the player sets the former and checks the latter.
type Step struct {
	Frame     uint64        // the Step call (the window's frame) that ran it, from 0
	FrameDT   int64         // that frame's real time in nanoseconds, on its first step only
	Input     engine.Input  // the engine's Input resource
	Camera    engine.Camera // the engine's Camera resource
	Resources [][]byte      // the tracked resources, in Header.Resources order, each encoded by Encode
	Actions   [][]byte      // the owner's actions before the step (Recorder.Do), in order
	Hash      uint64        // the world's digest after the step (Sim.Digest)
	Digests   []uint64      // what each system wrote, in Header.Systems order
	Failed    bool          // the step returned an error
	Check     uint32        // CRC-32 of the step encoded with Check 0: a changed byte is found
}

// Recording is a replay file read whole.
type Recording struct {
	Header Header
	Steps  []Step
}

// Meta decodes the header's Meta into v.
func (r *Recording) Meta(v any) error {
	if err := decMode.Unmarshal(r.Header.Meta, v); err != nil {
		return errorf(ErrBadFile, err, "decoding the recording's Meta into %T; decode it into the type the recording game encoded", v)
	}
	return nil
}

// Encode encodes v as CBOR, for Header.Meta and actions.
func Encode(v any) ([]byte, error) { return encMode.Marshal(v) }

// Decode decodes CBOR made by Encode into v.
func Decode(data []byte, v any) error { return decMode.Unmarshal(data, v) }

// The limits keep a corrupted or hostile file from asking for huge
// allocations: a step holds a handful of small items.
var (
	encMode, _ = cbor.CoreDetEncOptions().EncMode()
	decMode, _ = cbor.DecOptions{
		MaxNestedLevels:  16,
		MaxArrayElements: 1 << 16,
		MaxMapPairs:      1 << 10,
		DupMapKey:        cbor.DupMapKeyEnforcedAPF,
		IndefLength:      cbor.IndefLengthForbidden,
	}.DecMode()
)

// Read reads a whole recording. A file that is not a replay, or one
// truncated or corrupted, is refused with WEFT-R001, one of another
// format version with WEFT-R002; a recording that ends inside a step
// keeps the steps before it and answers WEFT-R001.
//
// Read checks the bytes as read: it takes an item (the header, a step)
// only when its bytes are exactly the encoding this package writes of
// what they decode to, and its Check is the CRC-32 of that encoding with
// Check 0. So no byte of the file goes unchecked: a key name, a length,
// a value of zero or the check itself, changed, is refused.
func Read(r io.Reader) (*Recording, error) {
	dec := decMode.NewDecoder(bufio.NewReader(r))
	rec := &Recording{}
	var raw cbor.RawMessage
	err := dec.Decode(&raw)
	if err == nil {
		err = decMode.Unmarshal(raw, &rec.Header)
	}
	if err != nil {
		return nil, errorf(ErrBadFile, err, "the file does not start with a replay header; is it a file written by replay.Recorder (weft's -record)?")
	}
	h, sealed := &rec.Header, headerSealed(raw)
	switch {
	case h.Magic != Magic:
		return nil, errorf(ErrBadFile, nil, "the file's header is not a replay's (magic %q, want %q); is it a file written by replay.Recorder (weft's -record)?", h.Magic, Magic)
	case !sealed && h.Version != Version:
		return nil, errorf(ErrBadFile, nil, "the recording's header fails its check: the file is corrupted (its header names format version %d; this build reads version %d)", h.Version, Version)
	case !sealed:
		return nil, errorf(ErrBadFile, nil, "the recording's header fails its check: the file is corrupted")
	case h.Version != Version:
		return nil, errorf(ErrVersion, nil, "the recording has format version %d; this build reads version %d: play it with the build that recorded it", h.Version, Version)
	case h.FixedStep <= 0:
		return nil, errorf(ErrBadFile, nil, "the header's fixed step is %d ns; the file is corrupted", h.FixedStep)
	}
	if err := exact(raw, h); err != nil {
		return nil, errorf(ErrBadFile, err, "the recording's header is corrupted")
	}
	for {
		var s Step
		err := dec.Decode(&raw)
		if errors.Is(err, io.EOF) {
			return rec, nil
		}
		if err == nil {
			err = decMode.Unmarshal(raw, &s)
		}
		if err == nil {
			err = exact(raw, &s)
		}
		if err == nil && !checked(&s, &s.Check) {
			err = errors.New("its check fails")
		}
		if err == nil {
			err = rec.check(&s)
		}
		if err != nil {
			return rec, errorf(ErrBadFile, err, "step %d of the recording is truncated or corrupted; the %d steps before it are whole", len(rec.Steps)+1, len(rec.Steps))
		}
		rec.Steps = append(rec.Steps, s)
	}
}

// exact refuses an item whose bytes raw are not the encoding of v, which
// was decoded from them: an unknown or misspelt key, a key in another
// case, a value in a longer form than needed. Then the check of v, made
// over its encoding, is a check of the bytes read.
func exact(raw []byte, v any) error {
	b, err := encMode.Marshal(v)
	if err == nil && !bytes.Equal(b, raw) {
		err = errors.New("its bytes are not the encoding of what they decode to: a key or a length is changed")
	}
	return err
}

// headerSealed reports whether raw, a header of any format version, is a
// CBOR map whose bytes are exactly its canonical encoding and whose
// Check is the CRC-32 of that encoding with Check 0. Every version seals
// its header so, which tells a file of another version (WEFT-R002) from
// a corrupted one (WEFT-R001) whatever fields that version's header has.
func headerSealed(raw []byte) bool {
	var m map[string]any
	if decMode.Unmarshal(raw, &m) != nil || m == nil || exact(raw, m) != nil { // nil: a CBOR null
		return false
	}
	c, ok := m["Check"].(uint64)
	m["Check"] = uint64(0)
	b, err := encMode.Marshal(m)
	return ok && err == nil && uint64(crc32.ChecksumIEEE(b)) == c
}

// seal sets *check to the CRC-32 of v encoded with *check 0, for checked.
func seal(v any, check *uint32) error {
	*check = 0
	b, err := encMode.Marshal(v)
	*check = crc32.ChecksumIEEE(b)
	return err
}

// checked reports whether *check is the CRC-32 of v encoded with *check 0
// (after exact, the bytes read with the check's own bytes as 0).
func checked(v any, check *uint32) bool {
	want := *check
	err := seal(v, check)
	got := *check
	*check = want
	return err == nil && got == want
}

// Write writes rec as a replay file, as a Recorder would have.
func Write(w io.Writer, rec *Recording) error {
	enc := encMode.NewEncoder(w)
	h := rec.Header
	if err := errors.Join(seal(&h, &h.Check), enc.Encode(h)); err != nil {
		return errorf(ErrMisuse, err, "writing a recording's header")
	}
	for i := range rec.Steps {
		s := rec.Steps[i]
		if err := errors.Join(seal(&s, &s.Check), enc.Encode(&s)); err != nil {
			return errorf(ErrMisuse, err, "writing step %d of a recording", i+1)
		}
	}
	return nil
}

// check refuses a step that does not fit the header or its predecessor.
func (r *Recording) check(s *Step) error {
	h := &r.Header
	switch {
	case len(s.Digests) != 0 && len(s.Digests) != len(h.Systems):
		return errorf(ErrBadFile, nil, "%d digests for %d systems", len(s.Digests), len(h.Systems))
	case len(s.Resources) != len(h.Resources):
		return errorf(ErrBadFile, nil, "%d resources for %d tracked", len(s.Resources), len(h.Resources))
	case len(r.Steps) > 0 && s.Frame < r.Steps[len(r.Steps)-1].Frame:
		return errorf(ErrBadFile, nil, "frame %d after frame %d", s.Frame, r.Steps[len(r.Steps)-1].Frame)
	}
	return nil
}
