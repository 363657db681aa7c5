package netplay

import (
	"time"
)

// peer is what a session knows of a remote player's peer.
type peer struct {
	addr        string
	joined      bool
	heard       bool          // a data packet came: frame, adv and rtt mean something
	interrupted bool          // EventInterrupted given, not yet resumed
	lastHeard   time.Duration // on the session's clock
	ack         int32         // the last step of our inputs it has
	frame       int32         // its step, as it last said
	frameAt     time.Duration // when that packet came
	adv         int16         // its advantage over us, as it last said
	rtt         time.Duration
	echo        uint32        // its last Ping, until echoed (0: none)
	echoAt      time.Duration // when it came
	pings       int           // data packets sent it: every pingEvery-th has a Ping
	sent, recv  int           // bytes
}

// spectator is a spectator the session sends confirmed inputs to.
type spectator struct {
	addr      string
	ack       int32
	lastHeard time.Duration
	echo      uint32
	echoAt    time.Duration
	pings     int
	gone      bool
}

// pingEvery: a data packet in pingEvery carries a ping stamp, echoed once,
// in the next packet back. A round trip measured 15 times a second at 60
// Hz is plenty for time sync (it moves the step by a fraction of its
// half), and the other packets save the 3 to 8 bytes.
const pingEvery = 4

// poll reads every datagram waiting and acts on those that check.
func (s *Session[I]) poll(now time.Duration) error {
	if s.buf == nil {
		s.buf = make([]byte, 64<<10)
	}
	for {
		n, from, ok, err := s.cfg.Transport.Recv(s.buf)
		if err != nil {
			return errorf(ErrTransport, err, "receive")
		}
		if !ok {
			return nil
		}
		s.stats.RecvBytes += n
		p, err := s.rd.Read(s.buf[:n], from, s.cur)
		if err != nil {
			continue // counted by the reader
		}
		s.handle(p, from, now)
	}
}

func (s *Session[I]) handle(p *Packet, from string, now time.Duration) {
	if p.From == spectatorFrom {
		s.handleSpectator(p, from, now)
		return
	}
	pl := int(p.From)
	if pl == s.cfg.Local || pl >= s.cfg.Players {
		s.rd.refused[ErrForged]++
		return
	}
	pr := &s.peers[pl]
	if p.Kind == KindHello {
		if !s.helloMatches(&p.Hello, false) {
			s.rd.refused[ErrMismatch]++
			return
		}
	}
	s.rd.Learn(pl, from)
	if pr.addr == "" {
		pr.addr = from
	}
	if s.gone[pl] != never && p.Kind != KindBye {
		return // a player gone stays gone
	}
	pr.lastHeard = now
	pr.recv += len(p.Data.Inputs)
	if pr.interrupted {
		pr.interrupted = false
		s.events = append(s.events, Event{Kind: EventResumed, Player: pl, Addr: pr.addr})
	}
	if !pr.joined {
		pr.joined = true
		s.events = append(s.events, Event{Kind: EventJoined, Player: pl, Addr: pr.addr})
		s.startIfAll(now)
	}
	switch p.Kind {
	case KindBye:
		s.drop(pl, s.received[pl]+1, EventLeft)
	case KindData:
		s.handleData(pl, &p.Data, now)
	}
}

func (s *Session[I]) helloMatches(h *Hello, spectator bool) bool {
	want := s.hello
	want.Spectator = spectator
	return CheckHello(want, *h) == nil
}

// CheckHello compares a peer's hello with this session's: a peer joins
// only with the same game, players, input size and step rate, and (a
// player, not a spectator) the same input delay and window. A difference
// is WEFT-N006 naming it; the session counts it and ignores the peer.
func CheckHello(mine, theirs Hello) error {
	for _, d := range []struct {
		what      string
		mine, got any
	}{
		{"game (Config.Game)", mine.Game, theirs.Game}, {"players", mine.Players, theirs.Players},
		{"input size in bytes", mine.InputSize, theirs.InputSize}, {"step (ns, Config.StepRate)", mine.StepNs, theirs.StepNs},
		{"spectator", mine.Spectator, theirs.Spectator},
	} {
		if d.mine != d.got {
			return errorf(ErrMismatch, nil, "a peer's hello has %v as its %s, this peer has %v: run the same build of the game with the same settings", d.got, d.what, d.mine)
		}
	}
	if !mine.Spectator && (mine.Delay != theirs.Delay || mine.Window != theirs.Window) {
		return errorf(ErrMismatch, nil, "a peer's hello has input delay %d and window %d, this peer has %d and %d: give every peer the same Config.InputDelay and Config.Window",
			theirs.Delay, theirs.Window, mine.Delay, mine.Window)
	}
	return nil
}

func (s *Session[I]) startIfAll(now time.Duration) {
	if s.started {
		return
	}
	for p := range s.cfg.Players {
		if p != s.cfg.Local && !s.peers[p].joined {
			return
		}
	}
	s.started = true
	s.last, s.acc = now, 0
	s.events = append(s.events, Event{Kind: EventStarted, Player: -1})
}

func (s *Session[I]) handleData(pl int, d *Data, now time.Duration) {
	pr := &s.peers[pl]
	pr.heard = true
	if d.Frame >= pr.frame {
		pr.frame, pr.frameAt, pr.adv = d.Frame, now, d.Advance
	}
	if d.Ping != 0 {
		pr.echo, pr.echoAt = d.Ping, now
	}
	if d.Echo > 0 {
		if us := (micros(now) - d.Echo - uint32(d.Hold)*10) & stampMask; us < 10_000_000 {
			rtt := time.Duration(us) * time.Microsecond
			if pr.rtt == 0 {
				pr.rtt = rtt
			} else { // a quarter: with a sample every pingEvery packets, about as quick as an eighth of one a packet
				pr.rtt += (rtt - pr.rtt) / 4
			}
		}
	}
	pr.ack = max(pr.ack, min(d.Ack, s.received[s.cfg.Local]))
	size := s.codec.size
	if len(d.Inputs)%size == 0 {
		for i := 0; i*size < len(d.Inputs); i++ {
			s.remote(pl, d.InStart+int32(i), s.codec.decode(d.Inputs[i*size:(i+1)*size]))
		}
	} else {
		s.rd.refused[ErrMalformed]++
	}
	for q, st := range d.Players {
		if q < s.cfg.Players && q != s.cfg.Local && st.Gone && q != pl {
			s.drop(q, st.Frame+1, EventDisconnected)
		}
	}
	s.handleDigests(pl, d)
}

// timeouts reports interrupted peers and disconnects those silent for the
// timeout.
func (s *Session[I]) timeouts(now time.Duration) {
	for p := range s.cfg.Players {
		pr := &s.peers[p]
		if p == s.cfg.Local || !pr.joined || s.gone[p] != never {
			continue
		}
		silent := now - pr.lastHeard
		if silent > s.cfg.Timeout {
			s.drop(p, s.received[p]+1, EventDisconnected)
		} else if silent > s.cfg.Timeout/4 && !pr.interrupted {
			pr.interrupted = true
			s.events = append(s.events, Event{Kind: EventInterrupted, Player: p, Addr: pr.addr})
		}
	}
	for i := range s.specs {
		sp := &s.specs[i]
		if !sp.gone && now-sp.lastHeard > s.cfg.Timeout {
			sp.gone = true
			s.events = append(s.events, Event{Kind: EventDisconnected, Player: -1, Addr: sp.addr})
		}
	}
}

// send sends every peer a packet: a hello until the session starts, then
// data: its inputs not yet acknowledged, the time sync, the digests.
func (s *Session[I]) send(now time.Duration) {
	if s.sentAt != 0 && now-s.sentAt < s.step*9/10 {
		return // one packet a peer a step: a game that updates faster sends no more
	}
	s.sentAt = now
	for p := range s.cfg.Players {
		pr := &s.peers[p]
		if p == s.cfg.Local || pr.addr == "" || s.gone[p] != never {
			continue
		}
		if !s.started {
			s.sendPacket(pr.addr, &Packet{Kind: KindHello, Hello: s.hello}, now)
			continue
		}
		pk := &Packet{Kind: KindData}
		d := &pk.Data
		s.fillCommon(d, &pr.echo, pr.echoAt, &pr.pings, now)
		d.Advance = int16(max(-1000, min(1000, s.advantage(p))))
		d.Ack = s.received[p]
		from := max(pr.ack+1, s.received[s.cfg.Local]-ringN/2+1)
		run := min(maxInputRun, 512/s.codec.size)
		d.InStart, d.Stride = from, uint16(s.codec.size)
		for f := from; f <= s.received[s.cfg.Local] && f < from+int32(run); f++ {
			d.Inputs = s.codec.append(d.Inputs, s.inputs[s.cfg.Local][f&ringMask])
		}
		s.fillDesync(p, d)
		pr.sent += s.sendPacket(pr.addr, pk, now)
	}
	s.sendSpectators(now)
}

// fillCommon fills what every data packet has: the step, a ping every
// pingEvery-th packet (counted in *pings), the echo of the receiver's
// last ping once (*echo then 0), and what is known of every player.
func (s *Session[I]) fillCommon(d *Data, echo *uint32, echoAt time.Duration, pings *int, now time.Duration) {
	d.Frame, d.Ping = s.cur, ping(pings, now)
	d.Echo, d.Hold = pong(echo, echoAt, now)
	anyGone := false
	for p := range s.cfg.Players {
		anyGone = anyGone || p != s.cfg.Local && s.gone[p] != never
	}
	for p := range s.cfg.Players {
		if !anyGone {
			break // what a peer knows of the others matters only once one is gone
		}
		st := PlayerStatus{Frame: s.received[p]}
		if s.gone[p] != never {
			st = PlayerStatus{Gone: true, Frame: s.gone[p] - 1}
		}
		d.Players = append(d.Players, st)
	}
}

// micros is t in µs as a ping stamp, wrapping at 24 bits (16.7 s, more
// than any round trip a session keeps), never 0 (none).
func micros(t time.Duration) uint32 {
	if us := uint32(t/time.Microsecond) & stampMask; us != 0 {
		return us
	}
	return 1
}

// ping is the ping stamp of a data packet, counted in *n: now's in every
// pingEvery-th, 0 (none) in the others.
func ping(n *int, now time.Duration) uint32 {
	*n++
	if (*n-1)%pingEvery != 0 {
		return 0
	}
	return micros(now)
}

// pong is the echo of a ping (*echo) received at echoAt, and its hold,
// for now; the ping is echoed once (*echo becomes 0).
func pong(echo *uint32, echoAt, now time.Duration) (uint32, uint16) {
	hold := (now - echoAt) / (10 * time.Microsecond)
	e := *echo
	*echo = 0
	if e == 0 || hold > 0xFFFF {
		return 0, 0
	}
	return e, uint16(hold)
}

// sendPacket numbers, tags and sends pk; it returns the bytes sent.
func (s *Session[I]) sendPacket(addr string, pk *Packet, now time.Duration) int {
	s.seq++
	pk.Session, pk.Seq = s.cfg.Session, s.seq
	if pk.From == 0 {
		pk.From = uint8(s.cfg.Local)
	}
	s.out = AppendPacket(s.out[:0], pk, s.cfg.Key)
	if len(s.out) > MaxPacket && pk.Kind == KindData {
		pk.Data.Answer = nil
		s.out = AppendPacket(s.out[:0], pk, s.cfg.Key)
		if len(s.out) > MaxPacket {
			pk.Data.Detail = nil
			s.out = AppendPacket(s.out[:0], pk, s.cfg.Key)
		}
	}
	if err := s.cfg.Transport.Send(addr, s.out); err != nil {
		s.stats.SendErrors++
		return 0
	}
	s.stats.SentBytes += len(s.out)
	s.stats.Packets++
	return len(s.out)
}

// handleSpectator answers a spectator's hello and keeps its acknowledgement.
func (s *Session[I]) handleSpectator(p *Packet, from string, now time.Duration) {
	i := -1
	for j := range s.specs {
		if s.specs[j].addr == from {
			i = j
		}
	}
	if i < 0 {
		if p.Kind != KindHello || len(s.specs) >= s.cfg.Spectators {
			s.rd.refused[ErrForged]++ // not a spectator this session knows or has room for
			return
		}
		if !s.helloMatches(&p.Hello, true) {
			s.rd.refused[ErrMismatch]++
			return
		}
		s.specs = append(s.specs, spectator{addr: from, ack: -1})
		i = len(s.specs) - 1
		s.events = append(s.events, Event{Kind: EventJoined, Player: -1, Addr: from})
	}
	sp := &s.specs[i]
	sp.lastHeard = now
	switch p.Kind {
	case KindData:
		sp.ack = max(sp.ack, min(p.Data.Ack, int32(len(s.log))-1))
		if p.Data.Ping != 0 {
			sp.echo, sp.echoAt = p.Data.Ping, now
		}
	case KindBye:
		if !sp.gone {
			sp.gone = true
			s.events = append(s.events, Event{Kind: EventLeft, Player: -1, Addr: from})
		}
	}
}

// sendSpectators sends each spectator the confirmed inputs it lacks.
func (s *Session[I]) sendSpectators(now time.Duration) {
	per := s.cfg.Players*s.codec.size + s.cfg.Players
	run := max(1, min(maxInputRun, (MaxPacket-200)/per))
	for i := range s.specs {
		sp := &s.specs[i]
		if sp.gone {
			continue
		}
		pk := &Packet{Kind: KindData}
		d := &pk.Data
		s.fillCommon(d, &sp.echo, sp.echoAt, &sp.pings, now)
		d.Frame = s.final
		d.AllStart, d.Stride = sp.ack+1, uint16(per)
		for f := d.AllStart; f < int32(len(s.log)) && f < d.AllStart+int32(run); f++ {
			c := &s.log[f]
			for p := range s.cfg.Players {
				d.All = s.codec.append(d.All, c.In[p])
			}
			for p := range s.cfg.Players {
				d.All = append(d.All, byte(c.Status[p]))
			}
		}
		s.sendPacket(sp.addr, pk, now)
	}
}
