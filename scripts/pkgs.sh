#!/usr/bin/env bash
# pkgs.sh headless|ebiten — the root module's packages that do not (headless)
# or do (ebiten) depend on Ebiten, one per line. Ebiten panics at init without
# a display, so the two sets are tested differently.
set -euo pipefail

want=${1:?usage: pkgs.sh headless|ebiten}
list=$(go list -f '{{.ImportPath}} {{join .Deps " "}}' ./...)
awk -v want="$want" '
	{
		e = "headless"
		for (i = 2; i <= NF; i++)
			if ($i ~ /^github\.com\/hajimehoshi\/ebiten(\/|$)/) { e = "ebiten"; break }
		if (e == want) print $1
	}' <<<"$list"
