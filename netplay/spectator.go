package netplay

import "time"

// SpectatorConfig configures a Spectator; its fields mean what Config's
// do, and must match the host's (Players, Session, Key, Game, StepRate).
type SpectatorConfig struct {
	Host      string // the address of the player's peer that accepts spectators
	Players   int
	Transport Transport
	Clock     Clock
	Session   uint64
	Key       []byte
	Game      uint64
	StepRate  int
	MaxSteps  int // the most steps one Update runs to catch up (default 8)
	Timeout   time.Duration
}

// Spectator watches a session: it asks the host to join, receives every
// confirmed step's inputs and runs them, faster while it is behind. It
// predicts nothing and never rolls back. Every method is executed only by
// the game's owner goroutine, between steps.
type Spectator[I comparable] struct {
	cfg    SpectatorConfig
	g      Game
	in     *Inputs[I]
	codec  codec[I]
	rd     *Reader
	clock  Clock
	step   time.Duration
	known  []Confirmed[I] // every step's inputs received, in order (Hash: after it ran here)
	cur    int
	joined bool
	ended  bool
	heard  time.Duration
	last   time.Duration
	acc    time.Duration
	echo   uint32
	echoAt time.Duration
	pings  int
	seq    uint32
	buf    []byte
	out    []byte
	events []Event
	hello  Hello
	stats  Stats
}

// NewSpectator makes a spectator of g, whose world holds in as a resource.
func NewSpectator[I comparable](g Game, in *Inputs[I], cfg SpectatorConfig) (*Spectator[I], error) {
	if g == nil || g.Engine() == nil || in == nil || cfg.Transport == nil || cfg.Host == "" {
		return nil, errorf(ErrBadConfig, nil, "NewSpectator needs a game with an engine, its Inputs resource, a Transport and the host's address")
	}
	pc := Config[I]{Players: cfg.Players, Peers: make([]string, max(cfg.Players, 0)), Transport: cfg.Transport, Clock: cfg.Clock,
		Key: cfg.Key, Session: cfg.Session, StepRate: cfg.StepRate, Timeout: cfg.Timeout, MaxSteps: cfg.MaxSteps}
	if pc.MaxSteps == 0 {
		pc.MaxSteps = 8
	}
	if err := pc.defaults(fixedStep(g.Engine())); err != nil {
		return nil, err
	}
	c, err := newCodec[I]()
	if err != nil {
		return nil, err
	}
	cfg.Clock, cfg.Key, cfg.StepRate, cfg.Timeout, cfg.MaxSteps = pc.Clock, pc.Key, pc.StepRate, pc.Timeout, pc.MaxSteps
	s := &Spectator[I]{cfg: cfg, g: g, in: in, codec: c, clock: cfg.Clock, step: time.Second / time.Duration(cfg.StepRate)}
	s.rd = NewReader(cfg.Session, cfg.Key, pc.Peers)
	s.hello = Hello{Game: cfg.Game, Players: uint8(cfg.Players), InputSize: uint16(c.size), StepNs: int64(s.step), Spectator: true}
	s.last = s.clock.Now()
	return s, nil
}

// Update receives the host's inputs, runs the steps due (more while
// behind, at most MaxSteps) and acknowledges what it has. It returns the
// steps run.
func (s *Spectator[I]) Update() (int, error) {
	now := s.clock.Now()
	s.acc += now - s.last
	s.last = now
	if s.buf == nil {
		s.buf = make([]byte, 64<<10)
	}
	for {
		n, from, ok, err := s.cfg.Transport.Recv(s.buf)
		if err != nil {
			return 0, errorf(ErrTransport, err, "receive")
		}
		if !ok {
			break
		}
		s.stats.RecvBytes += n
		if from != s.cfg.Host {
			s.rd.refused[ErrForged]++
			continue
		}
		p, err := s.rd.Read(s.buf[:n], from, int32(len(s.known)))
		if err == nil {
			s.handle(p, now)
		}
	}
	if s.joined && !s.ended && now-s.heard > s.cfg.Timeout {
		s.ended = true
		s.events = append(s.events, Event{Kind: EventDisconnected, Player: -1, Addr: s.cfg.Host},
			Event{Kind: EventEnded, Player: -1, Step: s.cur})
	}
	ran := 0
	behind := len(s.known) - s.cur
	due := int(s.acc / s.step)
	if behind > 2 {
		due = max(due, min(behind-1, s.cfg.MaxSteps))
	}
	for ran < due && s.cur < len(s.known) {
		c := &s.known[s.cur]
		s.in.In, s.in.Status = c.In, c.Status
		if err := s.g.Tick(); err != nil {
			return ran, errorf(ErrSimulation, err, "step %d", s.cur)
		}
		h, err := s.g.Digest()
		if err != nil {
			return ran, errorf(ErrSimulation, err, "the world digest after step %d", s.cur)
		}
		c.Hash = h
		s.cur++
		ran++
	}
	s.acc = min(s.acc-time.Duration(ran)*s.step, s.step)
	s.acc = max(s.acc, 0)
	s.send(now)
	return ran, nil
}

func (s *Spectator[I]) handle(p *Packet, now time.Duration) {
	s.heard = now
	if !s.joined {
		s.joined = true
		s.events = append(s.events, Event{Kind: EventJoined, Player: int(p.From), Addr: s.cfg.Host})
	}
	switch p.Kind {
	case KindBye:
		if !s.ended {
			s.ended = true
			s.events = append(s.events, Event{Kind: EventLeft, Player: int(p.From), Addr: s.cfg.Host},
				Event{Kind: EventEnded, Player: -1, Step: s.cur})
		}
	case KindData:
		d := &p.Data
		if d.Ping != 0 {
			s.echo, s.echoAt = d.Ping, now
		}
		np, size := s.cfg.Players, s.codec.size
		per := np*size + np
		if len(d.All)%per != 0 {
			s.rd.refused[ErrMalformed]++
			return
		}
		for i := 0; i*per < len(d.All); i++ {
			if int(d.AllStart)+i != len(s.known) {
				continue
			}
			b := d.All[i*per : (i+1)*per]
			var c Confirmed[I]
			for q := range np {
				c.In[q] = s.codec.decode(b[q*size : (q+1)*size])
				c.Status[q] = Status(b[np*size+q])
			}
			s.known = append(s.known, c)
		}
	}
}

func (s *Spectator[I]) send(now time.Duration) {
	pk := &Packet{Kind: KindHello, Hello: s.hello, From: spectatorFrom}
	if s.joined {
		pk = &Packet{Kind: KindData, From: spectatorFrom}
		d := &pk.Data
		d.Frame, d.Ack, d.Ping = int32(s.cur), int32(len(s.known))-1, ping(&s.pings, now)
		d.Echo, d.Hold = pong(&s.echo, s.echoAt, now)
	}
	if s.ended {
		return
	}
	s.seq++
	pk.Session, pk.Seq = s.cfg.Session, s.seq
	s.out = AppendPacket(s.out[:0], pk, s.cfg.Key)
	if err := s.cfg.Transport.Send(s.cfg.Host, s.out); err != nil {
		s.stats.SendErrors++
		return
	}
	s.stats.SentBytes += len(s.out)
}

// Events returns the events since the last call.
func (s *Spectator[I]) Events() []Event {
	ev := s.events
	s.events = nil
	return ev
}

// Step is the next step the spectator runs.
func (s *Spectator[I]) Step() int { return s.cur }

// Received is the number of steps whose inputs arrived.
func (s *Spectator[I]) Received() int { return len(s.known) }

// Ran is the log of the steps run: inputs and the world digest after each.
func (s *Spectator[I]) Ran() []Confirmed[I] { return s.known[:s.cur] }

// Leave tells the host the spectator goes.
func (s *Spectator[I]) Leave() {
	if s.ended {
		return
	}
	s.seq++
	s.out = AppendPacket(s.out[:0], &Packet{Kind: KindBye, From: spectatorFrom, Session: s.cfg.Session, Seq: s.seq}, s.cfg.Key)
	_ = s.cfg.Transport.Send(s.cfg.Host, s.out)
	s.ended = true
}
