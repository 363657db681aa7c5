#!/usr/bin/env bash
# deps.sh PKG... — apt-get install the Debian packages that are not installed.
# Does nothing (no apt-get at all) when every package is already there.
set -euo pipefail

missing=()
for p in "$@"; do
	# dpkg -s also knows removed-but-not-purged packages: read the status.
	status=$(dpkg -s "$p" 2>/dev/null) || status=
	grep -qx 'Status: install ok installed' <<<"$status" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if ! command -v apt-get >/dev/null; then
	echo "deps: missing ${missing[*]}, and there is no apt-get here; install them yourself" >&2
	exit 1
fi
sudo=()
[ "$(id -u)" -ne 0 ] && sudo=(sudo)
echo "deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -q
"${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
