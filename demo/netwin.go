package main

import (
	"errors"
	"fmt"
	"image/color"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"

	"github.com/weft-engine/weft/demo/internal/game"
	"github.com/weft-engine/weft/netplay"
	"github.com/weft-engine/weft/overlay"
)

// Playing together in the window: -host addr, -join addr, -spectate addr.
// Each player's bursts (Space, a click) and fountain switches (J) are its
// inputs (game.NetInput, with its cursor); the session steps the game
// (netplay.Session.Update in place of the game's Step), the other players'
// cursors are drawn over the world, and the overlay has a netplay panel.
// The keys that would change the world outside the inputs (rewind, save,
// load, pause, the title's Enter) are off, and so is inspecting; the line
// of keys and the help (H) list only what works (hintNet, netKeys).

// netSession is the demo's session id (the headless command's too).
const netSession = 0xde30

// netWin is the window's side of a game played together. Its methods are
// executed only by the window's Update (Ebiten's game goroutine, the
// engine's owner), or by a test that owns the game.
type netWin struct {
	tr    netplay.Transport
	addr  string // the transport's own address, for the panel
	s     *netplay.Session[game.NetInput]
	sp    *netplay.Spectator[game.NetInput]
	local int
	// The panel's figures, refreshed each second.
	last   netplay.Stats
	lastAt time.Time
	frames int
	line   string
}

func (o options) netplay() bool { return o.host != "" || o.join != "" || o.spectate != "" }

// newNetWin binds the socket and makes the session or the spectator.
func newNetWin(g *game.Game, o options) (*netWin, error) {
	bind := ":0"
	if o.host != "" {
		bind = o.host
	}
	udp, err := netplay.ListenUDP(bind)
	if err != nil {
		return nil, err
	}
	return openNet(g, o, udp, udp.Addr(), netplay.SystemClock())
}

// openNet makes the session (o.host, o.join) or the spectator (o.spectate)
// on tr, whose own address is addr, with clock: UDP and the system clock
// in the window, netplay's simulated link and a manual clock in a test.
// On an error it closes tr.
func openNet(g *game.Game, o options, tr netplay.Transport, addr string, clock netplay.Clock) (*netWin, error) {
	var err error
	n := &netWin{tr: tr, addr: addr, local: -1, lastAt: time.Now(), line: "netplay: waiting for the other player"}
	if o.spectate != "" {
		n.sp, err = netplay.NewSpectator(g, g.NetInputs(), netplay.SpectatorConfig{Host: o.spectate, Players: 2, Transport: tr,
			Clock: clock, Session: netSession, Game: g.NetID()})
	} else {
		peers := []string{"", ""}
		n.local = 0
		if o.join != "" {
			n.local, peers[0] = 1, o.join
		}
		cfg := netplay.Config[game.NetInput]{Players: 2, Local: n.local, Peers: peers, Transport: tr, Clock: clock, Session: netSession,
			Game: g.NetID(), InputDelay: 2}
		if n.local == 0 {
			cfg.Spectators = 2
		}
		n.s, err = netplay.New(g, g.NetInputs(), cfg)
	}
	if err != nil {
		return nil, errors.Join(err, tr.Close())
	}
	return n, nil
}

func (n *netWin) close() error {
	if n.s != nil {
		n.s.Leave()
	} else {
		n.sp.Leave()
	}
	return n.tr.Close()
}

// netStep runs the frame of a game played together: the camera keys, then
// the session with this frame's input.
func (w *window) netStep(act game.Actions, onOverlay bool) error {
	if act.Rewind || act.Save || act.Load || act.Pause || act.Start || act.Step {
		w.say("playing together: Enter, P, N, R, F5 and F9 are off (they would stop or change the world outside the players' inputs)")
	}
	if w.net.s == nil && (act.Burst || act.Fountain) {
		w.say("watching: a spectator plays no input (Space, click and J are the players')")
	}
	in := w.readInput(onOverlay)
	burst := in.Click || act.Burst
	in.Click = false
	w.g.HandleInput(in) // the camera only
	cam := w.g.Engine().Camera()
	x, y := cam.ToWorld(in.MouseX, in.MouseY)
	events, err := w.net.update(game.CursorInput(x, y, burst, act.Fountain))
	for _, ev := range events {
		w.say("netplay: " + ev.String())
	}
	w.st.Steps++
	return err
}

// update runs the session with local as this player's input (a
// spectator has none: it runs what the host sends) and returns what it
// heard since the last frame.
func (n *netWin) update(local game.NetInput) ([]netplay.Event, error) {
	n.frames++
	if n.s != nil {
		_, err := n.s.Update(local)
		return n.s.Events(), err
	}
	_, err := n.sp.Update()
	return n.sp.Events(), err
}

// cursor is another player's cursor as drawn over the world: the player,
// its position in world units (its input's) and on the screen.
type cursor struct {
	player         int
	wx, wy, sx, sy float64
}

// cursors are the other players' cursors, from the inputs of the last
// step (a remote one predicted until it arrives): every player's to a
// spectator.
func (w *window) cursors() []cursor {
	if w.net == nil || w.g.NetInputs() == nil {
		return nil
	}
	cam := *w.g.Engine().Camera()
	minX, minY, _, _ := cam.Rect()
	in := w.g.NetInputs()
	var out []cursor
	for p := range 2 {
		if p == w.net.local || in.Status[p] != netplay.Playing {
			continue
		}
		x, y := float64(in.In[p].X), float64(in.In[p].Y)
		out = append(out, cursor{player: p, wx: x, wy: y, sx: (x - minX) * cam.Zoom, sy: (y - minY) * cam.Zoom})
	}
	return out
}

// drawCursors draws the other players' cursors over the world.
func (w *window) drawCursors(screen *ebiten.Image) {
	cols := []color.RGBA{{0xff, 0x60, 0x60, 0xff}, {0x60, 0xd0, 0xff, 0xff}}
	for _, c := range w.cursors() {
		sx, sy, col := float32(c.sx), float32(c.sy), cols[c.player]
		vector.StrokeLine(screen, sx-8, sy, sx+8, sy, 2, col, true)
		vector.StrokeLine(screen, sx, sy-8, sx, sy+8, 2, col, true)
		vector.StrokeCircle(screen, sx, sy, 10, 1.5, col, true)
	}
}

// netPanel is the overlay's netplay panel: ping, steps ahead or behind,
// rollbacks a second and their depth, the time run again per frame, and
// the bandwidth, refreshed each second.
func (w *window) netPanel() overlay.Panel {
	return overlay.Panel{Name: "netplay", Dock: overlay.Top, Layout: func(c *overlay.Canvas) int {
		n := w.net
		if dt := time.Since(n.lastAt); dt >= time.Second {
			n.refresh(dt)
		}
		return c.Wrap(4, 1, n.line, 2) + 2
	}}
}

// refresh makes the panel's line from the figures since the last
// refresh, dt ago.
func (n *netWin) refresh(dt time.Duration) {
	defer func() { n.lastAt, n.frames = time.Now(), 0 }()
	if n.s == nil {
		n.line = fmt.Sprintf("netplay: spectator, step %d of %d received", n.sp.Step(), n.sp.Received())
		return
	}
	st := n.s.Stats()
	if !n.s.Started() {
		n.line = fmt.Sprintf("netplay: player %d on %s, waiting for the other player", n.local, n.addr)
		return
	}
	secs := dt.Seconds()
	rolls := st.Rollbacks - n.last.Rollbacks
	depth := 0.0
	if rolls > 0 {
		depth = float64(st.Resimulated-n.last.Resimulated) / float64(rolls)
	}
	resim := (st.ResimTime - n.last.ResimTime) / time.Duration(max(n.frames, 1))
	peer := st.Peers[1-n.local]
	n.line = fmt.Sprintf("netplay: player %d  ping %v  ahead %+.1f steps  rollbacks %.1f/s, depth %.1f (max %d)  resim %.2f ms/frame  up %.1f kB/s, down %.1f kB/s  confirmed %d",
		n.local, peer.RTT.Round(time.Millisecond), peer.Ahead, float64(rolls)/secs, depth, st.MaxDepth, float64(resim)/1e6,
		float64(st.SentBytes-n.last.SentBytes)/secs/1000, float64(st.RecvBytes-n.last.RecvBytes)/secs/1000, st.Confirmed+1)
	if peer.Gone {
		n.line += "  (the other player is gone)"
	}
	n.last = st
}
