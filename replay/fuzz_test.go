package replay_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/engine"
	"github.com/weft-engine/weft/internal/fault"
	"github.com/weft-engine/weft/replay"
)

// seedFile is a small well-formed recording, written without an engine.
func seedFile(t testing.TB, steps int) []byte {
	meta, err := replay.Encode("seed")
	require.NoError(t, err)
	rec := &replay.Recording{Header: replay.Header{Magic: replay.Magic, Version: replay.Version, FixedStep: 16_666_667,
		Systems: []string{"move", "tag"}, Resources: []string{"wind"}, Meta: meta}}
	for i := range steps {
		wind, err := replay.Encode(Wind{Force: float64(i)})
		require.NoError(t, err)
		kick, err := replay.Encode(kick{I: i, X: 1.5})
		require.NoError(t, err)
		rec.Steps = append(rec.Steps, replay.Step{Frame: uint64(i / 2), FrameDT: 16_000_000,
			Input: engine.Input{MouseX: float64(i)}, Camera: engine.Camera{Zoom: 1},
			Resources: [][]byte{wind}, Actions: [][]byte{kick}, Hash: uint64(i) * 77, Digests: []uint64{1, 2}})
	}
	var buf bytes.Buffer
	require.NoError(t, replay.Write(&buf, rec))
	return buf.Bytes()
}

// Read never panics or hangs on any bytes: it answers a recording, or
// WEFT-R001 or WEFT-R002, and a recording it answers writes back to a
// file that reads as the same recording.
func FuzzRead(f *testing.F) {
	file := seedFile(f, 3)
	f.Add(file)
	f.Add(file[:len(file)/2])
	f.Add([]byte{})
	f.Add([]byte("weft-replay"))
	f.Fuzz(func(t *testing.T, data []byte) {
		rec, err := replay.Read(bytes.NewReader(data))
		if err != nil {
			var re *replay.Error
			require.True(t, errors.As(err, &re), "%v", err)
			require.Contains(t, []fault.Code{replay.ErrBadFile, replay.ErrVersion}, re.Code)
			return
		}
		var once, twice bytes.Buffer
		require.NoError(t, replay.Write(&once, rec))
		again, err := replay.Read(bytes.NewReader(once.Bytes()))
		require.NoError(t, err)
		require.NoError(t, replay.Write(&twice, again))
		require.Equal(t, once.Bytes(), twice.Bytes())
	})
}
