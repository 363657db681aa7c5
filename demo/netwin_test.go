package main

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/demo/internal/game"
	"github.com/weft-engine/weft/netplay"
)

// Two players and a spectator play the demo together on netplay's
// simulated link, on a manual clock, without a window (Ebiten runs one
// game a process: TestGame's): each side's netplay panel shows the
// session's figures, each player sees the other's cursor where that
// player's input put it and the spectator both, and the line of keys and
// the help list only the keys that work (issue 37, item 6). Every step
// and packet is the same on every run: nothing here reads the wall clock
// but the panel's resimulation time, which is not checked.
func TestNetWin(t *testing.T) {
	clock := &netplay.ManualClock{}
	sn := netplay.NewSimNet(clock, 3, netplay.LinkConfig{Delay: 20 * time.Millisecond, Jitter: 5 * time.Millisecond, Loss: 0.05})
	addrs := []string{"host", "guest", "watcher"}
	var ws []*window
	for i, o := range []options{{host: addrs[0]}, {join: addrs[0]}, {spectate: addrs[0]}} {
		g, err := game.New(game.Config{Entities: 300, Seed: 1, Netplay: true})
		require.NoError(t, err)
		t.Cleanup(func() { assert.NoError(t, g.Close()) })
		n, err := openNet(g, o, sn.Link(addrs[i]), addrs[i], clock)
		require.NoError(t, err)
		ws = append(ws, &window{g: g, o: o, net: n})
	}
	// Each player's cursor rests where it is; player 1's bursts now and then.
	inputs := []game.NetInput{game.CursorInput(400, 300, false, false), game.CursorInput(900.4, 520.6, false, false)}
	for f := range 240 {
		clock.Advance(time.Second / 60)
		for i, w := range ws {
			var in game.NetInput
			if i < 2 {
				in = inputs[i]
				in.Burst = i == 1 && f%60 == 30
			}
			_, err := w.net.update(in)
			require.NoError(t, err)
		}
	}
	for i, w := range ws[:2] {
		n := w.net
		require.True(t, n.s.Started(), "player %d", i)
		require.Greater(t, n.s.ConfirmedStep(), 150, "player %d", i)
		n.refresh(time.Second)
		assert.Contains(t, n.line, fmt.Sprintf("netplay: player %d  ping ", i), "player %d's panel", i)
		for _, part := range []string{"ahead ", "rollbacks ", "resim ", "up ", "down ", "kB/s", "confirmed "} {
			assert.Contains(t, n.line, part, "player %d's panel", i)
		}
		other := 1 - i
		cs := w.cursors()
		require.Len(t, cs, 1, "player %d sees the other's cursor only", i)
		c := cs[0]
		assert.Equal(t, other, c.player)
		assert.Equal(t, [2]float64{float64(inputs[other].X), float64(inputs[other].Y)}, [2]float64{c.wx, c.wy}, "player %d: where player %d's input put it", i, other)
		sx, sy := toScreen(*w.g.Engine().Camera(), c.wx, c.wy)
		assert.InDelta(t, sx, c.sx, 1e-9)
		assert.InDelta(t, sy, c.sy, 1e-9)
		assert.Equal(t, hintNet, w.hint())
	}
	assert.Equal(t, [2]float64{900, 521}, [2]float64{float64(inputs[1].X), float64(inputs[1].Y)}, "whole world units")

	watcher := ws[2]
	watcher.net.refresh(time.Second)
	assert.Contains(t, watcher.net.line, "netplay: spectator, step ")
	var seen []int
	for _, c := range watcher.cursors() {
		seen = append(seen, c.player)
	}
	assert.Equal(t, []int{0, 1}, seen, "the spectator sees both players' cursors")
	assert.Equal(t, hintWatch, watcher.hint())

	// Only what works: none of the keys that are off, and a note of them.
	for _, off := range []string{"P pause", "R rewind", "F5", "Enter", "I inspect", "PgDn"} {
		assert.NotContains(t, hintNet, off)
		assert.NotContains(t, hintWatch, off)
	}
	for _, on := range []string{"Space/click burst", "J fountain", "camera", "+/- workers", "H keys", "Esc quit", "playing together: "} {
		assert.Contains(t, hintNet, on)
	}
	assert.NotContains(t, hintWatch, "Space/click burst")
	for _, watching := range []bool{false, true} {
		keys := netKeys(watching)
		var listed []string
		for _, k := range keys {
			listed = append(listed, k.Keys)
		}
		for _, off := range []string{"R", "F5, F9", "P, N", "Enter", "I, Shift+I"} {
			assert.NotContains(t, listed, off, "watching %v", watching)
		}
		assert.Equal(t, !watching, strings.Contains(strings.Join(listed, "|"), "Space, click"), "watching %v", watching)
		assert.Equal(t, "(netplay)", keys[len(keys)-1].Keys)
	}
}
