package main

import (
	"fmt"

	"github.com/weft-engine/weft/demo/internal/game"
	"github.com/weft-engine/weft/overlay"
)

// gameKeys are the demo's own keys, listed in the overlay's help (H)
// after the overlay's.
var gameKeys = []overlay.KeyHelp{
	{Keys: "+ / -", Does: "one worker more / fewer (0 workers is serial)"},
	{Keys: "S", Does: "serial <-> parallel (back to the last worker count)"},
	{Keys: "C", Does: "safety and ecs checks on / off"},
	{Keys: "B", Does: "batch size: adaptive, 64, 256, 1024, 4096"},
	{Keys: "Space, click", Does: "a burst of bodies at the cursor"},
	{Keys: "I, Shift+I", Does: "inspect the body nearest the cursor (its components, the systems that reach it); release; Page Down / Up step through a system's query"},
	{Keys: "J", Does: "fountain on / off (it runs every 30 steps while on)"},
	{Keys: "Enter", Does: "play, on the title screen (the world runs behind it; the fountain waits)"},
	{Keys: "P, N", Does: "pause / resume (a state); one step while paused"},
	{Keys: "R", Does: "rewind two seconds (the same inputs give the same steps again)"},
	{Keys: "F5, F9", Does: "save the world to weft.save in -tracedir; load it"},
	{Keys: "arrows, drag", Does: "pan; wheel: zoom about the cursor"},
	{Keys: "Esc", Does: "quit"},
}

// netKeys are the keys listed in the help while playing together
// (-host, -join) or watching (-spectate): gameKeys less those that are off
// (netwin.go), and a line that says so.
func netKeys(watching bool) []overlay.KeyHelp {
	off := map[string]bool{"I, Shift+I": true, "Enter": true, "P, N": true, "R": true, "F5, F9": true}
	note := "off while playing together: Enter, P, N, R, F5, F9 (they would stop or change the world outside the players' inputs) and inspecting (I)"
	if watching {
		off["Space, click"], off["J"] = true, true
		note = "off while watching: the game's keys (Space, click, J, Enter, P, N, R, F5, F9, I); the players' inputs play"
	}
	var keys []overlay.KeyHelp
	for _, k := range gameKeys {
		if !off[k.Keys] {
			keys = append(keys, k)
		}
	}
	return append(keys, overlay.KeyHelp{Keys: "(netplay)", Does: note})
}

// gamePanel is the demo's line under the overlay's top lines: the
// world, the sprites drawn, and whether the game is paused.
func (w *window) gamePanel() overlay.Panel {
	return overlay.Panel{Name: "game", Dock: overlay.Top, Layout: func(c *overlay.Canvas) int {
		_, landings := w.g.Landings()
		s := fmt.Sprintf("entities %d  visible %d  landings %d (hard %d)  seekers lost %d   sprites %d in %d draw calls",
			w.g.Len(), w.g.Visible(), landings, w.g.HardLandings(), w.g.SeekersLost(), w.spr.drawn, w.spr.calls)
		switch {
		case w.rp != nil:
			s = "REPLAY   " + s // its step and verdict: the status band
		case w.g.Mode() == game.Title:
			s = "TITLE SCREEN (Enter plays)   " + s
		case w.g.Mode() == game.Paused || w.ctl.Paused:
			s = "PAUSED (P resumes, N steps)   " + s
		}
		return c.Wrap(4, 1, s, 2) + 2
	}}
}
