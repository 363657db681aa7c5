#!/usr/bin/env bash
# fuzz.sh FUZZTIME — run every Fuzz target of the root module's headless
# packages for FUZZTIME each, one at a time (go test -fuzz takes one target
# in one package), from its committed corpus (the package's
# testdata/fuzz/<Target>/) and the seeds in its code. It goes on after a
# failing target and exits 1 at the end, naming each one that failed; the
# input that failed is written to testdata/fuzz/<Target>/ (commit it with
# the fix, as a regression test of plain go test).
#
# Targets are found, not listed here: a package's test files with a
# `func Fuzz` are asked for their targets (go test -list). Packages
# importing Ebiten are skipped: they panic at init without a display.
# Today: jobs FuzzGraph (the job graph) and FuzzPlanSerialOrder (a graph
# built once), ecs FuzzCommands (playback against
# a model) and FuzzLoad (save files), replay FuzzRead (replay files),
# profile FuzzReadReport (captures given to headless -compare),
# internal/interact FuzzScene (the interaction scene's seed), netplay
# FuzzReader (packets as they arrive from the network).
#
# FUZZPARALLEL (default 2) is go test's -parallel, the fuzzing processes;
# FUZZMINIMIZE (default 5s) bounds the time spent shrinking each new input,
# which otherwise takes up to a minute of a short run.
set -euo pipefail

fuzztime=${1:?usage: fuzz.sh FUZZTIME}

# deadline_only says whether a failed run's output ($1) is only Go 1.26's
# coordinator race at the end of a duration -fuzztime (go.dev/issue/75804):
# the target's one failure line is "context deadline exceeded" and no
# failing input was written. A crash, a failed check or a hung worker
# writes an input and fails the run as before.
deadline_only() {
	grep -q '^    context deadline exceeded$' "$1" && ! grep -q 'Failing input written to' "$1" &&
		[ "$(grep -c '^--- FAIL' "$1")" -eq 1 ] && ! grep -q '^panic:\|^fatal error:' "$1"
}
parallel=${FUZZPARALLEL:-2}
minimize=${FUZZMINIMIZE:-5s}
found=0
failed=()
pkgs=$(bash scripts/pkgs.sh headless)
while IFS=$'\t' read -r pkg dir; do
	grep -qs '^func Fuzz' "$dir"/*_test.go || continue
	if ! list=$(go test -list '^Fuzz' "$pkg" </dev/null); then
		failed+=("$pkg (its tests do not build)")
		continue
	fi
	for name in $(grep '^Fuzz' <<<"$list" || true); do
		found=$((found + 1))
		echo "== fuzz: $pkg $name ($fuzztime, -parallel $parallel)"
		out=$(mktemp)
		crashes=$(mktemp -d)
		if ! WEFT_FUZZ_CRASH_DIR=$crashes go test -run '^$' -fuzz "^${name}\$" -fuzztime "$fuzztime" \
			-fuzzminimizetime "$minimize" -parallel "$parallel" "$pkg" </dev/null 2>&1 | tee "$out"; then
			# A worker's own output is discarded by go test; what a target
			# kept with internal/fuzzcrash is printed here.
			for c in "$crashes"/*; do
				if [ -s "$c" ]; then
					echo "fuzz: what a fuzzing process of $name printed as it died ($c):"
					cat "$c"
				fi
			done
			if deadline_only "$out"; then
				echo "fuzz: $name stopped with Go's own 'context deadline exceeded' at the end of -fuzztime and no failing input (go.dev/issue/75804, fixed in Go 1.27): not a failure of the target"
			else
				failed+=("$pkg $name")
			fi
		fi
		rm -rf "$out" "$crashes"
	done
done < <(go list -f '{{.ImportPath}}{{"\t"}}{{.Dir}}' $pkgs)
if [ "$found" -eq 0 ]; then
	echo "fuzz: no Fuzz targets found" >&2
	exit 1
fi
if [ "${#failed[@]}" -gt 0 ]; then
	echo "fuzz: ${#failed[@]} of $found targets failed (the failing input is in the package's testdata/fuzz/):" >&2
	printf '  %s\n' "${failed[@]}" >&2
	exit 1
fi
echo "fuzz: $found targets, $fuzztime each, no failure"
