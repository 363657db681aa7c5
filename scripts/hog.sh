#!/usr/bin/env bash
# hog.sh CMD [ARGS...]: runs CMD while a CPU hog spins on core 1 (started
# and stopped here), as scripts/contention.sh does for the headless step:
# the machine then gives a pool's second participant only part of a core.
# make bench-w1-hog runs bench/'s W1 under it, weft against the Go peers.
set -euo pipefail
taskset -c 1 sh -c 'while :; do :; done' &
hog=$!
trap 'kill "$hog" 2>/dev/null || true' EXIT
echo "hog on core 1: pid $hog" >&2
"$@"
