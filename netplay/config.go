package netplay

import (
	"crypto/sha256"
	"encoding/binary"
	"time"
)

// Config configures a Session. Zero fields take the defaults.
type Config[I comparable] struct {
	Players int // players in the session, 2 to MaxPlayers
	Local   int // the local player's index, below Players
	// Peers is each player's address on the transport, Players long: the
	// local player's is ignored, and "" is one not known yet (a host's
	// joining players), learned from its first packet that checks.
	Peers []string
	// Spectators is how many spectators the session accepts (a spectator
	// asks; the session then sends it every confirmed input).
	Spectators int
	Transport  Transport // required
	Clock      Clock     // default SystemClock()
	// Session identifies the session: packets of another are refused.
	// Key authenticates its packets (HMAC-SHA256); by default one derived
	// from Session, which finds corruption and strays but not an attacker
	// who knows Session.
	Session uint64
	Key     []byte
	// Game describes the game and its scene (a hash of its build, seed,
	// size): a peer whose Game differs is refused (WEFT-N006).
	Game uint64
	// InputDelay delays the local input by this many steps: fewer
	// rollbacks, at the cost of that much latency. 0 is none.
	InputDelay int
	// Window is the prediction window: how many steps the session runs
	// ahead of the last step whose inputs are all known before it waits
	// (default 8, at most 64).
	Window int
	// StepRate is the steps a second the session runs (default: one each
	// of the engine's fixed step).
	StepRate int
	// MaxSteps is the most steps one Update runs to catch up (default 4).
	MaxSteps int
	// DigestEvery exchanges the world digest of every DigestEvery-th
	// confirmed step with the peers (default 30; a negative value: never).
	DigestEvery int
	// NoRows leaves the rows out of a desync's search: the report then
	// names the step and the system. With rows, each check step runs
	// with every written row kept (ecs.DigestCapture), which costs.
	NoRows bool
	// Timeout is how long a silent peer has until it is disconnected
	// (default 3 s); at a quarter of it the session reports it interrupted.
	Timeout time.Duration
	// Predict predicts a remote player's input for a step from its last
	// known one (default: the last one again).
	Predict func(player int, last I) I
	// Sparse keeps one snapshot, of the last confirmed step, instead of
	// one after every step: cheaper steps, longer rollbacks.
	Sparse bool
	// Log keeps every confirmed step's inputs and world digest
	// (Session.Confirmed), for an offline replay; always on with
	// Spectators.
	Log bool
}

func (c *Config[I]) defaults(fixed time.Duration) error {
	if c.Players < 2 || c.Players > MaxPlayers {
		return errorf(ErrBadConfig, nil, "Config.Players is %d; a session has 2 to %d players", c.Players, MaxPlayers)
	}
	if c.Local < 0 || c.Local >= c.Players {
		return errorf(ErrBadConfig, nil, "Config.Local is %d; it must be a player, 0 to %d", c.Local, c.Players-1)
	}
	if len(c.Peers) != c.Players {
		return errorf(ErrBadConfig, nil, "Config.Peers has %d addresses for %d players: give one per player (\"\" for the local one or one not known yet)", len(c.Peers), c.Players)
	}
	if c.Transport == nil {
		return errorf(ErrBadConfig, nil, "Config.Transport is nil: give ListenUDP's, a SimNet's link or one of the game's own")
	}
	if c.InputDelay < 0 || c.InputDelay > 16 {
		return errorf(ErrBadConfig, nil, "Config.InputDelay is %d; 0 to 16 steps", c.InputDelay)
	}
	if c.Window == 0 {
		c.Window = 8
	}
	if c.Window < 1 || c.Window > 64 {
		return errorf(ErrBadConfig, nil, "Config.Window is %d; 1 to 64 steps", c.Window)
	}
	if c.StepRate == 0 {
		c.StepRate = int(time.Second / fixed)
	}
	if c.StepRate < 1 || c.StepRate > 1000 {
		return errorf(ErrBadConfig, nil, "Config.StepRate is %d; 1 to 1000 steps a second", c.StepRate)
	}
	if c.MaxSteps == 0 {
		c.MaxSteps = 4
	}
	if c.DigestEvery == 0 {
		c.DigestEvery = 30
	}
	if c.Timeout == 0 {
		c.Timeout = 3 * time.Second
	}
	if c.MaxSteps < 1 || c.Timeout < 0 || c.Spectators < 0 || c.Spectators > 16 {
		return errorf(ErrBadConfig, nil, "Config.MaxSteps %d, Timeout %v, Spectators %d: MaxSteps at least 1, Timeout positive, 0 to 16 spectators", c.MaxSteps, c.Timeout, c.Spectators)
	}
	if c.Clock == nil {
		c.Clock = SystemClock()
	}
	if c.Key == nil {
		c.Key = DefaultKey(c.Session)
	}
	if c.Spectators > 0 {
		c.Log = true
	}
	return nil
}

// DefaultKey is the key of a session that was given none.
func DefaultKey(session uint64) []byte {
	k := sha256.Sum256(binary.LittleEndian.AppendUint64([]byte("weft-netplay"), session))
	return k[:]
}
