package cull

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/weft-engine/weft/engine"
)

// Any splitters give the draw order of one sort over every chunk: the
// pieces only share out the work.
func TestPiecesGiveTheWholeOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, chunks := range []int{1, 2, 7, 40} {
		s := &System{}
		var all []key
		for k := range chunks {
			n := r.IntN(60)
			keys := make([]key, n)
			raw := make([]engine.Item, n)
			for i := range keys {
				keys[i] = key{order: uint64(r.IntN(4)), entity: r.Uint64(), chunk: int32(k), i: int32(i)}
				raw[i].Entity = keys[i].entity
			}
			slices.SortFunc(keys, func(a, b key) int { return a.compare(&b) }) // i keeps each key's row
			all = append(all, keys...)
			s.raw, s.keys = append(s.raw, raw), append(s.keys, keys)
		}
		slices.SortFunc(all, func(a, b key) int { return a.compare(&b) })
		for _, splits := range []int{0, 1, pieces - 1} {
			s.split = s.split[:0]
			for range splits { // random splitters, some equal to keys, in order
				if len(all) > 0 && r.IntN(2) == 0 {
					s.split = append(s.split, all[r.IntN(len(all))])
				} else {
					s.split = append(s.split, key{order: uint64(r.IntN(5)), entity: r.Uint64()})
				}
			}
			slices.SortFunc(s.split, func(a, b key) int { return a.compare(&b) })
			s.split = slices.CompactFunc(s.split, func(a, b key) bool { return a.compare(&b) == 0 })
			s.cut = make([][pieces + 1]int32, chunks)
			for k := range s.keys {
				s.cutPieces(s.keys[k], &s.cut[k])
			}
			s.placePieces()
			s.mergePieces(0, pieces)
			require.Len(t, s.items, len(all))
			for i, k := range all {
				require.Equal(t, k.entity, s.items[i].Entity, "%d chunks, %d splitters, item %d", chunks, splits, i)
			}
		}
	}
}
