package main

import (
	"bytes"
	"net"
	"regexp"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// -host and -join play the demo together over loopback UDP, here two
// commands in one process (netplay's TestLoopbackUDP runs two processes):
// both confirm the steps and print the same world digest of the last one.
// Generous deadlines, no timing asserted.
func TestHostJoin(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 120 steps at 60 a second")
	}
	l, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	require.NoError(t, err)
	addr := l.LocalAddr().String()
	require.NoError(t, l.Close())
	args := [][]string{{"-host", addr}, {"-join", addr}}
	var outs, errs [2]bytes.Buffer
	var codes [2]int
	var wg sync.WaitGroup
	for i := range args {
		wg.Add(1)
		go func() {
			defer wg.Done()
			codes[i] = run(append(args[i], "-steps", "120", "-entities", "300", "-workers", "0"), &outs[i], &errs[i])
		}()
	}
	wg.Wait()
	digest := regexp.MustCompile(`step 119 world digest ([0-9a-f]{16})`)
	var got [2]string
	for i := range args {
		require.Equal(t, 0, codes[i], "%v: %s%s", args[i], outs[i].String(), errs[i].String())
		m := digest.FindStringSubmatch(outs[i].String())
		require.NotNil(t, m, outs[i].String())
		got[i] = m[1]
		t.Log(outs[i].String())
	}
	require.Equal(t, got[0], got[1])
}
