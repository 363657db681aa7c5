package replay_test

import (
	"bytes"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/engine"
	"github.com/weft-engine/weft/replay"
)

// recordToy records steps steps of a toy scene made with cfg and b: the
// mouse moves, the wind is set between steps and kicks are recorded as
// owner-side actions.
func recordToy(t *testing.T, cfg engine.Config, b bad, steps int) *replay.Recording {
	s := newToy(t, cfg, b)
	var buf bytes.Buffer
	r, err := replay.NewRecorder(&buf, s, "toy")
	require.NoError(t, err)
	for i := range steps {
		s.eng.Input().MouseX = float64(i * 7 % 300)
		if i%5 == 2 {
			s.wind.Force = float64(i%3) - 1
		}
		if i%4 == 1 {
			k := kick{I: i * 31, X: float64(i)}
			require.NoError(t, r.Do(k))
			s.kick(k)
		}
		require.NoError(t, s.Tick())
	}
	require.NoError(t, r.Close())
	rec, err := replay.Read(&buf)
	require.NoError(t, err)
	require.Len(t, rec.Steps, steps)
	return rec
}

// Recorded at 1 worker, a run replays with every step's world hash and
// every system's digest equal on 0, 2 and 4 workers and every batch.
func TestReplayAnyWorkers(t *testing.T) {
	rec := recordToy(t, engine.Config{Workers: 1, Batch: 256}, bad{}, 40)
	assert.Equal(t, []string{"move", "tag"}, rec.Header.Systems)
	var meta string
	require.NoError(t, rec.Meta(&meta))
	assert.Equal(t, "toy", meta)
	for _, w := range []int{0, 2, 4} {
		for _, b := range []int{64, 1024, 0} {
			t.Run(fmt.Sprintf("W%d/batch%d", w, b), func(t *testing.T) {
				assert.NoError(t, replay.Verify(rec, newToy(t, engine.Config{Workers: w, Serial: w == 0, Batch: b}, bad{})))
			})
		}
	}
}

// Without the recorded inputs the run differs: the replay sets them.
func TestReplayNeedsInputs(t *testing.T) {
	rec := recordToy(t, engine.Config{Serial: true, Batch: 256}, bad{}, 10)
	for i := range rec.Steps {
		rec.Steps[i].Actions = nil
	}
	err := replay.Verify(rec, newToy(t, engine.Config{Serial: true}, bad{}))
	var re *replay.Error
	require.ErrorAs(t, err, &re)
	assert.Equal(t, replay.ErrDiverged, re.Code)
	assert.Equal(t, uint64(2), re.Detail.Step, "the first kick is recorded before step 2")
	assert.Equal(t, "move", re.Detail.System)
}

// A float summed in the order jobs finish gives another total when the
// rows are cut into other chunks: the replay names the summing system
// in the first step it sums, not the system after it that reads it, and
// Find names the first entity and both values.
func TestDivergenceFloatOrder(t *testing.T) {
	const from = 5
	rec := recordToy(t, engine.Config{Serial: true, Batch: 1024}, bad{kind: "sum", from: from}, 12)
	err := replay.Verify(rec, newToy(t, engine.Config{Serial: true, Batch: 64}, bad{kind: "sum", from: from}))
	var re *replay.Error
	require.ErrorAs(t, err, &re)
	require.Equal(t, replay.ErrDiverged, re.Code, "%v", err)
	assert.Equal(t, uint64(from), re.Detail.Step)
	assert.Equal(t, "sum", re.Detail.System)
	assert.Contains(t, err.Error(), "floats summed in the order jobs finish")

	d, err := replay.Find(rec,
		newToy(t, engine.Config{Serial: true, Batch: 1024}, bad{kind: "sum", from: from}),
		newToy(t, engine.Config{Workers: 2, Batch: 64}, bad{kind: "sum", from: from}))
	require.NoError(t, err)
	require.NotNil(t, d)
	assert.Equal(t, uint64(from), d.Step)
	assert.Equal(t, "sum", d.System)
	assert.Equal(t, "body", d.Component)
	require.IsType(t, body{}, d.Want)
	require.IsType(t, body{}, d.Got)
	assert.NotEqual(t, d.Want.(body).V, d.Got.(body).V)
	assert.Equal(t, d.Want.(body).X, d.Got.(body).X, "the positions agree: V differs first")
	assert.Contains(t, d.String(), `system "sum" is the first whose writes differ, first at entity`)
}

// A system that writes what a range over a map meets first is named in
// the first step where its runs wrote different values.
func TestDivergenceMapOrder(t *testing.T) {
	const from = 3
	var logRec, logA, logB []uint64
	rec := recordToy(t, engine.Config{Workers: 1}, bad{kind: "map", from: from, log: &logRec}, 30)
	err := replay.Verify(rec, newToy(t, engine.Config{Workers: 2}, bad{kind: "map", from: from, log: &logA}))
	var re *replay.Error
	require.ErrorAs(t, err, &re)
	require.Equal(t, replay.ErrDiverged, re.Code)
	assert.Equal(t, firstDiff(logRec, logA)+from, re.Detail.Step)
	assert.Equal(t, "mapper", re.Detail.System)

	logA = nil
	d, err := replay.Find(rec, newToy(t, engine.Config{Serial: true}, bad{kind: "map", from: from, log: &logA}),
		newToy(t, engine.Config{Workers: 2}, bad{kind: "map", from: from, log: &logB}))
	require.NoError(t, err)
	require.NotNil(t, d)
	assert.Equal(t, firstDiff(logA, logB)+from, d.Step)
	assert.Equal(t, "mapper", d.System)
	assert.NotEqual(t, d.Want, d.Got)
}

// firstDiff is the index of the first differing value of a and b.
func firstDiff(a, b []uint64) uint64 {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return uint64(i)
		}
	}
	return uint64(min(len(a), len(b)))
}

// A game with other systems, another fixed step or other tracked
// resources is refused with WEFT-R003 rather than compared.
func TestMismatch(t *testing.T) {
	rec := recordToy(t, engine.Config{Serial: true}, bad{}, 3)
	err := replay.Verify(rec, newToy(t, engine.Config{Serial: true, FixedStep: time.Second / 30}, bad{}))
	assert.ErrorIs(t, err, replay.ErrMismatch)
	err = replay.Verify(rec, newToy(t, engine.Config{Serial: true}, bad{kind: "sum", from: 99}))
	assert.ErrorIs(t, err, replay.ErrMismatch)
	assert.Contains(t, err.Error(), "the recording's systems are")
}

// A file that is not a recording, a truncated or corrupted one and one of
// another version are refused with their codes; a truncated file keeps
// its whole steps.
func TestReadErrors(t *testing.T) {
	rec := recordToy(t, engine.Config{Serial: true}, bad{}, 5)
	var buf bytes.Buffer
	require.NoError(t, replay.Write(&buf, rec))
	file := buf.Bytes()

	got, err := replay.Read(bytes.NewReader(file))
	require.NoError(t, err)
	assert.Equal(t, rec, got, "Write and Read round-trip")

	_, err = replay.Read(bytes.NewReader([]byte("hello, world")))
	assert.ErrorIs(t, err, replay.ErrBadFile)

	got, err = replay.Read(bytes.NewReader(file[:len(file)-3]))
	assert.ErrorIs(t, err, replay.ErrBadFile)
	assert.Len(t, got.Steps, 4)

	for _, at := range []int{3, len(file) / 2, len(file) - 2} {
		broken := bytes.Clone(file)
		broken[at] ^= 0x10
		_, err = replay.Read(bytes.NewReader(broken))
		assert.ErrorIs(t, err, replay.ErrBadFile, "byte %d changed", at)
	}

	other := *rec
	other.Header.Version = replay.Version + 1
	buf.Reset()
	require.NoError(t, replay.Write(&buf, &other))
	_, err = replay.Read(&buf)
	assert.ErrorIs(t, err, replay.ErrVersion)
	assert.True(t, errors.Is(err, replay.ErrVersion))
}

// Every one-byte change of a recording, at every position of its header
// and of every step (key names, values, lengths and checks alike), is
// refused with WEFT-R001: the checks cover the bytes as read, not the
// values decoded from them.
func TestReadEveryByteChanged(t *testing.T) {
	rec := recordToy(t, engine.Config{Workers: 1}, bad{}, 6)
	var buf bytes.Buffer
	require.NoError(t, replay.Write(&buf, rec))
	file := buf.Bytes()
	_, err := replay.Read(bytes.NewReader(file))
	require.NoError(t, err)

	passed := 0
	for _, flip := range []byte{0x01, 0x20, 0x80} {
		for at := range file {
			broken := bytes.Clone(file)
			broken[at] ^= flip
			_, err := replay.Read(bytes.NewReader(broken))
			if !errors.Is(err, replay.ErrBadFile) {
				passed++
				if passed <= 10 {
					t.Errorf("byte %d of %d xor %#02x (%q to %q): %v", at, len(file), flip, file[at], broken[at], err)
				}
			}
		}
	}
	require.Zero(t, passed, "one-byte changes not refused with WEFT-R001, of %d", 3*len(file))
}

// A recording holds one run from its start: a recorder made after the
// first step, or an engine rewound while recording, is refused with
// WEFT-R005 (at NewRecorder, at Close).
func TestRecorderOneRun(t *testing.T) {
	s := newToy(t, engine.Config{Serial: true}, bad{})
	require.NoError(t, s.Tick())
	_, err := replay.NewRecorder(&bytes.Buffer{}, s, "late")
	assert.ErrorIs(t, err, replay.ErrMisuse)

	s = newToy(t, engine.Config{Serial: true}, bad{})
	require.NoError(t, s.eng.SetRewind(4, 1))
	r, err := replay.NewRecorder(&bytes.Buffer{}, s, "rewound")
	require.NoError(t, err)
	for range 3 {
		require.NoError(t, s.Tick())
	}
	_, err = s.eng.Rewind(2)
	require.NoError(t, err)
	require.NoError(t, s.Tick())
	err = r.Close()
	assert.ErrorIs(t, err, replay.ErrMisuse)
	assert.Contains(t, err.Error(), "while recording (Rewind or Restore)")
}
