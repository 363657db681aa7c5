// Package bench compares the weft job pool (github.com/weft-engine/weft/jobs)
// with a plain serial loop and with the usual ways of running tasks in Go:
// a goroutine per job, a fixed pool fed through a channel, errgroup with a
// limit, and an ants pool; and with pinned, no scheduler at all: W2's pass
// and W3's middle jobs shared in guided grains from one counter between
// threads each locked to a CPU of its own
// (internal/pin: runtime.LockOSThread and sched_setaffinity) and spinning
// there between ops. pinned is not a peer but the machine's ceiling in the
// same run: what its cores give work that is only divided (it skips W1 and
// W4, which are not a division of one pass).
//
// It is a separate module so that the peer libraries (golang.org/x/sync,
// github.com/panjf2000/ants/v2) never enter weft's own go.mod.
//
// Workloads, one benchmark each; sub-benchmarks are named <Workload>/<impl>
// with impl one of weft, serial, pinned, goroutines, chanpool, errgroup,
// ants, then the variant:
//
//	W1 BenchmarkW1EmptyJobs             one op = one empty job (ns/op is ns per job)
//	W2 BenchmarkW2ParallelFor/*/chunk=c  one op = one pass over 4,000,000 float32
//	W3 BenchmarkW3WideDAG/*/form=f       one op = root, 1,000 jobs of about 2 µs, join
//	W4 BenchmarkW4Fib/*/fork=f           one op = fork-join fib(30), serial below n=16
//
// A scheduler runs W3 in two forms: form=1000jobs, a job per middle job,
// and form=1range, the middle jobs as one range (weft's ParallelFor; the
// Go executors have none, so they skip it). weft adds form=1000jobs-plan,
// form=1000jobs's graph built once as a jobs.Plan and run every op, as the
// C++ peers run theirs. W4 forks in two forms:
// fork=2 schedules both children and waits for both, fork=1+inline
// schedules one, where others may steal it, and computes the other itself
// (weft's Ctx.Fork). serial and pinned have one form, named by the impl
// alone, and benchtable takes every form's ratio against it.
//
// Run, for example:
//
//	go test -run XXX -bench W1 -benchmem -benchtime=1000000x -count=5 > w1.txt
//	go test -run XXX -bench 'W[234]' -benchmem -count=5 > w234.txt
//	cat w1.txt w234.txt | go run ./cmd/benchtable
//
// weft's rows add the pool's own counters per op (workerjobs/op: jobs the
// workers ran, the owner ran the rest; steals/op: jobs stolen;
// stealtries/op: steal attempts, each taking one job or, from a long deque,
// a batch; parks/op, wakes/op), so that a slow process shows why;
// cmd/gstates reads a runtime trace of one. cmd/corecheck tells whether
// the machine's two cores are whole cores at the moment, and how much a
// second thread can gain on W2's pass (see docs/PERFORMANCE.md, "The
// machines' own speed"); cmd/stallcheck how much time the machine takes
// from each CPU in stalls ("Stalls: what the machine takes from each CPU").
//
// bench/cpp/peers.cpp has the same four workloads for the C++ schedulers
// enkiTS and Taskflow; scripts/peers.sh (make bench-peers) builds it and
// runs it in the same rounds as this package's binary.
//
// The sources are test files; this file only documents the package.
package bench
