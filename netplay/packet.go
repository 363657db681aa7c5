package netplay

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
)

// The wire format: every packet is a header, a payload of its kind and an
// 8-byte tag (HMAC-SHA256 of everything before it, under the session's
// key), little endian throughout:
//
//	magic "wN" | version | kind | session u64 | from u8 | seq u32 | payload | tag [8]
//
// A data packet's payload is the sender's step, its time-sync figures, its
// own inputs not yet acknowledged (redundancy: a lost packet costs nothing
// once a later one arrives), what it knows of every player, the digests of
// its confirmed check steps and, during a desync, the search for the
// first differing row. Sections a packet does not need take one byte.
const (
	wireMagic0, wireMagic1 = 'w', 'N'
	wireVersion            = 1
	headerLen              = 2 + 1 + 1 + 8 + 1 + 4
	tagLen                 = 8
	// MaxPacket is the largest packet the session writes or reads: below
	// the 1,280 bytes of IPv6's minimum MTU, so that no packet fragments.
	MaxPacket = 1200
	// MaxPlayers is the most players a session has.
	MaxPlayers = 4
	// spectatorFrom is the sender index of a spectator's packets.
	spectatorFrom = 0xFF
	maxInputRun   = 64 // inputs in one packet at most
	maxDigests    = 8
	maxSystems    = 64
	maxRowHashes  = 64
	maxRowText    = 96
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
	Ping    uint32 // the sender's clock when sent, in µs (wrapping; 0: none)
	Echo    uint32 // the last Ping the sender got from the receiver (0: none)
	Hold    uint16 // how long the sender held Echo before this packet, in 10 µs
	Ack     int32  // the last step of the receiver's inputs the sender has, contiguous
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
	dst = le.AppendUint32(dst, uint32(d.Frame))
	dst = le.AppendUint16(dst, uint16(d.Advance))
	dst = le.AppendUint32(dst, d.Ping)
	dst = le.AppendUint32(dst, d.Echo)
	dst = le.AppendUint16(dst, d.Hold)
	dst = le.AppendUint32(dst, uint32(d.Ack))
	dst = le.AppendUint32(dst, uint32(d.InStart))
	dst = le.AppendUint16(dst, uint16(len(d.Inputs)))
	dst = append(dst, d.Inputs...)
	dst = le.AppendUint32(dst, uint32(d.AllStart))
	dst = le.AppendUint16(dst, uint16(len(d.All)))
	dst = append(dst, d.All...)
	dst = append(dst, byte(len(d.Players)))
	for _, s := range d.Players {
		dst = append(dst, b2u(s.Gone))
		dst = le.AppendUint32(dst, uint32(s.Frame))
	}
	dst = append(dst, byte(len(d.Digests)))
	for _, g := range d.Digests {
		dst = le.AppendUint32(dst, uint32(g.Frame))
		dst = le.AppendUint64(dst, g.Hash)
	}
	if d.Detail == nil {
		dst = append(dst, 0)
	} else {
		dst = append(dst, 1)
		dst = le.AppendUint32(dst, uint32(d.Detail.Frame))
		dst = append(dst, byte(len(d.Detail.Sums)))
		for _, s := range d.Detail.Sums {
			dst = le.AppendUint64(dst, s)
		}
	}
	if d.Query == nil {
		dst = append(dst, 0)
	} else {
		dst = append(dst, 1)
		dst = appendQuery(dst, d.Query)
	}
	if d.Answer == nil {
		return append(dst, 0)
	}
	a := d.Answer
	dst = append(dst, 1)
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
	p.Frame, p.Advance = int32(d.u32()), int16(d.u16())
	p.Ping, p.Echo, p.Hold = d.u32(), d.u32(), d.u16()
	p.Ack, p.InStart = int32(d.u32()), int32(d.u32())
	p.Inputs = d.take(int(d.u16()))
	p.AllStart = int32(d.u32())
	p.All = d.take(int(d.u16()))
	if n := int(d.u8()); n <= MaxPlayers {
		for range n {
			p.Players = append(p.Players, PlayerStatus{Gone: d.flag(), Frame: int32(d.u32())})
		}
	} else if d.err == nil {
		d.err = fmt.Errorf("%d players (at most %d)", n, MaxPlayers)
	}
	if n := int(d.u8()); n <= maxDigests {
		for range n {
			p.Digests = append(p.Digests, StepDigest{Frame: int32(d.u32()), Hash: d.u64()})
		}
	} else if d.err == nil {
		d.err = fmt.Errorf("%d digests (at most %d)", n, maxDigests)
	}
	if d.flag() {
		p.Detail = &Detail{Frame: int32(d.u32())}
		n := int(d.u8())
		if n > maxSystems && d.err == nil {
			d.err = fmt.Errorf("%d systems (at most %d)", n, maxSystems)
		}
		for i := 0; i < n && d.err == nil; i++ {
			p.Detail.Sums = append(p.Detail.Sums, d.u64())
		}
	}
	if d.flag() {
		p.Query = &RowQuery{}
		d.query(p.Query)
	}
	if d.flag() {
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
	if d.err == nil && (p.Frame < 0 || p.InStart < 0 || p.AllStart < 0 || p.Ack < -1) {
		d.err = fmt.Errorf("a negative step (step %d, inputs from %d, all from %d, ack %d)", p.Frame, p.InStart, p.AllStart, p.Ack)
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
