package netplay

import (
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
)

// ring is the steps of inputs, predictions and digests a session keeps.
const (
	ringN    = 256
	ringMask = ringN - 1
	never    = math.MaxInt32
)

// EventKind is what an Event reports.
type EventKind uint8

// The events.
const (
	EventJoined       EventKind = iota // a player (Player) or a spectator (Addr) joined
	EventStarted                       // every player joined: the session steps
	EventInterrupted                   // a peer has been silent for a quarter of the timeout
	EventResumed                       // an interrupted peer is heard again
	EventDisconnected                  // a peer stayed silent for the timeout: its player is Gone from Step on
	EventLeft                          // a peer said goodbye (Leave): its player is Gone from Step on
	EventEnded                         // every other player is gone, or the local player left
	EventDesync                        // a confirmed step's digest differs from a peer's (Report: the step, both digests)
	EventDesyncReport                  // the desync's search ended: Report names the system, and the entity and component if the rows allow
)

// Event is something the game hears of from Events.
type Event struct {
	Kind   EventKind
	Player int     // the player concerned; -1 for a spectator or none
	Step   int     // the step it takes effect at, where it has one
	Addr   string  // the peer's address
	Report *Report // for EventDesync and EventDesyncReport
}

// String says what happened, to whom, for a log or the screen.
func (e Event) String() string {
	names := [...]string{"joined", "started", "interrupted", "resumed", "disconnected", "left", "ended", "desync", "desync report"}
	s := fmt.Sprintf("event(%d)", e.Kind)
	if int(e.Kind) < len(names) {
		s = names[e.Kind]
	}
	switch {
	case e.Player >= 0:
		s += fmt.Sprintf(" (player %d, %s)", e.Player, e.Addr)
	case e.Addr != "":
		s += " (spectator, " + e.Addr + ")"
	}
	if e.Report != nil {
		s += ": " + e.Report.String()
	}
	return s
}

// Err is a desync event's error: WEFT-N007 with its Report; nil for the
// other events.
func (e Event) Err() error {
	if (e.Kind != EventDesync && e.Kind != EventDesyncReport) || e.Report == nil {
		return nil
	}
	return &Error{Code: ErrDesync, Detail: e.Report, Msg: e.Report.String() +
		"; a system's writes must depend only on what it reads and the inputs (docs/guide/19-netplay.md)"}
}

// Session is one peer of a peer-to-peer game of 2 to 4 players and its
// spectators. Every method is executed only by the game's owner
// goroutine, between steps.
type Session[I comparable] struct {
	cfg   Config[I]
	g     Game
	e     *engine.Engine
	in    *Inputs[I]
	codec codec[I]
	rd    *Reader
	clock Clock
	step  time.Duration // time between steps at StepRate

	started, ended, closed bool
	cur                    int32 // the next step to run; steps 0..cur-1 ran
	final                  int32 // the last step whose run is final: all its inputs known
	firstWrong             int32 // the first step run with a prediction that proved wrong
	base                   uint64

	inputs   [MaxPlayers][ringN]I // known inputs, by step
	received [MaxPlayers]int32    // the last step of each player's inputs known, contiguous
	gone     [MaxPlayers]int32    // the step a player is Gone from (never: playing)
	used     [ringN][MaxPlayers]I // the inputs each step last ran with
	hashes   [ringN]uint64        // the world digest after each step's last run
	sums     [ringN][]uint64      // each system's digest after it
	rows     [ringN][][]ecs.Written
	names    []string // the systems, in the order their digests come

	digests ecs.DigestMode // what the engine keeps of the next step's writes
	snap    ecs.Snapshot   // Sparse: the world at the start of snapStep
	snapped int32

	peers  [MaxPlayers]peer
	specs  []spectator
	events []Event
	stats  Stats
	log    []Confirmed[I]
	acc    time.Duration
	last   time.Duration
	sentAt time.Duration // when the last packets were sent
	cool   int           // steps until time sync may skip again
	seq    uint32
	buf    []byte
	out    []byte
	hello  Hello

	checks     map[int32]*check         // the check steps' digests, kept until compared
	checkOrder []int32                  // their steps, oldest first
	pending    map[int32]map[int]uint64 // peers' digests of steps not final here yet
	desyncs    map[int]*search          // by peer: the search for where a desync starts
}

// New makes a session of g, whose world holds in as a resource, as cfg
// says. It sets the engine's digests for each step (on for check steps) and, unless cfg.Sparse, keeps a
// snapshot after every step (Engine.SetRewind). The first steps, up to
// the input delay, run with every input zero. Executed only by the owner,
// between steps, after the engine's Build.
func New[I comparable](g Game, in *Inputs[I], cfg Config[I]) (*Session[I], error) {
	if g == nil || g.Engine() == nil || in == nil {
		return nil, errorf(ErrBadConfig, nil, "New needs a game with an engine and its Inputs resource")
	}
	e := g.Engine()
	fixed := time.Second / 60
	if cfg.StepRate == 0 {
		fixed = fixedStep(e)
	}
	if err := cfg.defaults(fixed); err != nil {
		return nil, err
	}
	c, err := newCodec[I]()
	if err != nil {
		return nil, err
	}
	s := &Session[I]{cfg: cfg, g: g, e: e, in: in, codec: c, clock: cfg.Clock, firstWrong: never,
		step: time.Second / time.Duration(cfg.StepRate), base: e.Time().Step, checks: map[int32]*check{}, pending: map[int32]map[int]uint64{}, desyncs: map[int]*search{}}
	s.rd = NewReader(cfg.Session, cfg.Key, cfg.Peers)
	s.rd.Learn(cfg.Local, "-") // nobody sends as the local player
	s.rd.FarAhead = ringN/2 - 8
	if err := e.SetDigests(ecs.DigestOff); err != nil {
		return nil, errorf(ErrMisuse, err, "New: the engine is inside a step")
	}
	if cfg.Sparse {
		err = e.SetRewind(0, 1)
	} else {
		err = e.SetRewind(cfg.Window+2, 1)
	}
	if err != nil {
		return nil, errorf(ErrBadConfig, err, "New: the world cannot be snapshot (its components and resources must be plain data)")
	}
	if cfg.Sparse {
		if err := e.World().Snapshot(&s.snap); err != nil {
			return nil, errorf(ErrBadConfig, err, "New: the world cannot be snapshot")
		}
	}
	d := int32(cfg.InputDelay)
	for p := range MaxPlayers {
		s.received[p], s.gone[p] = d-1, never
		if p >= cfg.Players {
			s.gone[p] = 0
		}
	}
	s.final = -1
	for p := range cfg.Players {
		s.peers[p] = peer{addr: cfg.Peers[p], ack: d - 1}
	}
	s.hello = Hello{Game: cfg.Game, Players: uint8(cfg.Players), InputSize: uint16(c.size), Delay: uint8(cfg.InputDelay),
		Window: uint8(cfg.Window), StepNs: int64(s.step)}
	s.last = s.clock.Now()
	return s, nil
}

// fixedStep is the engine's fixed step: Time.DT of its clock.
func fixedStep(e *engine.Engine) time.Duration {
	if dt := e.Time().DT; dt > 0 {
		return time.Duration(dt * float64(time.Second))
	}
	return time.Second / 60
}

// Update receives what the peers sent, rolls back and runs again the
// steps whose predictions proved wrong, then runs the steps due by the
// clock with local as the local player's input (delayed by InputDelay),
// and sends the peers what they lack. It returns the new steps run (the
// steps run again are in Stats). A step that fails is a WEFT-N011 error
// with the engine's as its cause; a refused packet is only counted.
func (s *Session[I]) Update(local I) (int, error) {
	if s.closed {
		return 0, errorf(ErrMisuse, nil, "Update after Close")
	}
	now := s.clock.Now()
	elapsed := now - s.last
	s.last = now
	if err := s.poll(now); err != nil {
		return 0, err
	}
	s.timeouts(now)
	ran := 0
	if s.started {
		if err := s.rollback(); err != nil {
			return 0, err
		}
		n, err := s.advance(elapsed, local)
		if err != nil {
			return n, err
		}
		ran = n
		if err := s.confirm(); err != nil {
			return ran, err
		}
	}
	s.send(now)
	return ran, nil
}

// known is the last step whose every input is known.
func (s *Session[I]) known() int32 {
	k := int32(never)
	for p := range s.cfg.Players {
		if s.gone[p] == never {
			k = min(k, s.received[p])
		}
	}
	if k == never {
		return s.cur + int32(s.cfg.InputDelay) + int32(s.cfg.Window) // alone: every input is the local one
	}
	return k
}

// input is player p's input for step f: known, predicted or Gone.
func (s *Session[I]) input(p int, f int32) (I, Status) {
	var zero I
	switch {
	case f >= s.gone[p]:
		return zero, Gone
	case f <= s.received[p]:
		return s.inputs[p][f&ringMask], Playing
	case s.received[p] < 0:
		if s.cfg.Predict != nil {
			return s.cfg.Predict(p, zero), Playing
		}
		return zero, Playing
	}
	last := s.inputs[p][s.received[p]&ringMask]
	if s.cfg.Predict != nil {
		return s.cfg.Predict(p, last), Playing
	}
	return last, Playing
}

// tick runs step f (s.cur == f) with the best inputs known.
func (s *Session[I]) tick(f int32) error {
	slot := f & ringMask
	for p := range MaxPlayers {
		v, st := s.input(p, f)
		if p >= s.cfg.Players {
			st = Absent
		}
		s.in.In[p], s.in.Status[p] = v, st
		s.used[slot][p] = v
	}
	// Digests cost: the systems' only on check steps (with their rows,
	// unless NoRows), the world's on those and for the log.
	check := s.cfg.DigestEvery > 0 && f%int32(s.cfg.DigestEvery) == 0
	mode := ecs.DigestOff
	switch {
	case check && !s.cfg.NoRows:
		mode = ecs.DigestCapture
	case check:
		mode = ecs.DigestOn
	}
	if mode != s.digests {
		if err := s.e.SetDigests(mode); err != nil {
			return errorf(ErrSimulation, err, "step %d", f)
		}
		s.digests = mode
	}
	if err := s.g.Tick(); err != nil {
		return errorf(ErrSimulation, err, "step %d of the session", f)
	}
	if mode == ecs.DigestCapture {
		s.keepRows(slot)
	}
	if check || s.cfg.Log {
		h, err := s.g.Digest()
		if err != nil {
			return errorf(ErrSimulation, err, "the world digest after step %d", f)
		}
		s.hashes[slot] = h
	}
	if check {
		ds := s.e.Digests()
		sums := s.sums[slot][:0]
		if len(s.names) != len(ds) {
			s.names = s.names[:0]
			for _, d := range ds {
				s.names = append(s.names, d.System)
			}
		}
		for _, d := range ds {
			sums = append(sums, d.Sum)
		}
		s.sums[slot] = sums
	}
	s.cur = f + 1
	if s.cfg.Sparse && f <= s.known() && f+1 > s.snapped {
		if err := s.e.World().Snapshot(&s.snap); err != nil {
			return errorf(ErrSimulation, err, "a snapshot after step %d", f)
		}
		s.snapped = f + 1
	}
	return nil
}

// keepRows keeps what every system wrote in the step just run (capture).
func (s *Session[I]) keepRows(slot int32) {
	ds := s.e.Digests()
	rows := s.rows[slot][:0]
	for i, d := range ds {
		w := s.e.Written(d.System)
		if i < cap(rows) {
			rows = rows[:i+1]
			rows[i] = append(rows[i][:0], w...)
		} else {
			rows = append(rows, slices.Clone(w))
		}
	}
	s.rows[slot] = rows
}

// rollback runs again, with the inputs now known, every step from the
// first that ran with a wrong prediction.
func (s *Session[I]) rollback() error {
	if s.firstWrong >= s.cur {
		s.firstWrong = never
		return nil
	}
	from := s.firstWrong
	s.firstWrong = never
	start := time.Now()
	if s.cfg.Sparse {
		if err := s.e.Restore(&s.snap); err != nil {
			return errorf(ErrSimulation, err, "rolling back to step %d", s.snapped)
		}
		from = s.snapped
	} else if _, err := s.e.Rewind(int(s.cur - from)); err != nil {
		return errorf(ErrSimulation, err, "rolling back %d steps, to step %d", s.cur-from, from)
	}
	to := s.cur
	s.cur = from
	for f := from; f < to; f++ {
		if err := s.tick(f); err != nil {
			return err
		}
	}
	depth := int(to - from)
	s.stats.Rollbacks++
	s.stats.Resimulated += depth
	s.stats.MaxDepth = max(s.stats.MaxDepth, depth)
	s.stats.LastResim = time.Since(start)
	s.stats.ResimTime += s.stats.LastResim
	return nil
}

// advance runs the steps the clock says are due, at most MaxSteps, unless
// the window is full or time sync asks to wait.
func (s *Session[I]) advance(elapsed time.Duration, local I) (int, error) {
	s.acc += elapsed
	if lim := time.Duration(s.cfg.MaxSteps) * s.step; s.acc > lim {
		s.acc = lim
	}
	if s.cool > 0 {
		s.cool--
	} else if s.ahead() >= 1 && s.acc >= s.step {
		s.acc -= s.step // wait a step for the others: one at a time, seldom
		s.stats.Skipped++
		s.cool = 6
	}
	ran := 0
	for s.acc >= s.step {
		if s.cur-s.known() > int32(s.cfg.Window) {
			s.stats.Stalls++
			s.acc = s.step // wait, without a backlog to run at once
			break
		}
		s.addLocal(local)
		if err := s.tick(s.cur); err != nil {
			return ran, err
		}
		s.acc -= s.step
		ran++
	}
	if s.cfg.Sparse && s.known() >= s.snapped && s.cur-s.snapped > int32(s.cfg.Window) {
		s.firstWrong = s.snapped // run again to take the confirmed step's snapshot
		if err := s.rollback(); err != nil {
			return ran, err
		}
	}
	return ran, nil
}

// addLocal records local as the local player's input for the step the
// delay puts it at.
func (s *Session[I]) addLocal(local I) {
	p := s.cfg.Local
	f := s.cur + int32(s.cfg.InputDelay)
	if f > s.received[p] {
		s.inputs[p][f&ringMask] = local
		s.received[p] = f
	}
}

// remote records player p's input of step f, received in order.
func (s *Session[I]) remote(p int, f int32, v I) {
	if f != s.received[p]+1 || f >= s.gone[p] {
		return
	}
	s.inputs[p][f&ringMask] = v
	s.received[p] = f
	if f < s.cur && v != s.used[f&ringMask][p] {
		s.firstWrong = min(s.firstWrong, f)
	}
}

// drop makes player p Gone from step f on.
func (s *Session[I]) drop(p int, f int32, kind EventKind) {
	if p == s.cfg.Local || s.gone[p] <= f {
		return
	}
	f = max(f, s.final+1) // the steps already final stay as they ran
	first := s.gone[p] == never
	s.gone[p] = f
	s.received[p] = min(s.received[p], f-1)
	if f < s.cur {
		s.firstWrong = min(s.firstWrong, f)
	}
	if first {
		s.events = append(s.events, Event{Kind: kind, Player: p, Step: int(f), Addr: s.peers[p].addr})
		s.endIfAlone()
	}
}

func (s *Session[I]) endIfAlone() {
	if s.ended {
		return
	}
	for p := range s.cfg.Players {
		if p != s.cfg.Local && s.gone[p] == never {
			return
		}
	}
	s.ended = true
	s.events = append(s.events, Event{Kind: EventEnded, Player: -1, Step: int(s.cur)})
}

// confirm makes final the steps whose inputs are all known and that ran
// with them, logs them and compares the check steps' digests.
func (s *Session[I]) confirm() error {
	k := min(s.known(), s.cur-1)
	for f := s.final + 1; f <= k; f++ {
		slot := f & ringMask
		if s.cfg.Log {
			c := Confirmed[I]{Hash: s.hashes[slot]}
			for p := range MaxPlayers {
				c.In[p], c.Status[p] = s.input(p, f)
				if p >= s.cfg.Players {
					c.Status[p] = Absent
				}
			}
			s.log = append(s.log, c)
		}
		if s.cfg.DigestEvery > 0 && f%int32(s.cfg.DigestEvery) == 0 {
			s.keepCheck(f)
		}
		s.final = f
	}
	return nil
}

// ahead is how many steps this peer runs ahead of the slowest peer, as
// both see it: half the difference of their advantages.
func (s *Session[I]) ahead() float64 {
	a := 0.0
	for p := range s.cfg.Players {
		pr := &s.peers[p]
		if p == s.cfg.Local || s.gone[p] != never || !pr.heard {
			continue
		}
		a = max(a, (s.advantage(p)-float64(pr.adv))/2)
	}
	return a
}

// advantage is how many steps this peer is ahead of p's estimated step.
func (s *Session[I]) advantage(p int) float64 {
	pr := &s.peers[p]
	est := float64(pr.frame) + float64(s.clock.Now()-pr.frameAt+pr.rtt/2)/float64(s.step)
	return float64(s.cur) - est
}

// Events returns the events since the last call, oldest first.
func (s *Session[I]) Events() []Event {
	ev := s.events
	s.events = nil
	return ev
}

// Step is the next step the session runs (the steps before it ran).
func (s *Session[I]) Step() int { return int(s.cur) }

// ConfirmedStep is the last step final on this peer: every input known
// and run with.
func (s *Session[I]) ConfirmedStep() int { return int(s.final) }

// Started reports whether every player joined and the session steps.
func (s *Session[I]) Started() bool { return s.started }

// Confirmed is the log of the confirmed steps (Config.Log): each one's
// inputs and the world digest after it.
func (s *Session[I]) Confirmed() []Confirmed[I] { return s.log }

// Confirmed is a confirmed step: the inputs every player had and the
// world digest after it.
type Confirmed[I comparable] struct {
	In     [MaxPlayers]I
	Status [MaxPlayers]Status
	Hash   uint64
}

// Leave says goodbye to the peers and the spectators and ends the session:
// they hear EventLeft, this one EventEnded. Update goes on stepping alone.
func (s *Session[I]) Leave() {
	if s.ended && s.closed {
		return
	}
	now := s.clock.Now()
	for range 3 { // a lost goodbye is a timeout later
		for p := range s.cfg.Players {
			if p != s.cfg.Local && s.peers[p].addr != "" && s.gone[p] == never {
				s.sendPacket(s.peers[p].addr, &Packet{Kind: KindBye}, now)
			}
		}
		for _, sp := range s.specs {
			s.sendPacket(sp.addr, &Packet{Kind: KindBye}, now)
		}
	}
	for p := range s.cfg.Players {
		if p != s.cfg.Local {
			s.gone[p] = min(s.gone[p], max(s.final+1, s.cur))
		}
	}
	if !s.ended {
		s.ended = true
		s.events = append(s.events, Event{Kind: EventEnded, Player: -1, Step: int(s.cur)})
	}
}

// Close leaves the session (Leave) and refuses later Updates. It does not
// close the transport, which is the game's.
func (s *Session[I]) Close() error {
	if s.closed {
		return nil
	}
	s.Leave()
	s.closed = true
	return nil
}
