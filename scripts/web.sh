#!/usr/bin/env bash
# web.sh build | serve [addr] — weft's games in the browser: build compiles
# the demo, examples/fireworks and examples/bounce with GOOS=js GOARCH=wasm
# (Ebiten's own WebAssembly support) into artifacts/web/, with Go's
# wasm_exec.js; serve builds, then serves them and the page (demo/web) on
# localhost (default 127.0.0.1:8080) until stopped.
set -euo pipefail
cd "$(dirname "$0")/.."
out=artifacts/web
build() {
	mkdir -p "$out"
	cp "$(go env GOROOT)/lib/wasm/wasm_exec.js" "$out/"
	for p in demo examples/fireworks examples/bounce; do
		GOOS=js GOARCH=wasm go build -o "$out/$(basename "$p").wasm" "./$p"
	done
	echo "web: built $out/{demo,fireworks,bounce}.wasm and wasm_exec.js"
}
case "${1:-}" in
build) build ;;
serve)
	build
	exec go run ./demo/web -dir "$out" -addr "${2:-127.0.0.1:8080}"
	;;
*)
	echo "usage: web.sh build | serve [addr]" >&2
	exit 2
	;;
esac
