package netplay

import (
	"errors"
	"net"
	"net/netip"
	"sync"
)

// Transport carries datagrams between peers: UDP by default (ListenUDP),
// SimLink in tests, or the game's own (a WebSocket, a relay, Steam's
// sockets). Addresses are the transport's own strings. The session calls
// every method from its owner goroutine; a transport may use goroutines of
// its own, which Close ends.
type Transport interface {
	// Send sends b to addr; b is not kept after the call. A datagram may
	// be lost, duplicated or reordered: the session copes.
	Send(addr string, b []byte) error
	// Recv copies the next received datagram into buf and returns its
	// length and sender, or ok false when none is waiting. It never blocks.
	Recv(buf []byte) (n int, from string, ok bool, err error)
	// Close releases the transport; Send and Recv then fail.
	Close() error
}

// UDP is a Transport on one UDP socket of the standard library, bound to
// the one address it was asked for. A goroutine of its own reads the
// socket into a queue (the oldest datagrams are dropped when 1,024 wait);
// Close closes the socket and waits for it.
type UDP struct {
	conn    *net.UDPConn
	queue   chan datagram
	done    chan struct{}
	mu      sync.Mutex
	addrs   map[string]*net.UDPAddr // resolved send addresses
	dropped int
}

type datagram struct {
	b    []byte
	from string
}

// ListenUDP binds addr ("host:port"; ":7777" all interfaces, "127.0.0.1:0"
// a free port on loopback) and starts reading it.
func ListenUDP(addr string) (*UDP, error) {
	ua, err := net.ResolveUDPAddr("udp", addr)
	if err != nil {
		return nil, errorf(ErrTransport, err, "ListenUDP(%q): not an address", addr)
	}
	conn, err := net.ListenUDP("udp", ua)
	if err != nil {
		return nil, errorf(ErrTransport, err, "ListenUDP(%q)", addr)
	}
	u := &UDP{conn: conn, queue: make(chan datagram, 1024), done: make(chan struct{}), addrs: map[string]*net.UDPAddr{}}
	go u.read()
	return u, nil
}

// Addr is the bound address, with the port the system chose for ":0".
func (u *UDP) Addr() string { return u.conn.LocalAddr().String() }

func (u *UDP) read() {
	defer close(u.done)
	buf := make([]byte, 64<<10)
	for {
		n, ap, err := u.conn.ReadFromUDPAddrPort(buf)
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			continue // a port unreachable from a peer that left: go on
		}
		d := datagram{append([]byte(nil), buf[:n]...), netip.AddrPortFrom(ap.Addr().Unmap(), ap.Port()).String()}
		select {
		case u.queue <- d:
		default:
			u.mu.Lock()
			u.dropped++
			u.mu.Unlock()
		}
	}
}

// Send sends b to addr.
func (u *UDP) Send(addr string, b []byte) error {
	u.mu.Lock()
	ua := u.addrs[addr]
	u.mu.Unlock()
	if ua == nil {
		var err error
		if ua, err = net.ResolveUDPAddr("udp", addr); err != nil {
			return errorf(ErrTransport, err, "send to %q: not an address", addr)
		}
		u.mu.Lock()
		u.addrs[addr] = ua
		u.mu.Unlock()
	}
	if _, err := u.conn.WriteToUDP(b, ua); err != nil {
		return errorf(ErrTransport, err, "send to %s", addr)
	}
	return nil
}

// Recv returns the next datagram read, if any.
func (u *UDP) Recv(buf []byte) (int, string, bool, error) {
	select {
	case d := <-u.queue:
		return copy(buf, d.b), d.from, true, nil
	default:
		return 0, "", false, nil
	}
}

// Dropped is the number of datagrams dropped because the queue was full.
func (u *UDP) Dropped() int {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.dropped
}

// Close closes the socket and waits for the reading goroutine to end.
func (u *UDP) Close() error {
	err := u.conn.Close()
	<-u.done
	if errors.Is(err, net.ErrClosed) {
		return nil
	}
	return err
}
