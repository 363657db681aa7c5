package netplay_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
	"github.com/weft-engine/weft/netplay"
)

// Players as they would play: 2 and 4 peers on a link of RTT 30, 100 and
// 200 ms, 20 ms of jitter, 5% loss, reordering and duplicates, for 3,000
// steps. Every confirmed step's world digest is the same on every peer
// and the same as an offline replay of the confirmed inputs. The rollbacks
// a step and their depth are logged. Under -race, 300 steps.
func TestDeterminismPlayers(t *testing.T) {
	steps := 3000
	if raceOn || testing.Short() {
		steps = 300
	}
	for _, peers := range []int{2, 4} {
		for _, rtt := range []time.Duration{30, 100, 200} {
			t.Run(fmt.Sprintf("%dpeers-rtt%d", peers, rtt), func(t *testing.T) {
				rtt *= time.Millisecond
				o := tableOpts{peers: peers, bodies: 24, delay: 2, seed: uint64(peers)*1000 + uint64(rtt/time.Millisecond),
					link: netplay.LinkConfig{Delay: rtt/2 - 10*time.Millisecond, Jitter: 20 * time.Millisecond, Loss: 0.05, Reorder: 0.05, Duplicate: 0.01}}
				tb := newTable(t, o)
				tb.run(t, steps, o.delay)
				tb.check(t, steps, o.bodies)
				tb.report(t, steps)
			})
		}
	}
}

// The same with the sparse snapshot: one of the last confirmed step.
func TestDeterminismSparse(t *testing.T) {
	steps := 1000
	if raceOn || testing.Short() {
		steps = 200
	}
	o := tableOpts{peers: 2, bodies: 24, delay: 1, seed: 9, cfg: func(c *netplay.Config[Pad]) { c.Sparse = true },
		link: netplay.LinkConfig{Delay: 40 * time.Millisecond, Jitter: 20 * time.Millisecond, Loss: 0.05, Reorder: 0.05}}
	tb := newTable(t, o)
	tb.run(t, steps, o.delay)
	tb.check(t, steps, o.bodies)
	tb.report(t, steps)
}

func TestJoinedStartedEvents(t *testing.T) {
	tb := newTable(t, tableOpts{peers: 3, bodies: 8, seed: 2, link: netplay.LinkConfig{Delay: 10 * time.Millisecond}})
	tb.run(t, 30, 0)
	for p, s := range tb.sess {
		var kinds []netplay.EventKind
		for _, e := range s.Events() {
			kinds = append(kinds, e.Kind)
		}
		assert.Equal(t, []netplay.EventKind{netplay.EventJoined, netplay.EventJoined, netplay.EventStarted}, kinds, "peer %d", p)
	}
}

// A peer that stops answering is interrupted, then disconnected: its
// player is Gone on the others from one step on, the same on both, and the
// session goes on; when the last other player goes, it ends.
func TestTimeoutDisconnects(t *testing.T) {
	tb := newTable(t, tableOpts{peers: 3, bodies: 8, seed: 3, link: netplay.LinkConfig{Delay: 20 * time.Millisecond},
		cfg: func(c *netplay.Config[Pad]) { c.Timeout = time.Second }})
	tb.run(t, 100, 0)
	for _, s := range tb.sess {
		s.Events()
	}
	live := tb.sess[:2]
	for range 200 { // peer 2 falls silent
		tb.clock.Advance(stepDur)
		for p, s := range live {
			_, err := s.Update(padFor(7, p, s.Step()))
			require.NoError(t, err)
		}
	}
	var steps []int
	for p, s := range live {
		var kinds []netplay.EventKind
		for _, e := range s.Events() {
			kinds = append(kinds, e.Kind)
			if e.Kind == netplay.EventDisconnected {
				assert.Equal(t, 2, e.Player)
				steps = append(steps, e.Step)
			}
		}
		assert.Equal(t, []netplay.EventKind{netplay.EventInterrupted, netplay.EventDisconnected}, kinds, "peer %d", p)
		assert.True(t, s.Stats().Peers[2].Gone)
		assert.Greater(t, s.ConfirmedStep(), 200, "peer %d goes on", p)
	}
	require.Len(t, steps, 2)
	assert.Equal(t, steps[0], steps[1], "both drop player 2 at the same step")
	c0, c1 := live[0].Confirmed(), live[1].Confirmed()
	n := min(len(c0), len(c1))
	for f := range n {
		require.Equal(t, c0[f], c1[f], "step %d", f)
	}
	live[1].Leave()
	for range 10 {
		tb.clock.Advance(stepDur)
		_, err := live[0].Update(Pad{})
		require.NoError(t, err)
	}
	var kinds []netplay.EventKind
	for _, e := range live[0].Events() {
		kinds = append(kinds, e.Kind)
	}
	assert.Equal(t, []netplay.EventKind{netplay.EventLeft, netplay.EventEnded}, kinds)
}

// A spectator joins the host, receives every confirmed step's inputs and
// runs them: its digests are the players'.
func TestSpectator(t *testing.T) {
	tb := newTable(t, tableOpts{peers: 2, bodies: 16, delay: 1, seed: 4,
		link: netplay.LinkConfig{Delay: 30 * time.Millisecond, Jitter: 10 * time.Millisecond, Loss: 0.05, Reorder: 0.05},
		cfg:  func(c *netplay.Config[Pad]) { c.Spectators = 1 }})
	g := newTestGame(t, 16, 0)
	sp, err := netplay.NewSpectator(g, g.in, netplay.SpectatorConfig{Host: addr(0), Players: 2, Transport: tb.net.Link("watcher"),
		Clock: tb.clock, Session: 42})
	require.NoError(t, err)
	for range 700 {
		tb.clock.Advance(stepDur)
		for p, s := range tb.sess {
			_, err := s.Update(padFor(7, p, s.Step()+1))
			require.NoError(t, err)
		}
		_, err := sp.Update()
		require.NoError(t, err)
	}
	ran, conf := sp.Ran(), tb.sess[0].Confirmed()
	require.Greater(t, len(ran), 500)
	for f := range ran {
		require.Equal(t, conf[f], ran[f], "step %d", f)
	}
	assert.Equal(t, netplay.EventJoined, sp.Events()[0].Kind)
}

// skew writes one body differently on the peer where it is on, in the
// engine step of the session's step 160, a check step: a desync.
type skew struct {
	on   bool
	body ecs.Writer[Body]
	time ecs.ResReader[engine.Time]
	pass *engine.Pass
}

func (s *skew) Name() string { return "skew" }
func (s *skew) Build(b *engine.Builder) error {
	d := b.Decl()
	s.body, s.time = ecs.Write[Body](d), ecs.ReadRes[engine.Time](d)
	s.pass = b.Chunks("skew", ecs.NewQuery1(d, s.body), s.chunk)
	return nil
}
func (s *skew) Schedule(f *engine.Frame) error { return f.Run(s.pass) }
func (s *skew) chunk(c *ecs.Chunk) {
	bs, es := s.body.Column(c), c.Entities()
	for i := range bs {
		if s.on && es[i].ID() == 300 && s.time.Get().Step == 161 {
			bs[i].VY += 0.5
		}
	}
}

// Two peers whose games differ in one system: both hear of the desync at
// the first check step after it, and both name the system, the entity,
// the component and both values.
func TestDesyncNamed(t *testing.T) {
	clock := &netplay.ManualClock{}
	sn := netplay.NewSimNet(clock, 5, netplay.LinkConfig{Delay: 30 * time.Millisecond, Jitter: 10 * time.Millisecond, Loss: 0.05, Reorder: 0.05})
	var ss []*netplay.Session[Pad]
	for p := range 2 {
		g := newTestGame(t, 400, 0, &skew{on: p == 1})
		s, err := netplay.New(g, g.in, netplay.Config[Pad]{Players: 2, Local: p, Peers: []string{addr(0), addr(1)},
			Transport: sn.Link(addr(p)), Clock: clock, Session: 1, DigestEvery: 20})
		require.NoError(t, err)
		ss = append(ss, s)
	}
	reports := map[int]*netplay.Report{}
	desync := map[int]bool{}
	for range 600 {
		clock.Advance(stepDur)
		for p, s := range ss {
			_, err := s.Update(padFor(1, p, s.Step()))
			require.NoError(t, err)
			for _, e := range s.Events() {
				switch e.Kind {
				case netplay.EventDesync:
					desync[p] = true
					assert.Equal(t, 160, e.Step)
				case netplay.EventDesyncReport:
					reports[p] = e.Report
				}
			}
		}
	}
	require.Len(t, reports, 2)
	assert.True(t, desync[0] && desync[1])
	for p, r := range reports {
		t.Logf("peer %d: %s", p, r)
		assert.Equal(t, "skew", r.System)
		assert.Equal(t, uint32(300), r.Entity.ID())
		assert.Contains(t, r.Component, "Body")
		assert.NotEqual(t, r.Local, r.Remote)
		assert.NotEmpty(t, r.Local)
		assert.NotEmpty(t, r.Remote)
	}
}

// A game's own predictor is used for a remote input not arrived yet, and
// junk on the network (noise, another session's packets, a peer's packet
// replayed) is refused and counted while the session goes on.
func TestPredictorAndJunk(t *testing.T) {
	predicted := 0
	tb := newTable(t, tableOpts{peers: 2, bodies: 16, delay: 1, seed: 6,
		link: netplay.LinkConfig{Delay: 50 * time.Millisecond, Jitter: 10 * time.Millisecond, Loss: 0.05},
		cfg: func(c *netplay.Config[Pad]) {
			c.Predict = func(p int, last Pad) Pad { predicted++; last.Fire = false; return last }
		}})
	noise := tb.net.Link("noise")
	other := netplay.AppendPacket(nil, &netplay.Packet{Kind: netplay.KindBye, Session: 43, From: 1, Seq: 1}, netplay.DefaultKey(43))
	for it := range 400 {
		tb.clock.Advance(stepDur)
		if it%10 == 0 {
			require.NoError(t, noise.Send(addr(0), []byte("not a packet")))
			require.NoError(t, noise.Send(addr(0), other))
		}
		for p, s := range tb.sess {
			_, err := s.Update(padFor(7, p, s.Step()+1))
			require.NoError(t, err)
		}
	}
	s0 := tb.sess[0]
	assert.Positive(t, predicted)
	assert.Greater(t, s0.Refused(netplay.ErrMalformed), 30) // of 40 sent: the link loses some
	assert.Greater(t, s0.Refused(netplay.ErrForged), 30)
	assert.Greater(t, s0.ConfirmedStep(), 300)
	tb.check(t, 300, 16)
}
