package netplay

import "github.com/weft-engine/weft/internal/fault"

// Reader turns datagrams into packets for one session. It refuses, with a
// typed error, what a session must not act on: a malformed or truncated
// packet (WEFT-N002), a forged one (a tag that does not check, another
// session's, a player's from an address that player is not at: WEFT-N003),
// one received before or older than the window of the last 64 sequence
// numbers (WEFT-N004), and one whose sequence number or step is further
// ahead than a peer can be (WEFT-N005). Each refusal is counted by code; a
// refused packet changes nothing. Executed only by the session's owner.
type Reader struct {
	key     []byte
	session uint64
	// addrs is where each player's packets come from ("" not known yet:
	// the first packet that checks decides).
	addrs   []string
	windows map[string]*seqWindow // by sender address
	refused map[fault.Code]int
	// FarAhead is how many steps past the local step a packet's step and
	// inputs may reach (default 240).
	FarAhead int32
}

// NewReader makes a reader for the session id's packets from players
// whose addresses are addrs ("" for one not known, or the local player),
// tagged with key.
func NewReader(session uint64, key []byte, addrs []string) *Reader {
	return &Reader{key: key, session: session, addrs: append([]string(nil), addrs...),
		windows: map[string]*seqWindow{}, refused: map[fault.Code]int{}, FarAhead: 240}
}

// Read decodes b, received from addr while the local step is frame. A
// refused packet's error is a *Error of code WEFT-N002 to WEFT-N005.
func (r *Reader) Read(b []byte, addr string, frame int32) (*Packet, error) {
	p, err := r.read(b, addr, frame)
	if err != nil {
		if e, ok := err.(*Error); ok {
			r.refused[e.Code]++
		}
		return nil, err
	}
	return p, nil
}

func (r *Reader) read(b []byte, addr string, frame int32) (*Packet, error) {
	p, err := decodePacket(b, r.key)
	if err != nil {
		return nil, err
	}
	if p.Session != r.session {
		return nil, errorf(ErrForged, nil, "a packet of session %#x in session %#x", p.Session, r.session)
	}
	if p.From != spectatorFrom {
		if int(p.From) >= len(r.addrs) {
			return nil, errorf(ErrForged, nil, "a packet from player %d in a session of %d players", p.From, len(r.addrs))
		}
		if want := r.addrs[p.From]; want != "" && want != addr {
			return nil, errorf(ErrForged, nil, "a packet from player %d sent from %s; that player is at %s", p.From, addr, want)
		}
	}
	if p.Kind == KindData {
		d := &p.Data
		if d.Frame > frame+r.FarAhead || d.InStart > frame+r.FarAhead {
			return nil, errorf(ErrFarFuture, nil, "a packet of step %d (inputs from %d) at local step %d: no peer can be more than %d steps ahead",
				d.Frame, d.InStart, frame, r.FarAhead)
		}
	}
	w := r.windows[addr]
	if w == nil {
		w = &seqWindow{}
		r.windows[addr] = w
	}
	if err := w.accept(p.Seq); err != nil {
		return nil, err
	}
	return p, nil
}

// Learn records that player is at addr: later packets of that player from
// elsewhere are forged.
func (r *Reader) Learn(player int, addr string) {
	if player >= 0 && player < len(r.addrs) && r.addrs[player] == "" {
		r.addrs[player] = addr
	}
}

// Refused is the number of packets refused with code so far.
func (r *Reader) Refused(code fault.Code) int { return r.refused[code] }

// RefusedTotal is the number of packets refused so far.
func (r *Reader) RefusedTotal() int {
	n := 0
	for _, v := range r.refused {
		n += v
	}
	return n
}

// seqWindow accepts each sequence number once: the highest seen and a
// bitmap of the 64 below it.
type seqWindow struct {
	top  uint32
	bits uint64 // bit i: top-i was seen
	any  bool
}

// maxSeqJump is how far ahead of the last one a sequence number may be.
const maxSeqJump = 1 << 16

func (w *seqWindow) accept(seq uint32) error {
	if !w.any {
		if seq > maxSeqJump {
			return errorf(ErrFarFuture, nil, "a first packet of sequence number %d (at most %d)", seq, maxSeqJump)
		}
		w.any, w.top, w.bits = true, seq, 1
		return nil
	}
	switch {
	case seq > w.top:
		d := seq - w.top
		if d > maxSeqJump {
			return errorf(ErrFarFuture, nil, "a packet of sequence number %d after %d: further ahead than %d", seq, w.top, maxSeqJump)
		}
		if d >= 64 {
			w.bits = 0
		} else {
			w.bits <<= d
		}
		w.top, w.bits = seq, w.bits|1
	case w.top-seq >= 64:
		return errorf(ErrReplayed, nil, "a packet of sequence number %d, older than the window (the last is %d)", seq, w.top)
	case w.bits&(1<<(w.top-seq)) != 0:
		return errorf(ErrReplayed, nil, "a packet of sequence number %d, received before", seq)
	default:
		w.bits |= 1 << (w.top - seq)
	}
	return nil
}
