package engine

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// feed runs the tuner over steps whose chunk jobs cost perRow(step) ns a
// row, 100,000 rows on 2 participants, and returns the batch after each.
func feed(t *batchTuner, steps int, perRow func(step int) float64) []int {
	const rows = 100_000
	var got []int
	for i := range steps {
		t.observe(time.Duration(perRow(i)*rows), rows, rows, 2)
		got = append(got, t.next())
	}
	return got
}

// A steady cost per row settles on the power of two nearest the batch
// that makes a job targetJob long: 75 µs at 25 ns a row is 3000 rows
// (2^11.55), so 4096 — and stays there.
func TestBatchTunerConverges(t *testing.T) {
	var tu batchTuner
	assert.Equal(t, startBatch, tu.next())
	got := feed(&tu, 50, func(int) float64 { return 25 })
	assert.Equal(t, 4096, got[len(got)-1])
	for i := 1; i < len(got); i++ {
		assert.GreaterOrEqual(t, got[i], got[i-1], "moves one way only, step %d", i)
	}
}

// A cost that jumps between 18 and 32 ns a row every step (an ideal batch
// between 2300 and 4200) never makes the batch flip back and forth once
// it settled.
func TestBatchTunerDoesNotOscillate(t *testing.T) {
	var tu batchTuner
	got := feed(&tu, 200, func(i int) float64 { return []float64{18, 32}[i%2] })
	settled := got[20]
	for i, b := range got[20:] {
		assert.Equal(t, settled, b, "step %d", 20+i)
	}
	// A lasting change of cost does move it: 4x dearer rows, a quarter of
	// the batch (75 µs at 100 ns a row is 750 rows: the nearest power of
	// two, 1024).
	fewer := feed(&tu, 60, func(int) float64 { return 100 })
	assert.Equal(t, 1024, fewer[len(fewer)-1])
	assert.Less(t, fewer[len(fewer)-1], settled)
}

// The batch stays between minBatch and a size that leaves every
// participant chunksPer chunks of the largest pass.
func TestBatchTunerBounds(t *testing.T) {
	var tu batchTuner
	got := feed(&tu, 30, func(int) float64 { return 0.01 }) // ideal: 7.5M rows
	assert.Equal(t, 4096, got[len(got)-1], "100,000 rows / (8 chunks × 2 participants), floored to a power of two")
	tu = batchTuner{}
	got = feed(&tu, 30, func(int) float64 { return 1e6 }) // ideal: < 1 row
	assert.Equal(t, minBatch, got[len(got)-1])
	tu = batchTuner{}
	for range 30 { // the serial executor (1 participant) is capped as two
		tu.observe(time.Duration(0.01*100_000), 100_000, 100_000, 1)
	}
	assert.Equal(t, 4096, tu.next(), "serial: the batch one worker would pick")
	tu = batchTuner{}
	tu.observe(0, 0, 0, 2) // nothing measured: no change
	assert.Equal(t, startBatch, tu.next())
}
