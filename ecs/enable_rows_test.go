package ecs

import (
	"math/rand/v2"
	"slices"
	"testing"

	ark "github.com/mlange-42/ark/ecs"
	"github.com/stretchr/testify/require"
	"github.com/weft-engine/weft/jobs"
)

// The row bits follow Ark's rows whoever moves them: spawns, despawns
// (the last row fills the hole), components added and removed by
// commands and by Ark directly (an entity that leaves a table and comes
// back to the same row included), switches by the owner and by jobs,
// restores. After every round, what On, Off, Runs and Enabled say of each
// row equals the state by entity that IsEnabled reads, for every batch
// size.
func TestEnabledRowsFollowMoves(t *testing.T) {
	for _, batch := range []int{1, 50, 64, 300} {
		x := newSwitcher(t, 400)
		w := x.s.w
		pool := newPool(t, 2)
		rng := rand.New(rand.NewPCG(uint64(batch), 7))
		var snap Snapshot
		for round := range 40 {
			x.frame(t, pool, batch, uint32(2+round%5))
			x.sameRowAgain(t, pool)
			x.checkRows(t, batch)
			x.moveSome(t, rng, round)
			switch round % 10 {
			case 3:
				require.NoError(t, w.Snapshot(&snap))
			case 8:
				require.NoError(t, w.Restore(&snap))
				x.last = nil
			}
			x.checkRows(t, batch)
		}
	}
}

// moveSome makes one round of structural changes and owner switches.
func (x *switcher) moveSome(t *testing.T, rng *rand.Rand, round int) {
	w := x.s.w
	ents := entities(w)
	b := w.NewCommands()
	for range 5 {
		b.Despawn(ents[rng.IntN(len(ents))])
	}
	for range 7 {
		e := b.Spawn()
		x.s.posC.Add(b, e, pos{X: float64(round)})
	}
	for range 5 {
		e := ents[rng.IntN(len(ents))]
		if w.unsafe.Has(e, x.s.tagC.id) {
			x.s.tagC.Remove(b, e)
		} else {
			x.s.tagC.Add(b, e, tag{})
		}
	}
	_, err := w.Apply(b)
	require.NoError(t, err)
	// leave a table and come back to the same row, switched meanwhile
	ents = entities(w)
	e := ents[rng.IntN(len(ents))]
	if w.unsafe.Has(e, x.s.velC.id) && w.unsafe.Has(e, x.s.posC.id) {
		w.unsafe.Remove(e, x.s.velC.id)
		on, err := IsEnabled[pos](w, e)
		require.NoError(t, err)
		require.NoError(t, SetEnabled[pos](w, e, !on))
		w.unsafe.Add(e, x.s.velC.id)
	}
	for range 9 {
		e := ents[rng.IntN(len(ents))]
		if w.ark.Alive(e) && w.unsafe.Has(e, x.s.posC.id) {
			require.NoError(t, SetEnabled[pos](w, e, rng.IntN(2) == 0))
		}
	}
	e = w.unsafe.NewEntity(x.s.posC.id) // the last row of its table, off
	require.NoError(t, SetEnabled[pos](w, e, false))
	x.last = &e
}

// sameRowAgain switches pos off from a job for the last entity of its
// table, then makes it lose pos and get it back: the entity is in its
// row again, with pos on.
func (x *switcher) sameRowAgain(t *testing.T, pool *jobs.Pool) {
	w := x.s.w
	st, bad := w.arkStateOf()
	require.Nil(t, bad)
	if x.last != nil && w.ark.Alive(*x.last) {
		e := *x.last
		require.NoError(t, w.BeginFrame())
		pass(t, pool, x.wq, 64, func(c *Chunk) {
			for i, en := range c.Entities() {
				if en == e {
					x.wen.Set(c, i, false)
				}
			}
		})
		_, err := w.EndFrame()
		require.NoError(t, err)
		require.NoError(t, pool.Reset())
		at := (*st.index)[e.ID()]
		w.unsafe.Remove(e, x.s.posC.id)
		w.unsafe.Add(e, x.s.posC.id)
		require.Equal(t, at, (*st.index)[e.ID()], "the same row")
		x.last = nil
	}
}

// checkRows compares what the reader's tokens say of every row of every
// chunk with IsEnabled.
func (x *switcher) checkRows(t *testing.T, batch int) {
	w := x.s.w
	want := map[ark.Entity]bool{}
	for _, e := range entities(w) {
		if w.unsafe.Has(e, x.s.posC.id) {
			on, err := IsEnabled[pos](w, e)
			require.NoError(t, err)
			want[e] = on
		}
	}
	require.NoError(t, w.BeginFrame())
	n, err := x.rq.Prepare(batch)
	require.NoError(t, err)
	seen := 0
	for i := range n {
		c := &x.rq.chunks[i]
		ents := c.Entities()
		var on, off, runs []int
		for r := range ents {
			if want[ents[r]] {
				on = append(on, r)
			} else {
				off = append(off, r)
			}
			require.Equal(t, want[ents[r]], x.ren.Enabled(c, r))
		}
		for _, r := range x.ren.Runs(c) {
			require.Less(t, r.Start, r.End)
			for k := r.Start; k < r.End; k++ {
				runs = append(runs, k)
			}
		}
		require.Equal(t, on, nilIfEmpty(slices.Clone(x.ren.On(c))), "chunk %d", i)
		require.Equal(t, on, slices.Collect(x.ren.Each(c)), "chunk %d", i)
		require.Equal(t, off, nilIfEmpty(slices.Clone(x.ren.Off(c))), "chunk %d", i)
		require.Equal(t, on, runs, "chunk %d", i)
		seen += len(ents)
	}
	require.Equal(t, len(want), seen)
	_, err = w.EndFrame()
	require.NoError(t, err)
}

func nilIfEmpty(s []int) []int {
	if len(s) == 0 {
		return nil
	}
	return s
}

// Moves past what is kept for rewriting drop the row bits, which the next
// pass builds afresh: the memory stays bounded and the bits right.
func TestEnabledRowsManyMoves(t *testing.T) {
	x := newSwitcher(t, 100)
	w := x.s.w
	x.frame(t, newPool(t, 0), 64, 3)
	e := entities(w)[5]
	for range maxStale/2 + 10 {
		w.unsafe.Remove(e, x.s.velC.id)
		w.unsafe.Add(e, x.s.velC.id)
	}
	require.LessOrEqual(t, len(w.bits.stale), maxStale)
	require.Zero(t, w.bits.tables, "dropped")
	x.checkRows(t, 64)
}
