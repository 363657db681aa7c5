#!/usr/bin/env bash
# make bench-ecs: go-ecs-benchmarks' workloads, weft beside the suite's
# candidates, each (workload, candidate, N) its own process over ROUNDS
# shuffled rounds (bench/cmd/benchrun), after TestSameWork. Run from bench/:
#
#	bash ecsbench/bench.sh RESULTS ROUNDS PROCS BENCHTIME BENCHTIME_LARGE
#
# Three runs, each its own file in RESULTS, so that one that is cut short
# leaves the others: ecs-suite-16k-256k.txt (N = 16,000, every candidate;
# 256,000 without Donburi, ggecs and uot, whose set-up of query2comp's
# 11,000,000 entities at 1M takes them 20 s to 3 min a process),
# ecs-suite-1m.txt (N = 1,000,000: Ark, Arche, Volt, and weft but its serial
# run with checks) and ecs-suite-1k.txt (N = 1,024 and new_world, every
# candidate). N = 256,000 and 1M run at their own -benchtime (300ms): at
# 20ms most of their processes ran one to three ops, whose cold first pass
# over a fresh world (a GC of the set-up's heap, first touches) then made
# the figure. ecstable prints
# the tables from the three. The patterns say
# N.16000 for N=16000: benchrun cuts a -bench value at its first '='.
set -euo pipefail
results=${1:?results folder} rounds=${2:-9} procs=${3:-2} bt=${4:-20ms} large=${5:-300ms}
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
mkdir -p "$results"
go test -count=1 -run 'SameWork|LookupsCounted' ./ecsbench
go test -c -o "$d/ecs.test" ./ecsbench
go build -o "$d/benchrun" ./cmd/benchrun
run() { # file, then -bench values (regexp=benchtime)
	local out=$1
	shift
	local args=()
	for b in "$@"; do args+=(-bench "$b"); done
	"$d/benchrun" -bin "$d/ecs.test" -rounds "$rounds" -procs "$procs" -o "$results/$out" "${args[@]}"
}
run ecs-suite-16k-256k.txt "^BenchmarkSuite\$/.*/.*/^N.16000\$=$bt" "^BenchmarkSuite\$/./^(Ark|Arche|Volt|weft)/^N.256000\$=$large"
run ecs-suite-1m.txt "^BenchmarkSuite\$/./^(Ark|Arche|Volt|weft\$|weft_\\(no_checks\\)|weft_\\(serial,_no_checks\\))/^N.1000000\$=$large"
run ecs-suite-1k.txt "^BenchmarkSuite\$/.*/.*/^N.1024\$=$bt" "^BenchmarkSuite\$/^new_world\$=$bt"
cat "$results"/ecs-suite-{16k-256k,1m,1k}.txt | go run ./ecsbench/cmd/ecstable
