#!/usr/bin/env bash
# screenshots.sh — the README's screenshots, into docs/img/: the demo, the
# demo frozen on a spike (-budget), and examples/bounce, each under Xvfb.
set -euo pipefail
cd "$(dirname "$0")/.."
x=(xvfb-run -a -s "-screen 0 1280x800x24")
"${x[@]}" go run ./demo -steps 450 -workers 3 -screenshot docs/img/screenshot.png
"${x[@]}" go run ./demo -steps 240 -budget 30ms -workers 3 -screenshot docs/img/screenshot-budget.png
"${x[@]}" go run ./examples/bounce -steps 240 -screenshot docs/img/screenshot-bounce.png
