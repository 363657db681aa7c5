// Package display stops the demo with a one-line hint when there is no
// display to open a window on. Ebiten's GLFW panics in a package init
// without one, before main runs, so the check is a package init too: Go
// initialises, in import path order, each package whose imports are
// initialised, and this one imports only os, so it is ready long before
// Ebiten's internal/ui, which needs dozens. The demo's TestNoDisplayHint
// checks it on the built binary.
package display

import "os"

// Hint is what the demo prints, on one line, when there is no display.
const Hint = "demo: no display ($DISPLAY and $WAYLAND_DISPLAY are empty): run go run ./demo/headless for the timings, or xvfb-run -a go run ./demo for a virtual one\n"

// Missing reports whether getenv finds no display for a window.
func Missing(getenv func(string) string) bool {
	return getenv("DISPLAY") == "" && getenv("WAYLAND_DISPLAY") == ""
}

func init() {
	if Missing(os.Getenv) {
		os.Stderr.WriteString(Hint)
		os.Exit(2)
	}
}
