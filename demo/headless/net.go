package main

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/weft-engine/weft/demo/internal/game"
	"github.com/weft-engine/weft/netplay"
)

// Playing together, headless: -host addr binds addr and waits for a
// player; -join addr joins the host at addr; -spectate addr watches it.
// Each player's inputs are scripted (a burst every 120 steps, the fountain
// switched every 600), the game runs at 60 steps a second on the system
// clock until -steps steps are confirmed, and the command prints the
// world digest of the last one: the same on every peer and spectator.

// netSession is the demo's session id.
const netSession = 0xde30

// scripted is player p's input at step f.
func scripted(g *game.Game, p, f int) game.NetInput {
	return game.CursorInput(g.Width*float64(1+2*p)/4, g.Height/3, (f+60*p)%120 == 0, f > 0 && (f+300*p)%600 == 0)
}

func playNet(o options, stdout io.Writer) (err error) {
	cfg := o.Config
	cfg.Seed, cfg.Netplay, cfg.Window, cfg.Detail = 1, true, 120, 1
	g, err := game.New(cfg)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, g.Close()) }()
	bind := ":0"
	if o.host != "" {
		bind = o.host
	}
	udp, err := netplay.ListenUDP(bind)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, udp.Close()) }()
	// Generous: a loaded machine, a peer started late.
	deadline := time.Now().Add(time.Duration(o.steps)*time.Second/15 + 2*time.Minute)
	if o.spectate != "" {
		return spectate(o, g, udp, deadline, stdout)
	}
	local, peers := 0, []string{"", ""}
	if o.join != "" {
		local, peers[0] = 1, o.join
	}
	ncfg := netplay.Config[game.NetInput]{Players: 2, Local: local, Peers: peers, Transport: udp, Session: netSession,
		Game: g.NetID(), InputDelay: 2, Log: true, Timeout: 10 * time.Second}
	if local == 0 {
		ncfg.Spectators = 2
	}
	s, err := netplay.New(g, g.NetInputs(), ncfg)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "netplay: player %d on %s\n", local, udp.Addr())
	var doneAt time.Time
	for time.Now().Before(deadline) {
		if _, err := s.Update(scripted(g, local, s.Step())); err != nil {
			return err
		}
		for _, ev := range s.Events() {
			fmt.Fprintf(stdout, "netplay: %s\n", ev.String())
		}
		if doneAt.IsZero() && s.ConfirmedStep() >= o.steps-1 {
			doneAt = time.Now()
		}
		if !doneAt.IsZero() && time.Since(doneAt) > 2*time.Second { // the others confirm too
			break
		}
		time.Sleep(time.Second / 240)
	}
	s.Leave()
	if s.ConfirmedStep() < o.steps-1 {
		return fmt.Errorf("netplay: %d of %d steps confirmed before the deadline", s.ConfirmedStep()+1, o.steps)
	}
	st := s.Stats()
	secs := float64(st.Step) / 60
	_, err = fmt.Fprintf(stdout, "confirmed %d steps; step %d world digest %016x\nrollbacks %d (%.3f a step, max depth %d), resimulated %d steps in %v; sent %.1f kB/s, rtt %v, refused %d\n",
		s.ConfirmedStep()+1, o.steps-1, s.Confirmed()[o.steps-1].Hash, st.Rollbacks, float64(st.Rollbacks)/float64(st.Step), st.MaxDepth,
		st.Resimulated, st.ResimTime.Round(time.Millisecond), float64(st.SentBytes)/secs/1000, st.Peers[1-local].RTT.Round(time.Microsecond), st.Refused)
	return err
}

func spectate(o options, g *game.Game, udp *netplay.UDP, deadline time.Time, stdout io.Writer) error {
	sp, err := netplay.NewSpectator(g, g.NetInputs(), netplay.SpectatorConfig{Host: o.spectate, Players: 2, Transport: udp,
		Session: netSession, Game: g.NetID(), Timeout: 10 * time.Second})
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "netplay: spectator on %s\n", udp.Addr())
	for time.Now().Before(deadline) && sp.Step() < o.steps {
		if _, err := sp.Update(); err != nil {
			return err
		}
		for _, ev := range sp.Events() {
			fmt.Fprintf(stdout, "netplay: %s\n", ev.String())
		}
		time.Sleep(time.Second / 240)
	}
	sp.Leave()
	if sp.Step() < o.steps {
		return fmt.Errorf("netplay: %d of %d steps watched before the deadline", sp.Step(), o.steps)
	}
	_, err = fmt.Fprintf(stdout, "watched %d steps; step %d world digest %016x\n", sp.Step(), o.steps-1, sp.Ran()[o.steps-1].Hash)
	return err
}
