package netplay

import (
	"time"

	"github.com/weft-engine/weft/internal/fault"
)

// Stats are a session's figures so far, for the game's netplay panel.
type Stats struct {
	Step, Confirmed int
	Rollbacks       int           // rollbacks run
	Resimulated     int           // steps run again, over every rollback
	MaxDepth        int           // the longest rollback, in steps
	LastResim       time.Duration // the last rollback's time, wall clock
	ResimTime       time.Duration // every rollback's, wall clock
	Stalls          int           // Updates that waited: the prediction window was full
	Skipped         int           // steps time sync left out, to let slower peers catch up
	SentBytes       int
	RecvBytes       int
	Packets         int // sent
	SendErrors      int
	Refused         int // packets refused by the reader (Reader's codes)
	Peers           [MaxPlayers]PeerStats
}

// PeerStats is what a session measured of one remote player.
type PeerStats struct {
	Joined, Gone bool
	RTT          time.Duration // round trip, smoothed
	Ahead        float64       // how many steps this peer runs ahead of it (negative: behind)
}

// Stats returns the session's figures.
func (s *Session[I]) Stats() Stats {
	st := s.stats
	st.Step, st.Confirmed, st.Refused = int(s.cur), int(s.final), s.rd.RefusedTotal()
	for p := range s.cfg.Players {
		if p == s.cfg.Local {
			continue
		}
		pr := &s.peers[p]
		st.Peers[p] = PeerStats{Joined: pr.joined, Gone: s.gone[p] != never, RTT: pr.rtt}
		if pr.heard {
			st.Peers[p].Ahead = s.advantage(p)
		}
	}
	return st
}

// Refused is the number of packets the session's reader refused with code.
func (s *Session[I]) Refused(code fault.Code) int { return s.rd.Refused(code) }
