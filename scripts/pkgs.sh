#!/usr/bin/env bash
# pkgs.sh headless|ebiten|norace — the root module's packages, one per line:
# headless, those that do not depend on Ebiten; ebiten, those that do (Ebiten
# panics at init without a display, so the two sets are tested differently);
# norace, the headless ones with a norace_test.go, whose tests skip or
# shorten under -race (raceOn) and so also run without it.
set -euo pipefail

want=${1:?usage: pkgs.sh headless|ebiten|norace}
# Tab-separated: a folder may hold spaces.
list=$(go list -f '{{.ImportPath}}{{"\t"}}{{.Dir}}{{"\t"}}{{join .Deps " "}}' ./...)
awk -F '\t' -v want="$want" '
	{
		e = "headless"
		n = split($3, deps, " ")
		for (i = 1; i <= n; i++)
			if (deps[i] ~ /^github\.com\/hajimehoshi\/ebiten(\/|$)/) { e = "ebiten"; break }
		if (want == "norace" && e == "headless") {
			f = $2 "/norace_test.go"
			if ((getline junk < f) > 0) e = "norace"
			close(f)
		}
		if (e == want) print $1
	}' <<<"$list"
