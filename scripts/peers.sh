#!/usr/bin/env bash
# peers.sh [ROUNDS]: bench/'s W1–W4 for weft, the Go peers and two C++ task
# schedulers, enkiTS (commit 771a0876) and Taskflow (v4.1.0), in the same
# shuffled rounds, every configuration its own process (bench/cmd/benchrun
# with one -bin per program), then one table (bench/cmd/benchtable). Raw
# output goes to OUT: make bench-peers passes bench/results/<machine>/peers.txt;
# alone, the script writes bench/peers.txt.
#
# The C++ side is bench/cpp/peers.cpp, the same workload definitions as
# bench/workloads_test.go, built with g++ -O2 -fno-tree-vectorize (scalar
# loops, like Go's; its kernels are noinline, so that no serial loop runs
# several jobs' work at once in vector registers; the script refuses a
# build whose kernels hold packed SIMD instructions) against the peers'
# sources, which are never committed here; its rows are named enkiTS.cpp
# and taskflow.cpp, and their ratios are taken against serial.cpp, the same
# kernels in plain C++ loops, not against Go's serial.
# The sources are taken, in this order, from:
#   PEERS_SRC=dir     a directory holding enkiTS/ and taskflow/ source trees
#   PEERS_MIRROR=dir  git directories dir/dougbinks+enkiTS/repo and
#                     dir/taskflow+taskflow/repo (default /work/.mirror),
#                     archived at the pinned commits into a temporary dir
#   git clone         from github.com, when the network allows
# and the script skips the run (exit 0) with a message saying so when none
# works, or when g++ is missing.
# ROUNDS (default 9), PROCS (default 2), W1TIME and BENCHTIME as make bench;
# WORKLOADS (default 1234) the digits of the workloads to run: WORKLOADS=3
# OUT=peers-w3.txt runs W3 alone into bench/peers-w3.txt (a relative OUT is
# taken from bench/; make bench-peers puts it under bench/results/<machine>/).
set -euo pipefail
rounds=${1:-${ROUNDS:-9}}
procs=${PROCS:-2}
w1time=${W1TIME:-1000000x}
benchtime=${BENCHTIME:-100x}
workloads=${WORKLOADS:-1234}
if [[ ! $workloads =~ ^[1-4]+$ ]]; then
	echo "peers.sh: WORKLOADS=$workloads: give the digits of W1-W4 to run, such as 1234 or 3" >&2
	exit 2
fi
benches=()
if [[ $workloads == *1* ]]; then
	benches+=(-bench "^BenchmarkW1=$w1time")
fi
if [ -n "${workloads//1/}" ]; then
	benches+=(-bench "^BenchmarkW[${workloads//1/}]=$benchtime")
fi
enki_rev=771a0876
tf_rev=v4.1.0
root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$root/bench/peers.txt}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# source NAME REPO REV: prints a directory holding NAME's tree at REV.
source_of() {
	local name=$1 repo=$2 rev=$3 mirror=${PEERS_MIRROR:-/work/.mirror}
	if [ -n "${PEERS_SRC:-}" ]; then
		[ -d "$PEERS_SRC/$name" ] || { echo "peers.sh: PEERS_SRC=$PEERS_SRC has no $name/" >&2; return 1; }
		echo "$PEERS_SRC/$name"
		return
	fi
	mkdir -p "$tmp/src/$name"
	local gd="$mirror/${repo/\//+}/repo"
	if [ -d "$gd" ] && git --git-dir="$gd" archive "$rev" | tar -x -C "$tmp/src/$name"; then
		echo "$tmp/src/$name"
		return
	fi
	if GIT_TERMINAL_PROMPT=0 git clone -q "https://github.com/$repo" "$tmp/clone-$name" 2>/dev/null &&
		git -C "$tmp/clone-$name" archive "$rev" | tar -x -C "$tmp/src/$name"; then
		echo "$tmp/src/$name"
		return
	fi
	echo "peers.sh: skipped: no $name sources at $rev: not in PEERS_SRC, not in $gd, and github.com/$repo could not be cloned. Set PEERS_SRC=dir with $name/ in it (or PEERS_MIRROR); make bench runs the Go side alone." >&2
	return 1
}

command -v g++ >/dev/null || { echo "peers.sh: skipped: g++ is not installed (make bench runs the Go side alone)" >&2; exit 0; }
enki=$(source_of enkiTS dougbinks/enkiTS "$enki_rev") || exit 0
tf=$(source_of taskflow taskflow/taskflow "$tf_rev") || exit 0
echo "building the C++ peers (enkiTS $enki_rev, Taskflow $tf_rev) ..." >&2
cxx=(g++ -std=c++20 -O2 -fno-tree-vectorize -pthread)
"${cxx[@]}" -DPEER_SERIAL "$root/bench/cpp/peers.cpp" -o "$tmp/serial"
"${cxx[@]}" -DPEER_ENKITS -I"$enki/src" "$root/bench/cpp/peers.cpp" "$enki/src/TaskScheduler.cpp" -o "$tmp/enkits"
"${cxx[@]}" -DPEER_TASKFLOW -I"$tf" "$root/bench/cpp/peers.cpp" -o "$tmp/taskflow"
# The kernels (scale, spin, fibSerial) must be functions of their own
# (not inlined into a loop) of scalar code, one job's work at a time:
# packed SIMD would make serial.cpp's loops do less than the work (see
# bench/cpp/peers.cpp).
if command -v objdump >/dev/null; then
	for b in serial enkits taskflow; do
		asm=$(objdump -d --no-show-raw-insn "$tmp/$b" | awk '/^[0-9a-f]+ <_ZL(5scalePfi|4spinm|9fibSeriali)>:/{n++; p=1; next} /^$/{p=0} p; END{print "kernels:", n}')
		if ! grep -q '^kernels: 3$' <<<"$asm" || grep -Eq '\b(p(sll|srl|xor|add|mul)[a-z]*|[a-z]+p[sd]) ' <<<"$asm"; then
			echo "peers.sh: $b's kernels are inlined or hold packed SIMD instructions: the serial loops would do less than the work" >&2
			exit 1
		fi
	done
fi
cd "$root/bench"
go test -c -o "$tmp/bench.test" .
go run ./cmd/benchrun -bin "$tmp/bench.test" -bin "$tmp/serial" -bin "$tmp/enkits" -bin "$tmp/taskflow" \
	-rounds "$rounds" -procs "$procs" -o "$out" "${benches[@]}"
go run ./cmd/benchtable <"$out"
