#!/usr/bin/env bash
# screenshots.sh — every screenshot of the README, into docs/img/, each under
# Xvfb: the demo playing, on its title screen, frozen on a spike (-budget),
# and the two example games. The overlay leaves the display's rates out
# (WEFT_OVERLAY_NORATES=1): Xvfb renders in software, and its frame rate is
# not the game's. Then it records the demo's systems and keys beside the
# pictures (docs/img/screenshots.txt), which demo's TestScreenshotsCurrent
# compares with the demo's: take the pictures again when it fails.
set -euo pipefail
cd "$(dirname "$0")/.."
export WEFT_OVERLAY_NORATES=1
x=(xvfb-run -a -s "-screen 0 1280x800x24")
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
for p in demo examples/bounce examples/fireworks; do
	go build -o "$bin/$(basename "$p")" "./$p"
done
"${x[@]}" "$bin/demo" -steps 450 -screenshot docs/img/screenshot.png
"${x[@]}" "$bin/demo" -steps 240 -title -screenshot docs/img/screenshot-title.png
"${x[@]}" "$bin/demo" -steps 240 -budget 8ms -screenshot docs/img/screenshot-budget.png
"${x[@]}" "$bin/bounce" -steps 240 -screenshot docs/img/screenshot-bounce.png
"${x[@]}" "$bin/fireworks" -steps 300 -screenshot docs/img/screenshot-fireworks.png
WEFT_UPDATE_SCREENSHOTS=1 "${x[@]}" go test -count=1 -run '^TestScreenshotsCurrent$' ./demo
echo "screenshots: docs/img/screenshot*.png and docs/img/screenshots.txt"
