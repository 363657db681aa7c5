package cull

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// A merge cut anywhere into pieces gives the merge in one piece: corank
// finds where each piece starts in both runs.
func TestMergeInPieces(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	run := func(n int) []key {
		ks := make([]key, n)
		for i := range ks {
			ks[i] = key{order: uint64(r.IntN(4)), entity: r.Uint64()}
		}
		slices.SortFunc(ks, func(a, b key) int { return a.compare(&b) })
		return ks
	}
	for _, size := range [][2]int{{0, 0}, {0, 5}, {7, 0}, {1, 1}, {40, 3}, {3, 40}, {100, 100}} {
		x, y := run(size[0]), run(size[1])
		whole := make([]key, len(x)+len(y))
		merge(whole, x, y)
		require.True(t, slices.IsSortedFunc(whole, func(a, b key) int { return a.compare(&b) }))
		for pieces := 1; pieces <= 7; pieces++ {
			got := make([]key, len(whole))
			for part := range pieces {
				from, to := len(got)*part/pieces, len(got)*(part+1)/pieces
				i := corank(x, y, from)
				merge(got[from:to], x[i:], y[from-i:])
			}
			require.Equal(t, whole, got, "sizes %v, %d pieces", size, pieces)
		}
	}
}
