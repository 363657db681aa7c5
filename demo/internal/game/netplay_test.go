package game_test

import (
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
			in := game.NetInput{X: float32(300 + 200*p + f%50), Y: 200, Burst: (f+30*p)%45 == 0, Fountain: (f+p)%150 == 0}
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
