package ecs

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/weft-engine/weft/jobs"
)

// links nests entities in an array and a struct (target, of
// lookup_test.go, refers to one).
type links struct {
	Pair [2]Entity
	In   struct {
		N int
		E Entity
	}
}

// follower wants its target's pos.X to be Want.
type follower struct{ Want float64 }

// Placeholders in entity fields of recorded values become the real
// entities, in the same buffer, in spawner values, nested in arrays and
// structs.
func TestPlaceholdersInValuesResolve(t *testing.T) {
	w := NewWorld(Options{})
	pc, tc, lc := NewComponent[pos](w), NewComponent[target](w), NewComponent[links](w)
	sp := NewSpawner2[pos, target](w)
	b := w.NewCommands()
	parent := b.Spawn()
	pc.Add(b, parent, pos{X: 1})
	child := sp.Spawn(b, pos{X: 2}, target{Of: parent})
	other := b.Spawn()
	pc.Add(b, other, pos{X: 3})
	tc.Add(b, other, target{Of: child})
	var l links
	l.Pair, l.In.N, l.In.E = [2]Entity{parent, child}, 7, other
	lc.Add(b, parent, l)
	r, err := w.Apply(b)
	require.NoError(t, err)
	require.Empty(t, r.Problems)

	real := map[float64]Entity{}
	seq, err := w.Entities(pc)
	require.NoError(t, err)
	for e := range seq {
		p, err := Get[pos](w, e)
		require.NoError(t, err)
		real[p.X] = e
	}
	require.Len(t, real, 3)
	got, err := Get[target](w, real[2])
	require.NoError(t, err)
	assert.Equal(t, real[1], got.Of)
	got, err = Get[target](w, real[3])
	require.NoError(t, err)
	assert.Equal(t, real[2], got.Of)
	gl, err := Get[links](w, real[1])
	require.NoError(t, err)
	assert.Equal(t, [2]Entity{real[1], real[2]}, gl.Pair)
	assert.Equal(t, 7, gl.In.N)
	assert.Equal(t, real[3], gl.In.E)
}

// A placeholder that does not resolve in a value is reported with
// ErrUnresolved and stored as the zero entity, never as a dead ID.
func TestUnresolvedPlaceholderInValue(t *testing.T) {
	w := NewWorld(Options{})
	tc := NewComponent[target](w)
	first := w.NewCommands()
	kept := first.Spawn()
	_, err := w.Apply(first)
	require.NoError(t, err)

	b := w.NewCommands()
	e := b.Spawn()
	tc.Add(b, e, target{Of: kept}) // kept is of an earlier playback
	r, err := w.Apply(b)
	require.ErrorIs(t, err, ErrUnresolved)
	require.Len(t, r.Problems, 1)
	assert.Equal(t, 2, r.Applied, "the spawn and its add still apply")
	err = r.Err()
	assert.ErrorIs(t, err, ErrUnresolved)
	assert.Contains(t, err.Error(), "its target.Of holds")
	assert.Contains(t, err.Error(), "the field was set to the zero entity")
	seq, err := w.Entities(tc)
	require.NoError(t, err)
	for e := range seq {
		v, err := Get[target](w, e)
		require.NoError(t, err)
		assert.Equal(t, Entity{}, v.Of)
	}

	// A placeholder kept past its playback is an error for Get too.
	_, err = Get[target](w, kept)
	assert.ErrorIs(t, err, ErrUnresolved)
}

// More spawns than a placeholder can number: the extra ones still spawn,
// but their placeholders are refused, not aliased to other spawns.
func TestPlaceholderOverflow(t *testing.T) {
	b := &Commands{w: NewWorld(Options{}), spawns: maxSpawns - 2}
	assert.Equal(t, uint32(maxSpawns-2), b.Spawn().Gen()&(maxSpawns-1))
	over := b.Spawn()
	assert.Equal(t, over, b.Spawn(), "past the limit, placeholders share the refused number")
	p := playback{b: b}
	_, why := p.resolve(over)
	assert.Contains(t, why, "past the first")
}

// A spawned leader per chunk, referred to by its chunk's own followers,
// by a later system's buffer, and (refused) by the spawning system's own
// system-level buffer, which plays before its chunk buffers. The world
// and the problems are the same for every worker count (the batch size
// sets the number of leaders).
func TestPlaceholdersAcrossBuffers(t *testing.T) {
	for _, batch := range []int{1, 7, 64, 1024} {
		want := leaderWorld(t, 0, batch)
		for _, workers := range []int{1, 2, 4} {
			require.Equal(t, want, leaderWorld(t, workers, batch), "workers %d, batch %d", workers, batch)
		}
	}
}

func leaderWorld(t *testing.T, workers, batch int) string {
	s := newScene(t, 100, Options{})
	w := s.w
	tc, fc := NewComponent[target](w), NewComponent[follower](w)
	lead := w.System("lead")
	lp := Read[pos](lead)
	q := NewQuery1(lead, lp)
	late := w.System("late")
	var leaders []Entity // by chunk; each job writes its own
	body := q.Job(func(c *Chunk) {
		b := c.Commands()
		ps := lp.Column(c)
		l := b.Spawn()
		s.posC.Add(b, l, pos{X: -ps[0].X - 1})
		leaders[c.Index()] = l
		for range ps {
			f := b.Spawn()
			tc.Add(b, f, target{Of: l})
			fc.Add(b, f, follower{Want: -ps[0].X - 1})
		}
	})
	pool := newPool(t, workers)
	require.NoError(t, w.BeginFrame())
	n, err := q.Prepare(batch)
	require.NoError(t, err)
	leaders = make([]Entity, n)
	h, err := pool.ParallelFor(jobs.Job{Label: jobs.Label{Name: "lead"}, Run: body}, n, 1)
	require.NoError(t, err)
	require.NoError(t, pool.Wait(h))
	early, after := lead.Commands(0), late.Commands(0) // recorded after the chunks ran
	for k, l := range leaders {
		f := early.Spawn()
		tc.Add(early, f, target{Of: l}) // refused: lead's own buffer plays before its chunks
		f = after.Spawn()
		tc.Add(after, f, target{Of: l})
		fc.Add(after, f, follower{Want: -float64(k) - 1e6}) // only checks that it resolved
	}
	r, err := w.EndFrame()
	require.NoError(t, err)
	require.Len(t, r.Problems, n)
	for _, p := range r.Problems {
		require.Equal(t, ErrUnresolved, p.Code)
		require.Equal(t, "lead", p.System)
	}
	require.NoError(t, pool.Reset())

	seq, err := w.Entities(tc, fc)
	require.NoError(t, err)
	count := 0
	for e := range seq {
		tg, err := Get[target](w, e)
		require.NoError(t, err)
		lp, err := Get[pos](w, tg.Of)
		require.NoError(t, err, "a follower's target is alive and has a pos")
		if f, _ := Get[follower](w, e); f.Want > -1e5 {
			require.Equal(t, f.Want, lp.X)
		}
		count++
	}
	require.Equal(t, 100+n, count)
	hash, err := w.Hash(s.posC, tc)
	require.NoError(t, err)
	return fmt.Sprintf("%x %s", hash, dump(w))
}

// Playback does not look into slices: a placeholder there stays one, and
// every later use through ecs reports it (WEFT-E010), never a dead ID
// taken for a live one.
func TestPlaceholderInSliceIsReported(t *testing.T) {
	type squad struct{ Members []Entity }
	w := NewWorld(Options{})
	sc := NewComponent[squad](w)
	b := w.NewCommands()
	m := b.Spawn()
	sc.Add(b, b.Spawn(), squad{Members: []Entity{m}})
	r, err := w.Apply(b)
	require.NoError(t, err)
	require.Empty(t, r.Problems)
	seq, err := w.Entities(sc)
	require.NoError(t, err)
	for e := range seq {
		s, err := Get[squad](w, e)
		require.NoError(t, err)
		kept := s.Members[0]
		assert.True(t, isPlaceholder(kept), "not resolved: documented")
		_, err = Get[pos](w, kept)
		assert.ErrorIs(t, err, ErrUnresolved)
		b.Despawn(kept)
	}
	r, err = w.Apply(b)
	require.ErrorIs(t, err, ErrUnresolved)
	require.Len(t, r.Problems, 1)
	assert.Equal(t, ErrUnresolved, r.Problems[0].Code)
}
