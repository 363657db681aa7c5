#!/usr/bin/env bash
# funclen.sh [MAX] DIR... — list functions longer than MAX lines (default 60),
# from "func" to its closing brace, in the non-test, non-generated Go files of
# each DIR (not recursive). Relies on gofmt's layout: a top-level func starts
# with "func " and ends with "}" in column one. Exits 1 when any is found.
set -euo pipefail

max=60
if [[ ${1:-} =~ ^[0-9]+$ ]]; then max=$1; shift; fi
shopt -s nullglob
files=()
for d in "$@"; do
	for f in "${d%/}"/*.go; do
		[[ $f == *_test.go || $f == *_gen.go ]] && continue
		head -c 4096 "$f" | grep -q '^// Code generated .* DO NOT EDIT\.$' && continue
		files+=("$f")
	done
done
[ ${#files[@]} -eq 0 ] && exit 0
awk -v max="$max" '
	FNR == 1 { name = "" }
	/^func / { name = $0; start = FNR }
	/^}/ && name != "" {
		n = FNR - start + 1
		if (n > max) { printf "%s:%d: %d lines: %s\n", FILENAME, start, n, name; bad = 1 }
		name = ""
	}
	END { exit bad }
' "${files[@]}"
