// Package display tells the demo whether there is a display to open its
// window on. The demo asks after reading its flags, so that -h and a
// wrong flag are answered with or without one; without one it prints
// Hint and exits, where Ebiten would fail with "no window system". The
// demo's TestNoDisplay checks it on the built binary.
package display

import "runtime"

// Hint is what the demo prints, on one line, when there is no display.
const Hint = "demo: no display ($DISPLAY and $WAYLAND_DISPLAY are empty): run go run ./demo/headless for the timings, or xvfb-run -a go run ./demo for a virtual one\n"

// Missing reports whether getenv finds no display for a window; in a
// browser (GOOS js) the page is the display.
func Missing(getenv func(string) string) bool {
	return runtime.GOOS != "js" && getenv("DISPLAY") == "" && getenv("WAYLAND_DISPLAY") == ""
}
