#!/usr/bin/env bash
# fuzz.sh FUZZTIME — run every Fuzz target of the root module's headless
# packages, one at a time (go test -fuzz takes one target in one package).
# Packages importing Ebiten are skipped: they panic at init without a display.
# The targets: jobs FuzzGraph, ecs FuzzCommands, replay FuzzRead (the replay
# file reader: any bytes give a recording or WEFT-R001/R002, never a panic).
set -euo pipefail

fuzztime=${1:?usage: fuzz.sh FUZZTIME}
found=0
for pkg in $(bash scripts/pkgs.sh headless); do
	list=$(go test -list '^Fuzz' "$pkg")
	for name in $(grep '^Fuzz' <<<"$list" || true); do
		found=1
		echo "== $pkg $name ($fuzztime)"
		go test -run XXX -fuzz "^${name}\$" -fuzztime "$fuzztime" "$pkg"
	done
done
[ "$found" -eq 1 ] || echo "fuzz: no Fuzz targets yet"
