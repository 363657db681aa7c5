#!/usr/bin/env bash
# contention.sh [ROUNDS] [FRAMES]: the headless step with 0 workers (the
# serial executor) against 1 worker + the owner, at 20,000 and 50,000
# entities, while a CPU hog spins on core 1 (started and stopped here).
# Each round runs every configuration once, as its own process, in an order
# that alternates per round; the table gives the median step p50 with the
# min–max over rounds, and 1 worker's median ÷ serial's (goal ≤ 1.05).
# HOG=0 runs the same without the hog.
set -euo pipefail
rounds=${1:-5}
frames=${2:-300}
hog=${HOG:-1}
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
hogpid=
cleanup() {
	[ -n "$hogpid" ] && kill "$hogpid" 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT
(cd "$root" && go build -o "$tmp/headless" ./demo/headless)
if [ "$hog" = 1 ]; then
	taskset -c 1 sh -c 'while :; do :; done' &
	hogpid=$!
fi
echo "machine: $(hostname), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
echo "hog on core 1: $([ "$hog" = 1 ] && echo yes || echo no); $rounds rounds of $frames steps; GOMAXPROCS=2"
configs=("20000 0" "20000 1" "50000 0" "50000 1")
for r in $(seq 1 "$rounds"); do
	order=("${configs[@]}")
	if [ $((r % 2)) = 0 ]; then # alternate: workers 1 first on even rounds
		order=("20000 1" "20000 0" "50000 1" "50000 0")
	fi
	for c in "${order[@]}"; do
		read -r n w <<<"$c"
		p50=$(GOMAXPROCS=2 "$tmp/headless" -frames "$frames" -entities "$n" -workers "$w" -json | jq '.step_ms.p50')
		echo "$n $w $p50" >>"$tmp/samples"
		echo "round $r: entities $n workers $w step p50 $p50 ms" >&2
	done
done
python3 - "$tmp/samples" <<'PY'
import statistics, sys
s = {}
for line in open(sys.argv[1]):
    n, w, v = line.split()
    s.setdefault((int(n), int(w)), []).append(float(v))
print("| entities | workers | step p50 ms, median | min–max | ÷ serial |")
print("|---|---|---|---|---|")
for n in sorted({k[0] for k in s}):
    base = statistics.median(s[(n, 0)])
    for w in (0, 1):
        v = s[(n, w)]
        m = statistics.median(v)
        print(f"| {n} | {w} | {m:.3f} | {min(v):.3f}–{max(v):.3f} | {m/base:.2f} |")
PY
