#!/usr/bin/env bash
# deps.sh PKG... — apt-get install the Debian packages that are not installed.
# Does nothing (no apt-get at all) when every package is already there.
# apt's output goes to a log ($WEFT_DEPS_LOG, default in the temporary
# folder): one line says what was installed, and only a failure prints the
# log's tail.
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
log=${WEFT_DEPS_LOG:-${TMPDIR:-/tmp}/weft-deps.log}
export DEBIAN_FRONTEND=noninteractive
start=$SECONDS
if ! { "${sudo[@]}" apt-get update -q && "${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"; } >"$log" 2>&1; then
	echo "deps: apt-get failed installing ${missing[*]}; the end of $log:" >&2
	tail -n 40 "$log" >&2
	exit 1
fi
echo "deps: installed ${missing[*]} in $((SECONDS - start)) s (apt's output: $log)"
