#!/usr/bin/env bash
# demo-rates.sh [ROUNDS] [STEPS]: the demo window under Xvfb, serial
# (-workers 0) against 1 worker + the owner (-workers 1), at 20,000
# entities (ENTITIES="..." to change). Each round runs both as their own
# process, in an order that alternates per round; the table gives the
# median of each run's average TPS and FPS (Ebiten's ActualTPS/ActualFPS
# after the first second) with the min–max over rounds, and 1 worker's
# median ÷ serial's (issue 12: at least 1.0 for both). The renderer
# (Mesa's software rasteriser under Xvfb) shares the two cores with the
# simulation, so this is the contended case a player sees.
set -euo pipefail
rounds=${1:-9}
steps=${2:-600}
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$root" && go build -o "$tmp/demo" ./demo)
echo "machine: $(hostname), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
echo "demo under Xvfb; $rounds rounds of $steps steps; GOMAXPROCS=2"
for r in $(seq 1 "$rounds"); do
	for n in ${ENTITIES:-20000}; do
		ws="0 1"
		if [ $((r % 2)) = 0 ]; then # alternate: 1 worker first on even rounds
			ws="1 0"
		fi
		for w in $ws; do
			out=$(GOMAXPROCS=2 xvfb-run -a -s "-screen 0 1280x800x24" "$tmp/demo" -steps "$steps" -entities "$n" -workers "$w" 2>/dev/null)
			# "steps 600, entities 20000, ..., tps 59.9 (min 58.1), fps 34.2, wall 10.3 s"
			tps=$(sed -n 's/.*tps \([0-9.]*\) .*/\1/p' <<<"$out")
			fps=$(sed -n 's/.*fps \([0-9.]*\),.*/\1/p' <<<"$out")
			echo "$n $w $tps $fps" >>"$tmp/runs"
			echo "round $r: entities $n workers $w: tps $tps fps $fps" >&2
		done
	done
done
awk '
function median(a, n,    i, j, t) {
	for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j-1] > a[j]; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t }
	return n % 2 ? a[(n+1)/2] : (a[n/2] + a[n/2+1]) / 2
}
{ k = $1 " " $2; n[k]++; tps[k, n[k]] = $3; fps[k, n[k]] = $4; ents[$1] = 1 }
END {
	print "| entities | workers | TPS median (min–max) | FPS median (min–max) |"
	print "|---|---|---|---|"
	for (e in ents) for (w = 0; w <= 1; w++) {
		k = e " " w; m = n[k]; lo = 1e9; hi = 0; flo = 1e9; fhi = 0
		for (i = 1; i <= m; i++) {
			t[i] = tps[k, i]; f[i] = fps[k, i]
			if (t[i] < lo) lo = t[i]; if (t[i] > hi) hi = t[i]; if (f[i] < flo) flo = f[i]; if (f[i] > fhi) fhi = f[i]
		}
		mt[e, w] = median(t, m); mf[e, w] = median(f, m)
		printf "| %s | %d | %.1f (%.1f–%.1f) | %.1f (%.1f–%.1f) |\n", e, w, mt[e, w], lo, hi, mf[e, w], flo, fhi
	}
	for (e in ents) printf "entities %s: 1 worker ÷ serial, TPS %.3f, FPS %.3f\n", e, mt[e, 1] / mt[e, 0], mf[e, 1] / mf[e, 0]
}' "$tmp/runs"
