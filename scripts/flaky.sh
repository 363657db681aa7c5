#!/usr/bin/env bash
# flaky.sh [PKG...] — every root-module package's tests five times in a row
# on one CPU (taskset -c 0), where a test that leans on scheduling luck (a
# worker having run something, a timing, an order of goroutines) fails.
# Only the test binary is pinned (go test -exec): compiling uses every CPU.
# Prints one line per package, ok or FAIL with its seconds, the failures'
# output after them, and exits 1 if any failed. Without arguments: every
# package, systems last (the slowest).
set -euo pipefail
cd "$(dirname "$0")/.."

COUNT=${COUNT:-5}
XVFB=(xvfb-run -a -s "-screen 0 1280x800x24")

if [ $# -gt 0 ]; then
	mapfile -t pkgs < <(go list "$@")
else
	mapfile -t pkgs < <({ bash scripts/pkgs.sh headless; bash scripts/pkgs.sh ebiten; } |
		awk '/\/systems$/ { last = $0; next } { print } END { if (last) print last }')
fi
ebiten=" $(bash scripts/pkgs.sh ebiten | tr '\n' ' ') "

# rounds PKG runs PKG's tests COUNT times on CPU 0. Ebiten allows one
# RunGame per process, so a package importing it runs COUNT processes of
# one round each, under xvfb-run; any other package one process of COUNT.
rounds() {
	if [[ $ebiten == *" $1 "* ]]; then
		for ((i = 0; i < COUNT; i++)); do
			"${XVFB[@]}" go test -exec "taskset -c 0" -count=1 -timeout 60m "$1" || return
		done
	else
		go test -exec "taskset -c 0" -count="$COUNT" -timeout 60m "$1"
	fi
}

log=$(mktemp)
trap 'rm -f "$log"' EXIT
failed=()
for p in "${pkgs[@]}"; do
	start=$SECONDS
	if rounds "$p" >"$log" 2>&1; then
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
