#!/usr/bin/env bash
# flaky.sh [PKG...] — every root-module package's tests five times in a row
# on one CPU (taskset -c 0), where a test that leans on scheduling luck (a
# worker having run something, a timing, an order of goroutines) fails.
# Only the test binary is pinned (go test -exec): compiling uses every CPU.
# Ebiten packages run under xvfb-run. Prints one line per package, ok or
# FAIL with its seconds, the failures' output after them, and exits 1 if
# any failed. Without arguments: every package, systems last (the slowest).
set -euo pipefail
cd "$(dirname "$0")/.."

COUNT=${COUNT:-5}
XVFB=(xvfb-run -a -s "-screen 0 1280x800x24")

if [ $# -gt 0 ]; then
	pkgs=("$@")
else
	mapfile -t pkgs < <({ bash scripts/pkgs.sh headless; bash scripts/pkgs.sh ebiten; } |
		awk '/\/systems$/ { last = $0; next } { print } END { if (last) print last }')
fi
mapfile -t ebiten < <(bash scripts/pkgs.sh ebiten)

log=$(mktemp)
trap 'rm -f "$log"' EXIT
failed=()
for p in "${pkgs[@]}"; do
	run=()
	for e in "${ebiten[@]}"; do [[ $e == "$p" ]] && run=("${XVFB[@]}"); done
	start=$SECONDS
	if "${run[@]}" go test -exec "taskset -c 0" -count="$COUNT" -timeout 60m "$p" >"$log" 2>&1; then
		note=
		grep -q '\[no test files\]' "$log" && note=" (no test files)"
		printf 'ok   %-50s %4ds%s\n' "$p" $((SECONDS - start)) "$note"
	else
		printf 'FAIL %-50s %4ds\n' "$p" $((SECONDS - start))
		failed+=("$p")
		grep -v '^ok ' "$log" | tail -n 60 | sed 's/^/     /'
	fi
done
if [ ${#failed[@]} -gt 0 ]; then
	echo "flaky: ${#failed[@]} package(s) failed on one CPU: ${failed[*]}"
	exit 1
fi
