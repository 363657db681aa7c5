#!/usr/bin/env bash
# contention.sh [ROUNDS] [FRAMES]: the headless step with 0 workers (the
# serial executor) against 1 worker + the owner, at 20,000 and 50,000
# entities (ENTITIES="..." to change), while a CPU hog spins on core 1
# (started and stopped here). Each round runs every configuration once, as
# its own process, in an order that alternates per round; the table gives
# the median step p50 with the min–max over rounds, and 1 worker's median ÷
# serial's (goal ≤ 1.05). The last column is the step the serial runs'
# trace analysis predicts for 2 participants (median of their p50s), beside
# the 1-worker rows it predicts.
# HOG=0 runs the same without the hog (for the prediction check:
# HOG=0 ENTITIES="20000 50000 100000").
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
for r in $(seq 1 "$rounds"); do
	for n in ${ENTITIES:-20000 50000}; do
		ws="0 1"
		if [ $((r % 2)) = 0 ]; then # alternate: 1 worker first on even rounds
			ws="1 0"
		fi
		for w in $ws; do
			GOMAXPROCS=2 "$tmp/headless" -frames "$frames" -entities "$n" -workers "$w" -json >"$tmp/out.json"
			read -r p50 pred2 < <(jq -r '[.step_ms.p50, (.prediction[] | select(.participants == 2) | .ms.p50)] | @tsv' "$tmp/out.json")
			echo "$n $w $p50 $pred2" >>"$tmp/samples"
			echo "round $r: entities $n workers $w step p50 $p50 ms, predicted for 2: $pred2 ms" >&2
		done
	done
done
python3 - "$tmp/samples" <<'PY'
import statistics, sys
s, pred = {}, {}
for line in open(sys.argv[1]):
    n, w, v, p2 = line.split()
    s.setdefault((int(n), int(w)), []).append(float(v))
    pred.setdefault((int(n), int(w)), []).append(float(p2))
print("| entities | workers | step p50 ms, median | min–max | ÷ serial | predicted for 2 from serial, ÷ measured |")
print("|---|---|---|---|---|---|")
for n in sorted({k[0] for k in s}):
    base = statistics.median(s[(n, 0)])
    for w in (0, 1):
        v = s[(n, w)]
        m = statistics.median(v)
        p = ""
        if w == 1:
            p2 = statistics.median(pred[(n, 0)])
            p = f"{p2:.3f} ms, {p2/m:.2f}"
        print(f"| {n} | {w} | {m:.3f} | {min(v):.3f}–{max(v):.3f} | {m/base:.2f} | {p} |")
PY
