package game

import (
	"math"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
	"github.com/weft-engine/weft/netplay"
)

// Playing together (Config.Netplay): each player's bursts and fountain
// switches enter the steps as data, a NetInput per player in the world's
// netplay.Inputs resource, and the netinput system carries them out at the
// start of every step: the same on every peer, and again after a rollback.
// The owner's burst generator and the fountain's switch are resources of
// the world, so a rollback puts them back too.

// NetInput is a player's input in a game played together: 6 bytes. The
// cursor is in whole world units (a world unit is a pixel at zoom 1):
// whole numbers that move by a few units a step XOR to a byte or two, so
// a moving cursor costs a third of what float32s would in the packets'
// unacknowledged runs (netplay's wire format; docs/PERFORMANCE.md).
type NetInput struct {
	X, Y     int16 // the player's cursor, in world units
	Burst    bool  // a burst of BurstSize bodies at the cursor
	Fountain bool  // switch the fountain
}

// CursorInput is the NetInput of a cursor at world (x, y), rounded to
// whole units and kept within int16's range.
func CursorInput(x, y float64, burst, fountain bool) NetInput {
	unit := func(v float64) int16 { return int16(math.Round(min(max(v, math.MinInt16), math.MaxInt16))) }
	return NetInput{X: unit(x), Y: unit(y), Burst: burst, Fountain: fountain}
}

// netInput carries out every player's NetInput, on the owner, first in
// PreUpdate.
type netInput struct{ g *Game }

func (n netInput) Name() string { return "netinput" }

func (n netInput) Run(w *ecs.World, _ engine.Time) error {
	g := n.g
	for p := range netplay.MaxPlayers {
		in := g.net.In[p]
		if g.net.Status[p] != netplay.Playing {
			continue
		}
		if in.Fountain {
			g.fountain.On = !g.fountain.On
		}
		if in.Burst {
			g.spawnBurst(float64(in.X), float64(in.Y), BurstSize)
		}
	}
	return g.apply()
}

// addNet adds the inputs resource and the netinput system, with
// Config.Netplay.
func (g *Game) addNet() error {
	if !g.cfg.Netplay {
		return nil
	}
	g.net = &netplay.Inputs[NetInput]{}
	if err := ecs.AddResource(g.w, g.net); err != nil {
		return err
	}
	return g.eng.AddExclusive(engine.PreUpdate, netInput{g})
}

// NetInputs is the inputs resource of a game played together (nil without
// Config.Netplay): what every player did in the last step, cursors included.
func (g *Game) NetInputs() *netplay.Inputs[NetInput] { return g.net }

// NetID describes the game's scene for netplay.Config.Game: peers of other
// scenes are refused.
func (g *Game) NetID() uint64 {
	return uint64(g.cfg.Entities)<<32 ^ g.cfg.Seed ^ 0x6e6574 // "net"
}
