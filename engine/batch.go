package engine

import (
	"math"
	"math/bits"
	"time"
)

// Adaptive batch size (Config.Batch 0). One batch serves every query of a
// step: chunk k of two queries over the same rows must be the same rows
// for chunk-wise chaining. After each step the tuner folds in what the
// step's chunk jobs cost per row, and picks the power of two that makes a
// chunk job about targetJob long. Between the chunk cost and the batch it
// keeps two dampers, so that the batch settles instead of oscillating:
// the cost is smoothed over steps, and the batch moves only when the ideal
// size is at least twice or half the current one. The batch changes only
// between steps (applySettings), and the world is the same for every batch.
const (
	targetJob   = 75 * time.Microsecond // long enough to hide a job's cost, short enough to balance
	startBatch  = 256                   // until the first step is measured
	minBatch    = 64
	maxBatch    = 1 << 16
	chunksPer   = 8   // at least this many chunks per participant (two at least) in the largest pass
	costSmooth  = 0.2 // weight of a new step's cost per row
	moveAtRatio = 2.0 // the ideal batch must be this far from the current one to move
)

// batchTuner is the adaptive batch size's state. Executed only by the owner.
type batchTuner struct {
	batch  int     // the batch the next step uses
	perRow float64 // smoothed ns per row of chunk jobs; 0 until measured
}

// next is the batch the next step uses.
func (t *batchTuner) next() int {
	if t.batch == 0 {
		t.batch = startBatch
	}
	return t.batch
}

// observe folds in one step: the summed time and rows of its chunk jobs,
// the rows of its largest pass, and the participants that ran it; then
// moves the batch if the ideal one is far enough away.
func (t *batchTuner) observe(work time.Duration, rows int64, maxRows, participants int) {
	t.next()
	if rows <= 0 || work <= 0 {
		return
	}
	c := float64(work) / float64(rows)
	if t.perRow == 0 {
		t.perRow = c
	} else {
		t.perRow += costSmooth * (c - t.perRow)
	}
	ideal := float64(targetJob) / t.perRow
	// Enough chunks for every participant to take some, several times. The
	// serial executor counts as two, so that it picks the batch one worker
	// would: its trace then predicts a 2-participant step from the same
	// chunks (a serial pass of 5 chunks splits 3:2), and switching to
	// parallel keeps the batch.
	limit := max(minBatch, floorPow2(maxRows/(chunksPer*max(participants, 2))))
	ideal = min(max(ideal, minBatch), float64(min(limit, maxBatch)))
	cur := float64(t.batch)
	if ideal >= cur*moveAtRatio || ideal <= cur/moveAtRatio || cur > float64(limit) {
		t.batch = min(roundPow2(ideal), limit, maxBatch)
	}
}

// floorPow2 is the largest power of two at most n (1 for n < 1).
func floorPow2(n int) int {
	if n < 1 {
		return 1
	}
	return 1 << (bits.Len(uint(n)) - 1)
}

// roundPow2 is the power of two nearest to x in log scale.
func roundPow2(x float64) int {
	return 1 << int(math.Round(math.Log2(x)))
}
