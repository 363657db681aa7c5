package bench

import "runtime"

// Workload parameters and the sequential pieces of work the implementations
// distribute. Every implementation calls these same functions, so results are
// comparable bit for bit (see TestResults).

const (
	// w1Batch is how many W1 jobs are scheduled before each wait (and, for
	// weft, each Reset). A run of b.N jobs is b.N/w1Batch full batches and
	// one smaller one.
	w1Batch = 4096

	// w2Len is the length of the W2 array.
	w2Len = 4_000_000

	// w3Width is the number of middle jobs of the W3 graph.
	w3Width = 1000
	// w3Iters is the xorshift rounds of one middle job, about 2 µs on the
	// reference machine (AMD EPYC, Go 1.26: 1000 rounds take 1.4 µs).
	w3Iters = 1450

	// w4N is the W4 argument and w4Want its expected result, fib(30).
	w4N    = 30
	w4Want = 832040
	// fibCutoff: calls with n >= fibCutoff fork two child jobs, smaller
	// ones recurse serially.
	fibCutoff = 16
)

// w2Chunks are the W2 chunk sizes (items per job).
var w2Chunks = []int{1024, 16384}

// workers is the size of every pool: GOMAXPROCS.
func workers() int { return runtime.GOMAXPROCS(0) }

// emptyJob is the W1 job. It is a variable so that calls through it cannot
// be inlined away by the serial loop.
var emptyJob = func() {}

// vector is the W2 data. The weft rows pass a *vector as Job.Data, which is
// pointer-shaped and so does not allocate.
type vector struct{ x []float32 }

// newVector returns a vector of n deterministic values.
func newVector(n int) *vector {
	v := &vector{x: make([]float32, n)}
	for i := range v.x {
		v.x[i] = float32(i%1000) / 1000
	}
	return v
}

// scale is the W2 kernel, applied to one chunk. It is kept out of line
// so that every implementation runs the one copy of its loop: inlined, a
// copy's speed follows where the linker happens to place it (its
// alignment), and two copies of this memory-bound loop in one binary were
// measured 1.5x apart, the slower copy swapping between implementations
// from one build to the next.
//
//go:noinline
func scale(x []float32) {
	for i := range x {
		x[i] = x[i]*1.0001 + 0.5
	}
}

// dag is the state of one W3 graph: the root writes seed, middle job i reads
// it and writes slots[i], the join sums the slots into sum. A job run before
// its dependencies reads zeros and changes sum, which TestResults checks.
type dag struct {
	seed  uint64
	slots [w3Width]uint64
	sum   uint64
}

func (d *dag) root() { d.seed = 0x9E3779B97F4A7C15 }

func (d *dag) mid(i int) { d.slots[i] = spin(d.seed + uint64(i)) }

func (d *dag) join() {
	var s uint64
	for _, v := range d.slots {
		s += v
	}
	d.sum = s
}

// spin is the W3 middle job's arithmetic: w3Iters rounds of xorshift64;
// out of line, as scale is, so that every implementation runs one copy.
//
//go:noinline
func spin(seed uint64) uint64 {
	x := seed | 1
	for range w3Iters {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
	}
	return x
}

// fibSerial is plain recursive Fibonacci: the W4 leaves and the serial row.
func fibSerial(n int) int64 {
	if n < 2 {
		return int64(n)
	}
	return fibSerial(n-1) + fibSerial(n-2)
}
