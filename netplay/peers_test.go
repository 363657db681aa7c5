package netplay_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/netplay"
)

// table is a game of n peers on one simulated network, stepped together
// on one manual clock: every run of it is the same.
type table struct {
	clock *netplay.ManualClock
	net   *netplay.SimNet
	games []*testGame
	sess  []*netplay.Session[Pad]
}

type tableOpts struct {
	peers, bodies, delay int
	link                 netplay.LinkConfig
	seed                 uint64
	cfg                  func(c *netplay.Config[Pad])
}

func addr(p int) string { return fmt.Sprintf("peer%d", p) }

func newTable(t testing.TB, o tableOpts) *table {
	tb := &table{clock: &netplay.ManualClock{}}
	tb.net = netplay.NewSimNet(tb.clock, o.seed, o.link)
	peers := make([]string, o.peers)
	for p := range peers {
		peers[p] = addr(p)
	}
	for p := range o.peers {
		g := newTestGame(t, o.bodies, 0)
		cfg := netplay.Config[Pad]{Players: o.peers, Local: p, Peers: peers, Transport: tb.net.Link(addr(p)),
			Clock: tb.clock, Session: 42, InputDelay: o.delay, Log: true}
		if o.cfg != nil {
			o.cfg(&cfg)
		}
		s, err := netplay.New(g, g.in, cfg)
		require.NoError(t, err)
		tb.games = append(tb.games, g)
		tb.sess = append(tb.sess, s)
	}
	return tb
}

// run steps the clock a step at a time and updates every peer, with each
// one's input for the step its input lands on, until every peer confirmed
// steps steps (or a bound on the updates passes).
func (tb *table) run(t testing.TB, steps int, delay int) {
	for it := 0; it < steps*4; it++ {
		tb.clock.Advance(stepDur)
		done := true
		for p, s := range tb.sess {
			_, err := s.Update(padFor(7, p, s.Step()+delay))
			require.NoError(t, err)
			if s.ConfirmedStep() < steps-1 {
				done = false
			}
		}
		if done {
			return
		}
	}
	for p, s := range tb.sess {
		t.Logf("peer %d: step %d, confirmed %d, %+v", p, s.Step(), s.ConfirmedStep(), s.Stats())
	}
	t.Fatalf("the peers did not confirm %d steps in %d updates", steps, steps*4)
}

// check compares the confirmed steps of every peer, and replays them
// offline into a fresh game.
func (tb *table) check(t testing.TB, steps, bodies int) {
	logs := make([][]netplay.Confirmed[Pad], len(tb.sess))
	for p, s := range tb.sess {
		logs[p] = s.Confirmed()
		require.GreaterOrEqual(t, len(logs[p]), steps, "peer %d", p)
	}
	for f := range steps {
		for p := 1; p < len(logs); p++ {
			if logs[p][f] != logs[0][f] {
				t.Fatalf("step %d: peer %d confirmed %+v, peer 0 %+v", f, p, logs[p][f], logs[0][f])
			}
		}
	}
	g := newTestGame(t, bodies, 0)
	require.NoError(t, netplay.Replay(g, g.in, logs[0][:steps]))
}

func (tb *table) report(t testing.TB, steps int) {
	for p, s := range tb.sess {
		st := s.Stats()
		avg := 0.0
		if st.Rollbacks > 0 {
			avg = float64(st.Resimulated) / float64(st.Rollbacks)
		}
		t.Logf("peer %d: %d steps, rollbacks %.3f a step, depth mean %.1f max %d, stalls %d, skipped %d, refused %d, sent %.0f B/s, rtt %v",
			p, st.Step, float64(st.Rollbacks)/float64(st.Step), avg, st.MaxDepth, st.Stalls, st.Skipped, st.Refused,
			float64(tb.net.Sent(addr(p)))/(float64(st.Step)*stepDur.Seconds()), rtts(st))
	}
}

func rtts(st netplay.Stats) []time.Duration {
	var out []time.Duration
	for _, p := range st.Peers {
		if p.Joined {
			out = append(out, p.RTT.Round(time.Millisecond))
		}
	}
	return out
}

func TestTwoPeersQuick(t *testing.T) {
	o := tableOpts{peers: 2, bodies: 40, delay: 1, seed: 1,
		link: netplay.LinkConfig{Delay: 25 * time.Millisecond, Jitter: 20 * time.Millisecond, Loss: 0.05, Reorder: 0.05, Duplicate: 0.02}}
	tb := newTable(t, o)
	tb.run(t, 600, o.delay)
	tb.check(t, 600, o.bodies)
	tb.report(t, 600)
}
