package ecs

import (
	"math/rand/v2"
	"testing"

	ark "github.com/mlange-42/ark/ecs"
	"github.com/stretchr/testify/require"
)

// hops is a row follower made the way a feature is: this file and its
// registration (follow). By table row it keeps how many times the row's
// entity moved to another table, a per-entity value that changes without
// the table's entities changing when an entity comes back to the row it
// left, as the on/off bits' does when the owner switches one.
type hops struct {
	w       *World
	at      int
	count   map[Entity]int // by entity: its moves to another table, told by entered
	stale   []Entity       // entities whose rows to rewrite
	rebuilt int            // rows rebuilt because the record said they moved
}

// hopRows is hops' state for one table: the count by row.
type hopRows struct{ n []int }

func (h *hops) moved(rt *rowTable, moved []int, _ uint64) {
	st := rt.state[h.at].(*hopRows)
	st.n = st.n[:min(len(st.n), len(rt.ents))]
	for len(st.n) < len(rt.ents) {
		st.n = append(st.n, 0)
	}
	for _, b := range moved {
		for r := b << blockShift; r < min((b+1)<<blockShift, len(rt.ents)); r++ {
			st.n[r] = h.count[rt.ents[r]]
			h.rebuilt++
		}
	}
}

func (h *hops) entered(e Entity) {
	h.count[e]++
	h.stale = append(h.stale, e)
}

func (h *hops) restored() {
	for _, rt := range h.w.rows.tables {
		rt.state[h.at] = nil
	}
	h.stale = h.stale[:0]
}

// rows syncs the table whose entities are ents and returns its counts by
// row, made on first use. Executed only by the owner, in a frame, as a
// Prepare would.
func (h *hops) rows(ents []Entity) []int {
	w := h.w
	for _, e := range h.stale {
		if rt, r, ok := w.heldRow(e); ok && rt.state[h.at] != nil {
			rt.state[h.at].(*hopRows).n[r] = h.count[e]
		}
	}
	h.stale = h.stale[:0]
	w.ticks++
	rt := w.syncRows(ents, w.ticks)
	if rt.state[h.at] == nil { // built whole: not counted in rebuilt
		rt.state[h.at] = &hopRows{}
		n := h.rebuilt
		h.moved(rt, allBlocks(len(ents)), 0)
		h.rebuilt = n
	}
	return rt.state[h.at].(*hopRows).n
}

func allBlocks(rows int) []int {
	var bs []int
	for b := range blocks(rows) {
		bs = append(bs, b)
	}
	return bs
}

// A follower's state by row stays the truth through random spawns,
// despawns, adds and removes (by commands and by Ark directly), snapshots
// and restores, while rebuilding only the blocks that moved.
func TestRowFollower(t *testing.T) {
	s := newScene(t, 3000, Options{})
	w := s.w
	h := &hops{w: w, count: map[Entity]int{}}
	h.at = w.rows.follow(h)
	truth := map[Entity]int{} // moves to another table, counted by the test
	rng := rand.New(rand.NewPCG(35, 2))
	var snap Snapshot
	checked, restores := 0, 0
	check := func(round int) {
		require.NoError(t, w.BeginFrame())
		q := w.all.Query()
		for q.NextTable() {
			ents := q.Entities()
			if rng.IntN(4) == 0 {
				continue // a table this pass does not meet
			}
			got := h.rows(ents)
			require.Len(t, got, len(ents), "round %d", round)
			for r, e := range ents {
				if truth[e] != got[r] {
					require.Equal(t, truth[e], got[r], "round %d, row %d", round, r)
				}
			}
			checked += len(ents)
		}
		_, err := w.EndFrame()
		require.NoError(t, err)
	}
	move := func(e Entity, add bool) { // tag added or removed, through Ark or commands
		truth[e]++
		b := w.NewCommands()
		direct := rng.IntN(2) == 0
		switch {
		case direct && add:
			w.unsafe.Add(e, s.tagC.id)
		case direct:
			w.unsafe.Remove(e, s.tagC.id)
		case add:
			s.tagC.Add(b, e, tag{})
		default:
			s.tagC.Remove(b, e)
		}
		_, err := w.Apply(b)
		require.NoError(t, err)
	}
	for round := range 60 {
		ents := entities(w)
		for range 1 + rng.IntN(4) {
			e := ents[rng.IntN(len(ents))]
			if !w.ark.Alive(e) {
				continue
			}
			switch op := rng.IntN(4); {
			case op == 0:
				b := w.NewCommands()
				n := b.Spawn()
				s.posC.Add(b, n, pos{})
				if rng.IntN(2) == 0 {
					s.hpC.Add(b, n, health{})
				}
				_, err := w.Apply(b)
				require.NoError(t, err)
			case op == 1:
				w.ark.RemoveEntity(e)
			default:
				move(e, !w.unsafe.HasUnchecked(e, s.tagC.id))
			}
		}
		if e, ok := lastUntagged(w, s.tagC.id); ok && rng.IntN(2) == 0 {
			move(e, true) // and back to the row it left
			move(e, false)
		}
		switch rng.IntN(8) {
		case 0:
			require.NoError(t, w.Snapshot(&snap))
		case 1:
			if snap.w != nil {
				require.NoError(t, w.Restore(&snap))
				restores++
			}
		}
		check(round)
	}
	require.Positive(t, restores)
	require.Less(t, h.rebuilt, checked/4, "only what moved is rebuilt")
}

// lastUntagged is the entity in the last row of the first table without
// tag, whose move to another table and back leaves the table as it was.
func lastUntagged(w *World, tag ark.ID) (Entity, bool) {
	q := w.all.Query()
	for q.NextTable() {
		if ents := q.Entities(); !w.unsafe.HasUnchecked(ents[0], tag) {
			e := ents[len(ents)-1]
			q.Close()
			return e, true
		}
	}
	return Entity{}, false
}
