package ecs

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"testing"

	"github.com/stretchr/testify/require"
)

// ping is an event type of the fuzzed world.
type ping struct{ N int32 }

// fuzzWorld is a small world with tables, change versions, a resource and
// an event stream with unread events; the same for every call.
func fuzzWorld(t *testing.T) *snapRun {
	r := newSnapRun(t, 40)
	d := r.s.w.System("pinger")
	em := Emit[ping](d)
	require.NoError(t, AddResource(r.s.w, &health{HP: 3}))
	for range 3 {
		r.step(t)
	}
	em.s.pending = append(em.s.pending, ping{7})
	return r
}

// The file reader never panics and never half-loads: a file that loads
// leaves a world that hashes and runs, one that does not leaves the world
// as it was. The fuzzer mutates the payload; the header's length and
// checksum are fixed up so that it reaches the decoder and the checks
// behind the checksum, and a few inputs keep their own header.
func FuzzLoad(f *testing.F) {
	var good bytes.Buffer
	require.NoError(f, fuzzWorld(&testing.T{}).s.w.Save(&good))
	f.Add(good.Bytes()[headerSize:], false)
	f.Add(good.Bytes(), true)
	f.Add([]byte{}, false)
	f.Fuzz(func(t *testing.T, data []byte, raw bool) {
		r := fuzzWorld(t)
		w := r.s.w
		file := data
		if !raw {
			var head [headerSize]byte
			copy(head[:], saveMagic[:])
			binary.LittleEndian.PutUint32(head[8:], SaveVersion)
			binary.LittleEndian.PutUint64(head[12:], uint64(len(data)))
			binary.LittleEndian.PutUint32(head[20:], crc32.ChecksumIEEE(data))
			file = append(head[:], data...)
		}
		before := dump(w)
		if err := w.Load(bytes.NewReader(file)); err != nil {
			require.Equal(t, before, dump(w), "a refused file changed the world: %v", err)
			return
		}
		_, err := w.Hash()
		require.NoError(t, err)
		r.step(t) // commands, a write, the change filters: the loaded versions at work
	})
}
