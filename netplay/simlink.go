package netplay

import (
	"math/rand/v2"
	"sync"
	"time"
)

// LinkConfig is what a SimNet does to every datagram: a one-way delay and
// up to Jitter more, drawn uniformly; Loss, Duplicate and Reorder are
// probabilities (a reordered datagram waits a further delay, so later ones
// overtake it).
type LinkConfig struct {
	Delay, Jitter            time.Duration
	Loss, Duplicate, Reorder float64
}

// SimNet is an in-process network for tests: its endpoints (SimLink)
// exchange datagrams through it, delivered when the clock reaches their
// time, with a seeded generator deciding each one's fate, so that a run is
// the same every time whatever the machine's load. Any goroutine may use it.
type SimNet struct {
	mu     sync.Mutex
	clock  Clock
	rng    *rand.Rand
	cfg    LinkConfig
	queue  []simDatagram
	seq    uint64
	closed map[string]bool
	sent   map[string]int // bytes sent, by sender
}

type simDatagram struct {
	at       time.Duration
	seq      uint64
	from, to string
	b        []byte
}

// NewSimNet makes a network whose link behaves as cfg, with seed's
// generator, on clock.
func NewSimNet(clock Clock, seed uint64, cfg LinkConfig) *SimNet {
	return &SimNet{clock: clock, rng: rand.New(rand.NewPCG(seed, 0x6e6574)), cfg: cfg,
		closed: map[string]bool{}, sent: map[string]int{}}
}

// Link is the endpoint at addr, a Transport.
func (n *SimNet) Link(addr string) *SimLink { return &SimLink{net: n, addr: addr} }

// Sent is the number of bytes the endpoint at addr sent.
func (n *SimNet) Sent(addr string) int {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.sent[addr]
}

// SetConfig changes the link from now on.
func (n *SimNet) SetConfig(cfg LinkConfig) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.cfg = cfg
}

func (n *SimNet) send(from, to string, b []byte) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.sent[from] += len(b)
	if n.closed[from] || n.rng.Float64() < n.cfg.Loss {
		return
	}
	copies := 1
	if n.rng.Float64() < n.cfg.Duplicate {
		copies = 2
	}
	now := n.clock.Now()
	for range copies {
		d := n.cfg.Delay
		if n.cfg.Jitter > 0 {
			d += time.Duration(n.rng.Int64N(int64(n.cfg.Jitter)))
		}
		if n.rng.Float64() < n.cfg.Reorder {
			d += n.cfg.Delay/2 + n.cfg.Jitter
		}
		n.seq++
		n.queue = append(n.queue, simDatagram{at: now + d, seq: n.seq, from: from, to: to, b: append([]byte(nil), b...)})
	}
}

func (n *SimNet) recv(to string, buf []byte) (int, string, bool) {
	n.mu.Lock()
	defer n.mu.Unlock()
	now, best := n.clock.Now(), -1
	for i := range n.queue {
		q := &n.queue[i]
		if q.to != to || q.at > now {
			continue
		}
		if best < 0 || q.at < n.queue[best].at || (q.at == n.queue[best].at && q.seq < n.queue[best].seq) {
			best = i
		}
	}
	if best < 0 || n.closed[to] {
		return 0, "", false
	}
	q := n.queue[best]
	n.queue = append(n.queue[:best], n.queue[best+1:]...)
	return copy(buf, q.b), q.from, true
}

// SimLink is one endpoint of a SimNet.
type SimLink struct {
	net  *SimNet
	addr string
}

// Addr is the endpoint's address.
func (l *SimLink) Addr() string { return l.addr }

// Send queues b for to, as the link decides.
func (l *SimLink) Send(to string, b []byte) error {
	l.net.send(l.addr, to, b)
	return nil
}

// Recv returns the earliest datagram due for this endpoint.
func (l *SimLink) Recv(buf []byte) (int, string, bool, error) {
	n, from, ok := l.net.recv(l.addr, buf)
	return n, from, ok, nil
}

// Close stops the endpoint: it sends and receives nothing more.
func (l *SimLink) Close() error {
	l.net.mu.Lock()
	defer l.net.mu.Unlock()
	l.net.closed[l.addr] = true
	return nil
}
