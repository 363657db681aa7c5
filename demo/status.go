package main

import (
	"fmt"
	"image"
	"image/color"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/ebitenutil"
	"github.com/hajimehoshi/ebiten/v2/vector"

	"github.com/weft-engine/weft/demo/internal/game"
)

// The line of keys under the timeline, by what the window shows: only
// the keys that apply now (the overlay's SetHint).
const (
	hintTitle  = "Enter play  Space/click burst  arrows/drag/wheel camera  I inspect  " + hintSettings + "  " + hintOverlay
	hintPlay   = "P pause  Space/click burst  J fountain  arrows/drag/wheel camera  I inspect  PgDn/PgUp step  R rewind  F5/F9 save/load  " + hintSettings + "  " + hintOverlay
	hintRecord = "P pause  Space/click burst  J fountain  arrows/drag/wheel camera  I inspect  PgDn/PgUp step  F5 save  " + hintSettings + "  " + hintOverlay
	hintPaused = "P resume  N one step  arrows/drag/wheel camera  I inspect  PgDn/PgUp step  " + hintSettings + "  " + hintOverlay
	hintReplay = "P pause  N one step (paused)  " + hintSettings + "  " + hintOverlay
	hintEnded  = hintSettings + "  " + hintOverlay
	// Playing together (netwin.go): only the keys that work; what else
	// is off, in a few words.
	hintNet      = "Space/click burst  J fountain  arrows/drag/wheel camera  " + hintSettings + "  " + hintOverlay + "  (playing together: pause, rewind, save/load and inspect are off)"
	hintWatch    = "arrows/drag/wheel camera  " + hintSettings + "  " + hintOverlay + "  (watching: the players' inputs play; the game's keys are off)"
	hintSettings = "+/- workers  S serial  C checks  B batch"
	hintOverlay  = "H keys  O overlay  F freeze  K baseline  G capture  T trace  click a bar: its step  click a system: filter  Esc quit"
)

// hint is the line of keys for what the window shows now.
func (w *window) hint() string {
	switch {
	case w.net != nil && w.net.s == nil:
		return hintWatch
	case w.net != nil:
		return hintNet
	case w.rp != nil && w.rp.verdict != "":
		return hintEnded
	case w.rp != nil:
		return hintReplay
	case w.g.Mode() == game.Title:
		return hintTitle
	case w.g.Mode() == game.Paused || w.ctl.Paused:
		return hintPaused
	case w.g.Recording():
		return hintRecord
	}
	return hintPlay
}

// status is the window's status line, shown at the top right whether or
// not the overlay is: a replay's step and verdict, a recording's marker.
func (w *window) status() string {
	if s := w.replayStatus(); s != "" {
		return s
	}
	if w.g.Recording() {
		return fmt.Sprintf("REC step %d into %s (R rewind and F9 load are off while recording)", w.g.Engine().Time().Step, w.o.record)
	}
	return ""
}

// say puts msg on the screen for a few seconds (the overlay's message
// band, shown or hidden) and in the log: a key refused and why, a file
// saved.
func (w *window) say(msg string) { w.ov.Say(msg) }

// The title card's lines, and their scales over the debug font.
var titleLines = []struct {
	text  string
	scale float64
}{
	{"WEFT", 8},
	{"an entity-component-system on a work-stealing job pool", 2},
	{"press Enter to play", 3},
	{"H: the keys   O: the profiler on / off   Esc: quit", 2},
}

// drawTitle draws the title card, on a dark band, over the world's
// middle (right of the overlay's left column while it is shown) while
// the game is on its title screen; the world runs behind it. Executed
// only by Draw.
func (w *window) drawTitle(screen *ebiten.Image) {
	if w.rp != nil || w.g.Mode() != game.Title {
		return
	}
	if w.title == nil {
		w.title = make([]*ebiten.Image, len(titleLines))
		for i, l := range titleLines {
			img := ebiten.NewImage(len(l.text)*glyphW, glyphH)
			ebitenutil.DebugPrint(img, l.text)
			w.title[i] = img
		}
	}
	b := screen.Bounds()
	x0 := b.Min.X
	if w.ov.Visible() {
		x0 += overlayLeftW
	}
	cx := float64(x0+b.Max.X) / 2
	total, widest := 0.0, 0.0
	for _, l := range titleLines {
		total += l.scale * (glyphH + 4)
		widest = max(widest, float64(len(l.text)*glyphW)*l.scale)
	}
	y := (float64(b.Dy()) - total) / 2
	const pad = 24
	band := image.Rect(int(cx-widest/2-pad), int(y-pad), int(cx+widest/2+pad), int(y+total+pad))
	vector.FillRect(screen, float32(band.Min.X), float32(band.Min.Y), float32(band.Dx()), float32(band.Dy()), color.RGBA{A: 0xa8}, false)
	for i, l := range titleLines {
		var op ebiten.DrawImageOptions
		op.GeoM.Scale(l.scale, l.scale)
		op.GeoM.Translate(cx-float64(len(l.text)*glyphW)*l.scale/2, y)
		screen.DrawImage(w.title[i], &op)
		y += l.scale * (glyphH + 4)
	}
}

// overlayLeftW is the width of the overlay's left column on the demo's
// screen.
const overlayLeftW = 432

// The debug font's glyph, in pixels.
const glyphW, glyphH = 6, 16
