package game_test

import (
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/demo/internal/game"
	"github.com/weft-engine/weft/netplay"
)

// The demo's scene passes netplay's sync test on every worker count: each
// step rolled back by 2 and run again gives the same digest, system by
// system (issue 37, item 2).
func TestSyncTestScene(t *testing.T) {
	steps := 120
	if raceOn || testing.Short() {
		steps = 30
	}
	for _, workers := range []int{0, 1, 2, 4} {
		g, err := game.New(game.Config{Entities: 2000, Workers: workers, Seed: 5})
		require.NoError(t, err)
		n, err := netplay.SyncTest(g, netplay.SyncTestConfig{Steps: steps, Check: 2})
		require.NoError(t, err, "workers %d", workers)
		require.Equal(t, steps, n)
		require.NoError(t, g.Close())
	}
}

// The demo played by two on a simulated link: each player's bursts and
// fountain switches are its inputs; every confirmed step is the same on
// both and the same as an offline replay.
func TestNetplayDemo(t *testing.T) {
	steps := 300
	if raceOn || testing.Short() {
		steps = 120
	}
	clock := &netplay.ManualClock{}
	sn := netplay.NewSimNet(clock, 3, netplay.LinkConfig{Delay: 40 * time.Millisecond, Jitter: 20 * time.Millisecond, Loss: 0.05, Reorder: 0.05})
	cfg := game.Config{Entities: 800, Workers: 1, Seed: 9, Netplay: true}
	var ss []*netplay.Session[game.NetInput]
	for p := range 2 {
		g, err := game.New(cfg)
		require.NoError(t, err)
		t.Cleanup(func() { g.Close() })
		s, err := netplay.New(g, g.NetInputs(), netplay.Config[game.NetInput]{Players: 2, Local: p, Peers: []string{"host", "guest"},
			Transport: sn.Link([]string{"host", "guest"}[p]), Clock: clock, Session: 1, Game: g.NetID(), InputDelay: 1, Log: true})
		require.NoError(t, err)
		ss = append(ss, s)
	}
	for it := 0; it < steps*3 && min(ss[0].ConfirmedStep(), ss[1].ConfirmedStep()) < steps; it++ {
		clock.Advance(time.Second / 60)
		for p, s := range ss {
			f := s.Step()
			in := game.NetInput{X: int16(300 + 200*p + f%50), Y: 200, Burst: (f+30*p)%45 == 0, Fountain: (f+p)%150 == 0}
			_, err := s.Update(in)
			require.NoError(t, err)
		}
	}
	a, b := ss[0].Confirmed(), ss[1].Confirmed()
	require.GreaterOrEqual(t, min(len(a), len(b)), steps)
	for f := range steps {
		require.Equal(t, a[f], b[f], "step %d", f)
	}
	g, err := game.New(cfg)
	require.NoError(t, err)
	defer g.Close()
	require.NoError(t, netplay.Replay(g, g.NetInputs(), a[:steps]))
	st := ss[0].Stats()
	t.Logf("rollbacks %d, max depth %d, resimulated %d steps in %v", st.Rollbacks, st.MaxDepth, st.Resimulated, st.ResimTime)
}

// The demo's input bandwidth a link, as two players on a simulated link
// of RTT 30, 100 and 200 ms (jitter 20 ms, 5% loss, reordering) would
// use it: each cursor moves for one second in three and rests the other
// two, a burst every 45 steps, the fountain switched every 300. The bytes
// are the session's packets (UDP's own headers left out), over the steps'
// time at 60 a second; seeded and on a manual clock, so the same on every
// run. Issue 37, item 7: well under 5 kB/s.
func TestNetplayDemoBandwidth(t *testing.T) {
	steps := 1200
	if raceOn || testing.Short() {
		steps = 300
	}
	for _, rtt := range []time.Duration{30, 100, 200} {
		clock := &netplay.ManualClock{}
		sn := netplay.NewSimNet(clock, 11, netplay.LinkConfig{Delay: rtt*time.Millisecond/2 - 10*time.Millisecond,
			Jitter: 20 * time.Millisecond, Loss: 0.05, Reorder: 0.05})
		addrs := []string{"host", "guest"}
		var ss []*netplay.Session[game.NetInput]
		for p := range 2 {
			g, err := game.New(game.Config{Entities: 100, Workers: 0, Seed: 9, Netplay: true})
			require.NoError(t, err)
			t.Cleanup(func() { g.Close() })
			s, err := netplay.New(g, g.NetInputs(), netplay.Config[game.NetInput]{Players: 2, Local: p, Peers: addrs,
				Transport: sn.Link(addrs[p]), Clock: clock, Session: 1, Game: g.NetID(), InputDelay: 2})
			require.NoError(t, err)
			ss = append(ss, s)
		}
		for it := 0; it < steps*3 && min(ss[0].Step(), ss[1].Step()) < steps; it++ {
			clock.Advance(time.Second / 60)
			for p, s := range ss {
				_, err := s.Update(playerInput(p, s.Step()))
				require.NoError(t, err)
			}
		}
		for p, s := range ss {
			st := s.Stats()
			secs := float64(st.Step) / 60
			bps := float64(sn.Sent(addrs[p])) / secs
			t.Logf("rtt %d ms, player %d: %d steps, %d packets of %.1f bytes on average, %.0f B/s a link", rtt, p, st.Step,
				st.Packets, float64(st.SentBytes)/float64(st.Packets), bps)
			require.Less(t, bps, 5000.0)
		}
	}
}

// playerInput is a player's input at step f as a player makes it: the
// cursor moves for a second (2.75 and 1.5 world units a step) and rests
// for two, a burst every 45 steps, the fountain every 300.
func playerInput(p, f int) game.NetInput {
	moving := float64(min(f%180, 60) + 60*(f/180))
	return game.CursorInput(float64(300+200*p)+2.75*math.Mod(moving, 200), 240+1.5*math.Mod(moving, 120), (f+30*p)%45 == 0, (f+p)%300 == 0)
}
