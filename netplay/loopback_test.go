package netplay_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/weft-engine/weft/netplay"
)

// Two real processes on loopback UDP: the test runs its own binary twice
// as peers (TestLoopbackPeer), a host on a free port and a player who
// joins it, each on the system clock. Each writes its confirmed steps; they
// must be equal and equal to an offline replay. No timing is asserted:
// the peers wait for each other, and the deadlines are generous.
func TestLoopbackUDP(t *testing.T) {
	if testing.Short() {
		t.Skip("runs two processes")
	}
	const steps = 600
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	peer := func(local int, host, out string) *exec.Cmd {
		c := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestLoopbackPeer$", "-test.v")
		c.Env = append(os.Environ(), fmt.Sprintf("WEFT_NETPLAY_PEER=%d,%s,%s,%d", local, host, out, steps))
		c.Stderr = os.Stderr
		return c
	}
	out0, out1 := filepath.Join(dir, "0.json"), filepath.Join(dir, "1.json")
	host := peer(0, "", out0)
	pipe, err := host.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, host.Start())
	addrLine := make(chan string, 1)
	go func() { // the host prints its address, then its test output
		sc := bufio.NewScanner(pipe)
		for sc.Scan() {
			if a, ok := strings.CutPrefix(sc.Text(), "ADDR "); ok {
				addrLine <- a
			}
		}
	}()
	var hostAddr string
	select {
	case hostAddr = <-addrLine:
	case <-ctx.Done():
		t.Fatal("the host printed no address")
	}
	join := peer(1, hostAddr, out1)
	join.Stdout = os.Stdout
	require.NoError(t, join.Run(), "the joining peer")
	require.NoError(t, host.Wait(), "the host")
	var logs [2][]netplay.Confirmed[Pad]
	for i, p := range []string{out0, out1} {
		b, err := os.ReadFile(p)
		require.NoError(t, err)
		require.NoError(t, json.Unmarshal(b, &logs[i]))
		require.GreaterOrEqual(t, len(logs[i]), steps)
	}
	for f := range steps {
		require.Equal(t, logs[0][f], logs[1][f], "step %d", f)
	}
	g := newTestGame(t, 24, 0)
	require.NoError(t, netplay.Replay(g, g.in, logs[0][:steps]))
}

// TestLoopbackPeer is one peer of TestLoopbackUDP, run only as its child.
func TestLoopbackPeer(t *testing.T) {
	env := os.Getenv("WEFT_NETPLAY_PEER")
	if env == "" {
		t.Skip("a child of TestLoopbackUDP")
	}
	var local, steps int
	parts := strings.Split(env, ",")
	require.Len(t, parts, 4)
	_, err := fmt.Sscan(parts[0], &local)
	require.NoError(t, err)
	_, err = fmt.Sscan(parts[3], &steps)
	require.NoError(t, err)
	udp, err := netplay.ListenUDP("127.0.0.1:0")
	require.NoError(t, err)
	defer udp.Close()
	fmt.Printf("ADDR %s\n", udp.Addr())
	g := newTestGame(t, 24, 0)
	s, err := netplay.New(g, g.in, netplay.Config[Pad]{Players: 2, Local: local, Peers: []string{parts[1], ""},
		Transport: udp, Session: 77, InputDelay: 2, StepRate: 240, Timeout: 30 * time.Second, Log: true, MaxSteps: 8})
	require.NoError(t, err)
	deadline := time.Now().Add(150 * time.Second)
	var doneAt time.Time
	for time.Now().Before(deadline) {
		_, err := s.Update(padFor(11, local, s.Step()+2))
		require.NoError(t, err)
		if s.ConfirmedStep() >= steps-1 && doneAt.IsZero() {
			doneAt = time.Now() // linger, so that the other confirms too
		}
		if !doneAt.IsZero() && time.Since(doneAt) > 3*time.Second {
			break
		}
		time.Sleep(time.Millisecond)
	}
	s.Leave()
	require.GreaterOrEqual(t, s.ConfirmedStep(), steps-1, "%+v", s.Stats())
	b, err := json.Marshal(s.Confirmed())
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(parts[2], b, 0o644))
	st := s.Stats()
	t.Logf("peer %d: %d steps, %d rollbacks, max depth %d, rtt %v, sent %d B", local, st.Step, st.Rollbacks, st.MaxDepth, st.Peers[1-local].RTT, st.SentBytes)
}

// UDP's reading goroutine ends with Close, and datagrams arrive with the
// sender's address.
func TestUDPClose(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	a, err := netplay.ListenUDP("127.0.0.1:0")
	require.NoError(t, err)
	b, err := netplay.ListenUDP("127.0.0.1:0")
	require.NoError(t, err)
	require.NoError(t, a.Send(b.Addr(), []byte("hi")))
	buf := make([]byte, 16)
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		n, from, ok, err := b.Recv(buf)
		require.NoError(t, err)
		if ok {
			require.Equal(t, "hi", string(buf[:n]))
			require.Equal(t, a.Addr(), from)
			break
		}
		time.Sleep(time.Millisecond)
	}
	require.NoError(t, a.Close())
	require.NoError(t, b.Close())
}
