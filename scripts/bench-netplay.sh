#!/usr/bin/env bash
# bench-netplay.sh [ROUNDS] [OUT] — netplay's figures (docs/PERFORMANCE.md,
# "Netplay"): a rollback of 8 steps of the demo's scene at 2,000 bodies on
# the default workers, and a step with and without the snapshot kept
# after it, each round its own process (go test -count 1), ROUNDS rounds
# (default 9); the raw output goes to OUT (default
# bench/results/<machine>/netplay.txt), and the median of each benchmark's
# ns/op is printed.
set -euo pipefail
rounds=${1:-9}
machine=amd-epyc
grep -qi xeon /proc/cpuinfo && machine=intel-xeon
out=${2:-bench/results/$machine/netplay.txt}
mkdir -p "$(dirname "$out")"
: >"$out"
for i in $(seq "$rounds"); do
	echo "== round $i" >>"$out"
	go test -count 1 -run '^$' -bench Netplay -benchtime 100x ./demo/internal/game/ >>"$out"
done
for name in $(awk '/^BenchmarkNetplay/ { print $1 }' "$out" | sort -u); do
	awk -v n="$name" '$1 == n { print $3 }' "$out" | sort -n |
		awk -v n="$name" '{ v[NR] = $1 } END { printf "%s median %.2f ms (%d rounds, min %.2f, max %.2f)\n", n, v[int((NR+1)/2)] / 1e6, NR, v[1] / 1e6, v[NR] / 1e6 }'
done
