package netplay

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math"
	"slices"
)

// The wire format: every packet is a header, a payload of its kind and an
// 8-byte tag (HMAC-SHA256 of everything before it, under the session's
// key), little endian throughout:
//
//	magic "wN" | version | kind | session u64 | from u8 | seq u32 | payload | tag [8]
//
// A data packet's payload is what a peer sends 60 times a second, so it
// is kept small (version 2; version 1 spent 37 bytes on its fields before
// any input): a byte of flags says which sections follow, steps are
// varints from the sender's step, a ping stamp takes 3 bytes and is in
// one packet in four (pingEvery), and the inputs (the sender's own not yet
// acknowledged, or every player's to a spectator) go as what changed since
// the step before (appendRun): a player's input is mostly the same from
// step to step. In order:
//
//	flags u8 | [flags u8] | step uvarint | advance varint | [ping u24] | [echo u24 | hold u16]
//	| ack varint (from step) | [stride uvarint] | [inputs: start varint (from
//	step) | bytes uvarint | run] | [all: start uvarint | bytes uvarint | run]
//	| [players] | [digests: step varint (from step) | hash u64] | [detail]
//	| [query] | [answer]
//
// Every encoding has one form (varints minimal, runs maximal, no flag or
// mask bit for what is not there), so a packet the reader accepts encodes
// back to the same bytes.
const (
	wireMagic0, wireMagic1 = 'w', 'N'
	wireVersion            = 2
	headerLen              = 2 + 1 + 1 + 8 + 1 + 4
	tagLen                 = 8
	// MaxPacket is the largest packet the session writes or reads: below
	// the 1,280 bytes of IPv6's minimum MTU, so that no packet fragments.
	MaxPacket = 1200
	// MaxPlayers is the most players a session has.
	MaxPlayers = 4
	// spectatorFrom is the sender index of a spectator's packets.
	spectatorFrom = 0xFF
	maxInputRun   = 64   // inputs in one packet at most
	maxRunBytes   = 4096 // bytes a section of inputs decodes to at most
	maxDigests    = 8
	maxSystems    = 64
	maxRowHashes  = 64
	maxRowText    = 96
	stampMask     = 1<<24 - 1 // Ping and Echo: µs, wrapping at 24 bits (16.7 s)
)

// The sections of a data packet, by their bit in its flags: those of the
// steady state in the first byte, the rare ones in a second byte that
// follows only when one of them is there (secMore).
const (
	secPing = 1 << iota
	secEcho
	secInputs
	secAll
	secDigests
	secMore
	secPlayers = 1 << (iota - 6 + 8)
	secDetail
	secQuery
	secAnswer
)

// Kind is what a packet carries.
type Kind uint8

// The packet kinds.
const (
	KindHello Kind = 1 + iota // a peer or spectator asks to join; answered by data
	KindData                  // inputs, acknowledgements, time sync, digests
	KindBye                   // the sender leaves the session
)

// Packet is one decoded packet.
type Packet struct {
	Kind    Kind
	Session uint64
	From    uint8 // the sender's player index; 0xFF for a spectator
	Seq     uint32

	Hello Hello // KindHello
	Data  Data  // KindData
}

// Hello describes the sender's game and settings: a peer joins only a
// session whose hello matches its own.
type Hello struct {
	Game      uint64 // the game's own description (Config.Game)
	Players   uint8
	InputSize uint16
	Delay     uint8
	Window    uint8
	StepNs    int64
	Spectator bool
}

// Data is a data packet's payload.
type Data struct {
	Frame   int32  // the sender's current step
	Advance int16  // the sender's advantage over the receiver, in steps
	Ping    uint32 // the sender's clock when sent, in µs, wrapping at 24 bits (0: none)
	Echo    uint32 // the last Ping the sender got from the receiver (0: none)
	Hold    uint16 // how long the sender held Echo before this packet, in 10 µs
	Ack     int32  // the last step of the receiver's inputs the sender has, contiguous
	// Stride is the bytes of one step in Inputs and All: each byte is sent
	// XORed with the one a stride before. AppendPacket takes 1 for a
	// stride of 0 or one that does not divide them.
	Stride  uint16
	InStart int32  // the first step of Inputs
	Inputs  []byte // the sender's inputs from InStart, InputSize bytes each
	// All are the inputs of every player from AllStart (to spectators):
	// per step, Players inputs then a status byte per player.
	AllStart int32
	All      []byte
	Players  []PlayerStatus // what the sender knows of each player
	Digests  []StepDigest   // the world digests of its confirmed check steps
	Detail   *Detail        // per-system digests of a step that differs
	Query    *RowQuery      // a range of a system's rows the sender asks about
	Answer   *RowAnswer     // the answer to the receiver's query
}

// PlayerStatus is what a peer knows of a player.
type PlayerStatus struct {
	Gone  bool  // left or timed out
	Frame int32 // the last step of its inputs known (if Gone: its last step)
}

// StepDigest is the world digest after a confirmed step.
type StepDigest struct {
	Frame int32
	Hash  uint64
}

// Detail is the per-system digests of a step, in the order the systems ran.
type Detail struct {
	Frame int32
	Sums  []uint64
}

// RowQuery asks for rows [Lo, Hi) of a system's written rows in a step,
// sorted by entity and component.
type RowQuery struct {
	Frame  int32
	System uint8
	Lo, Hi uint32
}

// RowAnswer answers a RowQuery: the hashes of up to 64 equal parts of the
// range, or, for a short range, its rows.
type RowAnswer struct {
	RowQuery
	Hashes []uint64
	Rows   []Row
}

// Row is one written row: its entity, component, digest and value as text.
type Row struct {
	ID, Gen   uint32
	Component string
	Sum       uint64
	Value     string
}

// AppendPacket appends p to dst, tagged with key: the bytes a session
// sends, for a transport's tests or a tool that speaks to peers.
func AppendPacket(dst []byte, p *Packet, key []byte) []byte {
	start := len(dst)
	dst = append(dst, wireMagic0, wireMagic1, wireVersion, byte(p.Kind))
	dst = binary.LittleEndian.AppendUint64(dst, p.Session)
	dst = append(dst, p.From)
	dst = binary.LittleEndian.AppendUint32(dst, p.Seq)
	switch p.Kind {
	case KindHello:
		h := &p.Hello
		dst = binary.LittleEndian.AppendUint64(dst, h.Game)
		dst = append(dst, h.Players)
		dst = binary.LittleEndian.AppendUint16(dst, h.InputSize)
		dst = append(dst, h.Delay, h.Window)
		dst = binary.LittleEndian.AppendUint64(dst, uint64(h.StepNs))
		dst = append(dst, b2u(h.Spectator))
	case KindData:
		dst = appendData(dst, &p.Data)
	}
	return append(dst, tag(key, dst[start:])...)
}

func appendData(dst []byte, d *Data) []byte {
	le := binary.LittleEndian
	flags := 0
	for _, c := range []struct {
		on  bool
		bit int
	}{
		{d.Ping&stampMask != 0, secPing}, {d.Echo&stampMask != 0, secEcho}, {len(d.Inputs) > 0, secInputs},
		{len(d.All) > 0, secAll}, {len(d.Digests) > 0, secDigests}, {len(d.Players) > 0, secPlayers},
		{d.Detail != nil, secDetail}, {d.Query != nil, secQuery}, {d.Answer != nil, secAnswer},
	} {
		if c.on {
			flags |= c.bit
		}
	}
	if flags>>8 != 0 {
		flags |= secMore
		dst = append(dst, byte(flags), byte(flags>>8))
	} else {
		dst = append(dst, byte(flags))
	}
	dst = binary.AppendUvarint(dst, uint64(uint32(d.Frame)))
	dst = binary.AppendVarint(dst, int64(d.Advance))
	if flags&secPing != 0 {
		dst = appendStamp(dst, d.Ping)
	}
	if flags&secEcho != 0 {
		dst = appendStamp(dst, d.Echo)
		dst = le.AppendUint16(dst, d.Hold)
	}
	dst = binary.AppendVarint(dst, int64(d.Ack)-int64(d.Frame))
	if flags&(secInputs|secAll) != 0 {
		stride := int(d.Stride)
		if stride < 1 || len(d.Inputs)%stride != 0 || len(d.All)%stride != 0 {
			stride = 1
		}
		dst = binary.AppendUvarint(dst, uint64(stride))
		if flags&secInputs != 0 {
			dst = binary.AppendVarint(dst, int64(d.InStart)-int64(d.Frame))
			dst = binary.AppendUvarint(dst, uint64(len(d.Inputs)))
			dst = appendRun(dst, d.Inputs, stride)
		}
		if flags&secAll != 0 {
			dst = binary.AppendUvarint(dst, uint64(uint32(d.AllStart)))
			dst = binary.AppendUvarint(dst, uint64(len(d.All)))
			dst = appendRun(dst, d.All, stride)
		}
	}
	if flags&secPlayers != 0 {
		dst = append(dst, byte(len(d.Players)))
		for _, s := range d.Players {
			dst = append(dst, b2u(s.Gone))
			dst = binary.AppendVarint(dst, int64(s.Frame)-int64(d.Frame))
		}
	}
	if flags&secDigests != 0 {
		dst = append(dst, byte(len(d.Digests)))
		for _, g := range d.Digests {
			dst = binary.AppendVarint(dst, int64(g.Frame)-int64(d.Frame))
			dst = le.AppendUint64(dst, g.Hash)
		}
	}
	if d.Detail != nil {
		dst = le.AppendUint32(dst, uint32(d.Detail.Frame))
		dst = append(dst, byte(len(d.Detail.Sums)))
		for _, s := range d.Detail.Sums {
			dst = le.AppendUint64(dst, s)
		}
	}
	if d.Query != nil {
		dst = appendQuery(dst, d.Query)
	}
	if d.Answer == nil {
		return dst
	}
	a := d.Answer
	dst = appendQuery(dst, &a.RowQuery)
	dst = append(dst, byte(len(a.Hashes)))
	for _, h := range a.Hashes {
		dst = le.AppendUint64(dst, h)
	}
	dst = append(dst, byte(len(a.Rows)))
	for _, r := range a.Rows {
		dst = le.AppendUint32(dst, r.ID)
		dst = le.AppendUint32(dst, r.Gen)
		dst = appendText(dst, r.Component)
		dst = le.AppendUint64(dst, r.Sum)
		dst = appendText(dst, r.Value)
	}
	return dst
}

// appendStamp appends a ping stamp's 24 bits.
func appendStamp(dst []byte, v uint32) []byte {
	return append(dst, byte(v), byte(v>>8), byte(v>>16))
}

// appendRun appends raw, steps of stride bytes, each step as its XOR with
// the one before (the first with zeros): a mask of the bytes that differ
// (a bit each, (stride+7)/8 bytes) and those bytes; a step that differs
// in none is an empty mask and the count of such steps in a row, less
// one, as a uvarint. A player's input is mostly the same from step to
// step, so a run of equal inputs costs its first and two bytes, and a
// cursor moving a few units a step its low bytes and a mask.
func appendRun(dst, raw []byte, stride int) []byte {
	m := (stride + 7) / 8
	var buf [256]byte // zeros: no allocation for an input of up to 256 bytes
	zero := buf[:]
	if stride > len(zero) {
		zero = make([]byte, stride)
	}
	prev := zero[:stride]
	for i := 0; i < len(raw); {
		cur := raw[i : i+stride]
		if string(cur) == string(prev) {
			n := 1
			for i+(n+1)*stride <= len(raw) && string(raw[i+n*stride:i+(n+1)*stride]) == string(prev) {
				n++
			}
			dst = binary.AppendUvarint(append(dst, zero[:m]...), uint64(n-1))
			i += n * stride
			continue
		}
		at := len(dst)
		dst = append(dst, zero[:m]...)
		for j := range stride {
			if x := cur[j] ^ prev[j]; x != 0 {
				dst[at+j/8] |= 1 << (j % 8)
				dst = append(dst, x)
			}
		}
		prev = cur
		i += stride
	}
	return dst
}

func appendQuery(dst []byte, q *RowQuery) []byte {
	dst = binary.LittleEndian.AppendUint32(dst, uint32(q.Frame))
	dst = append(dst, q.System)
	dst = binary.LittleEndian.AppendUint32(dst, q.Lo)
	return binary.LittleEndian.AppendUint32(dst, q.Hi)
}

func appendText(dst []byte, s string) []byte {
	if len(s) > maxRowText {
		s = s[:maxRowText-3] + "..."
	}
	return append(append(dst, byte(len(s))), s...)
}

func b2u(b bool) byte {
	if b {
		return 1
	}
	return 0
}

// tag is the packet's authentication: the first 8 bytes of HMAC-SHA256.
func tag(key, msg []byte) []byte {
	m := hmac.New(sha256.New, key)
	m.Write(msg)
	return m.Sum(nil)[:tagLen]
}

// decoder reads fields in order; the first short read sets err.
type decoder struct {
	b   []byte
	err error
}

func (d *decoder) take(n int) []byte {
	if d.err != nil {
		return nil
	}
	if n < 0 || n > len(d.b) {
		d.err = fmt.Errorf("truncated: %d bytes wanted, %d left", n, len(d.b))
		return nil
	}
	s := d.b[:n]
	d.b = d.b[n:]
	return s
}

func (d *decoder) u8() uint8 {
	if s := d.take(1); s != nil {
		return s[0]
	}
	return 0
}

func (d *decoder) u16() uint16 {
	if s := d.take(2); s != nil {
		return binary.LittleEndian.Uint16(s)
	}
	return 0
}

func (d *decoder) u32() uint32 {
	if s := d.take(4); s != nil {
		return binary.LittleEndian.Uint32(s)
	}
	return 0
}

func (d *decoder) u64() uint64 {
	if s := d.take(8); s != nil {
		return binary.LittleEndian.Uint64(s)
	}
	return 0
}

func (d *decoder) flag() bool {
	v := d.u8()
	if v > 1 && d.err == nil {
		d.err = fmt.Errorf("a flag of %d", v)
	}
	return v == 1
}

// uvarint reads a uvarint of at most max, in its one (minimal) form.
func (d *decoder) uvarint(max uint64) uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b)
	switch {
	case n == 0:
		d.err = fmt.Errorf("truncated: a varint cut short")
	case n < 0:
		d.err = fmt.Errorf("a varint of more than 64 bits")
	case n > 1 && d.b[n-1] == 0:
		d.err = fmt.Errorf("a varint of %d bytes with a zero last byte: not its minimal form", n)
	case v > max:
		d.err = fmt.Errorf("a varint of %d (at most %d)", v, max)
	}
	if d.err != nil {
		return 0
	}
	d.b = d.b[n:]
	return v
}

// varint reads a varint (zigzag, as binary.AppendVarint writes it) in
// [lo, hi], in its minimal form.
func (d *decoder) varint(lo, hi int64) int64 {
	u := d.uvarint(math.MaxUint64)
	v := int64(u >> 1)
	if u&1 != 0 {
		v = ^v
	}
	if d.err == nil && (v < lo || v > hi) {
		d.err = fmt.Errorf("a varint of %d (%d to %d)", v, lo, hi)
	}
	if d.err != nil {
		return 0
	}
	return v
}

// step reads a step sent as a varint from base, in [lo, MaxInt32].
func (d *decoder) step(base int32, lo int64) int32 {
	return int32(int64(base) + d.varint(lo-int64(base), math.MaxInt32-int64(base)))
}

func (d *decoder) stamp() uint32 {
	if s := d.take(3); s != nil {
		return uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16
	}
	return 0
}

// run reads n bytes coded by appendRun with stride, refusing any other
// form than appendRun's: a set bit for an equal byte, a bit past the
// stride, an empty mask after an empty mask, a run past n.
func (d *decoder) run(n, stride int) []byte {
	if d.err != nil {
		return nil
	}
	m := (stride + 7) / 8
	out := make([]byte, 0, n)
	prev := make([]byte, stride)
	same := false // the last step was a run of equal ones: the next differs
	for len(out) < n && d.err == nil {
		mask := d.take(m)
		if d.err != nil {
			break
		}
		if !slices.ContainsFunc(mask, func(b byte) bool { return b != 0 }) {
			k := int(d.uvarint(uint64((n-len(out))/stride-1))) + 1
			if same && d.err == nil {
				d.err = fmt.Errorf("two runs of equal steps in a row: not their one form")
			}
			for i := 0; i < k && d.err == nil; i++ {
				out = append(out, prev...)
			}
			same = true
			continue
		}
		if stride%8 != 0 && mask[m-1]>>(stride%8) != 0 {
			d.err = fmt.Errorf("a mask with bits past a step of %d bytes", stride)
			break
		}
		at := len(out)
		out = append(out, prev...)
		for j := 0; j < stride && d.err == nil; j++ {
			if mask[j/8]&(1<<(j%8)) == 0 {
				continue
			}
			x := d.u8()
			if x == 0 && d.err == nil {
				d.err = fmt.Errorf("a byte masked as changed that does not change")
			}
			out[at+j] ^= x
		}
		prev, same = out[at:at+stride], false
	}
	if d.err != nil {
		return nil
	}
	return out
}

func (d *decoder) text() string {
	n := int(d.u8())
	if n > maxRowText && d.err == nil {
		d.err = fmt.Errorf("a text of %d bytes (at most %d)", n, maxRowText)
	}
	return string(d.take(n))
}

func (d *decoder) query(q *RowQuery) {
	q.Frame, q.System, q.Lo, q.Hi = int32(d.u32()), d.u8(), d.u32(), d.u32()
	if d.err == nil && (q.Lo > q.Hi || q.Frame < 0) {
		d.err = fmt.Errorf("a row range [%d, %d) of step %d", q.Lo, q.Hi, q.Frame)
	}
}

// decodePacket reads one packet, checking its format and its tag; it
// refuses with WEFT-N002 (malformed) or WEFT-N003 (forged).
func decodePacket(b []byte, key []byte) (*Packet, error) {
	if len(b) > MaxPacket {
		return nil, errorf(ErrMalformed, nil, "a packet of %d bytes (at most %d)", len(b), MaxPacket)
	}
	if len(b) < headerLen+tagLen {
		return nil, errorf(ErrMalformed, nil, "a packet of %d bytes, shorter than a header and a tag (%d)", len(b), headerLen+tagLen)
	}
	if b[0] != wireMagic0 || b[1] != wireMagic1 {
		return nil, errorf(ErrMalformed, nil, "a packet that does not start with %q", "wN")
	}
	if b[2] != wireVersion {
		return nil, errorf(ErrMalformed, nil, "a packet of format version %d; this build speaks version %d", b[2], wireVersion)
	}
	body, sum := b[:len(b)-tagLen], b[len(b)-tagLen:]
	if !hmac.Equal(sum, tag(key, body)) {
		return nil, errorf(ErrForged, nil, "a packet whose tag does not check: forged, corrupted, or keyed for another session")
	}
	d := decoder{b: body[3:]}
	p := &Packet{Kind: Kind(d.u8()), Session: d.u64(), From: d.u8(), Seq: d.u32()}
	switch p.Kind {
	case KindHello:
		h := &p.Hello
		h.Game, h.Players, h.InputSize = d.u64(), d.u8(), d.u16()
		h.Delay, h.Window, h.StepNs, h.Spectator = d.u8(), d.u8(), int64(d.u64()), d.flag()
	case KindData:
		decodeData(&d, &p.Data)
	case KindBye:
	default:
		return nil, errorf(ErrMalformed, nil, "a packet of kind %d", p.Kind)
	}
	if d.err != nil {
		return nil, errorf(ErrMalformed, d.err, "a %s packet", p.Kind)
	}
	if len(d.b) != 0 {
		return nil, errorf(ErrMalformed, nil, "a %s packet with %d bytes after its payload", p.Kind, len(d.b))
	}
	return p, nil
}

func decodeData(d *decoder, p *Data) {
	flags := int(d.u8())
	if flags&secMore != 0 {
		flags |= int(d.u8()) << 8
		if flags>>8 == 0 && d.err == nil {
			d.err = fmt.Errorf("a second byte of flags that flags nothing")
		}
	}
	if flags&^(1<<6-1|secPlayers|secDetail|secQuery|secAnswer) != 0 && d.err == nil {
		d.err = fmt.Errorf("flags %#x: sections this version does not have", flags)
	}
	p.Frame = int32(d.uvarint(math.MaxInt32))
	p.Advance = int16(d.varint(math.MinInt16, math.MaxInt16))
	if flags&secPing != 0 {
		p.Ping = d.stamp()
		if p.Ping == 0 && d.err == nil {
			d.err = fmt.Errorf("a ping flagged but 0")
		}
	}
	if flags&secEcho != 0 {
		p.Echo, p.Hold = d.stamp(), d.u16()
		if p.Echo == 0 && d.err == nil {
			d.err = fmt.Errorf("an echo flagged but 0")
		}
	}
	p.Ack = d.step(p.Frame, -1)
	if flags&(secInputs|secAll) != 0 {
		stride := int(d.uvarint(maxRunBytes))
		if stride == 0 && d.err == nil {
			d.err = fmt.Errorf("a stride of 0")
		}
		p.Stride = uint16(stride)
		section := func() []byte {
			n := int(d.uvarint(maxRunBytes))
			if d.err == nil && (n == 0 || n%stride != 0) {
				d.err = fmt.Errorf("a section of %d bytes of inputs, in steps of %d", n, stride)
			}
			return d.run(n, stride)
		}
		if flags&secInputs != 0 {
			p.InStart = d.step(p.Frame, 0)
			p.Inputs = section()
		}
		if flags&secAll != 0 {
			p.AllStart = int32(d.uvarint(math.MaxInt32))
			p.All = section()
		}
	}
	if flags&secPlayers != 0 {
		n := int(d.u8())
		if (n == 0 || n > MaxPlayers) && d.err == nil {
			d.err = fmt.Errorf("%d players (1 to %d)", n, MaxPlayers)
		}
		for i := 0; i < n && d.err == nil; i++ {
			p.Players = append(p.Players, PlayerStatus{Gone: d.flag(), Frame: d.step(p.Frame, math.MinInt32)})
		}
	}
	if flags&secDigests != 0 {
		n := int(d.u8())
		if (n == 0 || n > maxDigests) && d.err == nil {
			d.err = fmt.Errorf("%d digests (1 to %d)", n, maxDigests)
		}
		for i := 0; i < n && d.err == nil; i++ {
			p.Digests = append(p.Digests, StepDigest{Frame: d.step(p.Frame, math.MinInt32), Hash: d.u64()})
		}
	}
	if flags&secDetail != 0 {
		p.Detail = &Detail{Frame: int32(d.u32())}
		n := int(d.u8())
		if n > maxSystems && d.err == nil {
			d.err = fmt.Errorf("%d systems (at most %d)", n, maxSystems)
		}
		for i := 0; i < n && d.err == nil; i++ {
			p.Detail.Sums = append(p.Detail.Sums, d.u64())
		}
	}
	if flags&secQuery != 0 {
		p.Query = &RowQuery{}
		d.query(p.Query)
	}
	if flags&secAnswer != 0 {
		a := &RowAnswer{}
		d.query(&a.RowQuery)
		n := int(d.u8())
		if n > maxRowHashes && d.err == nil {
			d.err = fmt.Errorf("%d row hashes (at most %d)", n, maxRowHashes)
		}
		for i := 0; i < n && d.err == nil; i++ {
			a.Hashes = append(a.Hashes, d.u64())
		}
		n = int(d.u8())
		for i := 0; i < n && d.err == nil; i++ {
			a.Rows = append(a.Rows, Row{ID: d.u32(), Gen: d.u32(), Component: d.text(), Sum: d.u64(), Value: d.text()})
		}
		p.Answer = a
	}
}

func (k Kind) String() string {
	switch k {
	case KindHello:
		return "hello"
	case KindData:
		return "data"
	case KindBye:
		return "bye"
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}
