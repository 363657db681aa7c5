package ecs

import (
	"fmt"
	"math/rand/v2"
	"runtime"

	ark "github.com/mlange-42/ark/ecs"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/weft-engine/weft/safety"
)

// snapRun is a scene with a writer and two change watchers, run frame by
// frame with changes drawn from a generator seeded by the frame, so that
// a rerun from a restored snapshot asks for the same changes.
type snapRun struct {
	s              *scene
	changed, added *watcher
	wp             Writer[pos]
	wq             *Query1[pos]
	frame          uint64
}

func newSnapRun(t *testing.T, n int) *snapRun {
	r := &snapRun{s: newScene(t, n, Options{})}
	w := r.s.w
	r.changed, r.added = newWatcher(w, "changed", false), newWatcher(w, "added", true)
	writer := w.System("writer")
	r.wp = Write[pos](writer)
	r.wq = NewQuery1(writer, r.wp, With[tag]())
	return r
}

// step runs frame r.frame (commands between frames, then a frame that may
// write pos) and returns the world and what the watchers visited.
func (r *snapRun) step(t *testing.T) string {
	rng := rand.New(rand.NewPCG(r.frame, 9))
	r.frame++
	w := r.s.w
	b := w.NewCommands()
	ents := entities(w)
	for range rng.IntN(6) * min(len(ents), 1) {
		e := ents[rng.IntN(len(ents))]
		switch k := rng.IntN(5); {
		case k == 0:
			b.Despawn(e)
		case k == 1:
			r.s.tagC.Remove(b, e)
		case k == 2:
			r.s.tagC.Add(b, e, tag{})
		case k == 3:
			r.s.hpC.Add(b, b.Spawn(), health{HP: rng.IntN(9)})
		default:
			r.s.posC.Set(b, e, pos{X: rng.Float64()})
		}
	}
	_, err := w.Apply(b)
	require.NoError(t, err)
	require.NoError(t, w.BeginFrame())
	if rng.IntN(2) == 0 {
		n, err := r.wq.Prepare(64)
		require.NoError(t, err)
		for i := range n {
			for k := range r.wp.Column(&r.wq.chunks[i]) {
				r.wp.Column(&r.wq.chunks[i])[k].Y++
			}
		}
	}
	r.changed.run(t, 64)
	r.added.run(t, 64)
	_, err = w.EndFrame()
	require.NoError(t, err)
	return dump(w) + fmt.Sprint(r.changed.seen, r.added.seen)
}

// A ring of snapshots (Rewind's) of a world whose tables come, go and
// change size from step to step allocates nothing once warm: each copy
// is filled again by the table it held.
//
// The count is the process's mallocs around each Snapshot, which also
// counts what the runtime allocates meanwhile on its own goroutines, now
// and then, with or without GC (a single window of 30 steps saw one in
// about 3 runs of 50). The world's changes repeat every 4 steps and the
// ring's slots every 3, so a snapshot that allocates once warm does so
// again in every 12 steps: the test takes windows of 24 warm steps and
// passes on the first window without a malloc, failing when all 4 have one.
func TestSnapshotRingAllocatesNothing(t *testing.T) {
	s := newScene(t, 600, Options{})
	w := s.w
	var ring [3]Snapshot
	var ms runtime.MemStats
	lone := ark.NewFilter1[health](w.ark).Without(ark.C[pos]()) // a table that comes and goes
	bare := ark.NewFilter1[pos](w.ark).Without(ark.C[vel]())    // one that grows and shrinks
	var gone []Entity
	const warm, window, windows = 30, 24, 4
	var mallocs [windows]uint64
	for k := range warm + window*windows {
		b := w.NewCommands()
		if k%4 == 0 {
			for i := range 5 {
				s.hpC.Add(b, b.Spawn(), health{HP: k})
				s.posC.Add(b, b.Spawn(), pos{X: float64(i)})
			}
		} else {
			gone = gone[:0]
			for q := lone.Query(); q.Next(); {
				gone = append(gone, q.Entity())
			}
			for q := bare.Query(); q.Next(); {
				if k%4 == 2 {
					gone = append(gone, q.Entity())
				}
			}
			for _, e := range gone {
				b.Despawn(e)
			}
		}
		_, err := w.Apply(b)
		require.NoError(t, err)
		runtime.ReadMemStats(&ms)
		before := ms.Mallocs
		require.NoError(t, w.Snapshot(&ring[k%len(ring)]))
		runtime.ReadMemStats(&ms)
		if k < warm {
			continue
		}
		n := (k - warm) / window
		mallocs[n] += ms.Mallocs - before
		if (k-warm)%window == window-1 && mallocs[n] == 0 {
			return // a whole window of warm snapshots without a malloc
		}
	}
	t.Fatalf("warm snapshots in a ring allocated in every window of %d steps: %v mallocs", window, mallocs)
}

// A restore makes the next frames repeat the first run: components,
// entity ids and generations (despawned ones come back, spawned ones go),
// and what change filters keep.
func TestRestoreRepeatsFrames(t *testing.T) {
	r := newSnapRun(t, 500)
	for range 5 {
		r.step(t)
	}
	var snap Snapshot
	require.NoError(t, r.s.w.Snapshot(&snap))
	at := r.frame
	var first []string
	for range 12 {
		first = append(first, r.step(t))
	}
	for range 2 {
		require.NoError(t, r.s.w.Restore(&snap))
		r.frame = at
		for i := range 12 {
			require.Equal(t, first[i], r.step(t), "frame %d after the snapshot", i)
		}
	}
}

// A restore into tables that hold the snapshot's entities copies bytes
// only; both that and a rebuild allocate nothing once warm.
func TestSnapshotAllocatesNothing(t *testing.T) {
	s := newScene(t, 2000, Options{})
	w := s.w
	var snap Snapshot
	require.NoError(t, w.Snapshot(&snap))
	before := dump(w)
	e := entities(w)[10]
	churn := func() { // a despawn and a spawn: tables differ from the snapshot
		b := w.NewCommands()
		b.Despawn(e)
		s.posC.Add(b, b.Spawn(), pos{X: 1})
		_, err := w.Apply(b)
		require.NoError(t, err)
	}
	churn()
	require.NoError(t, w.Restore(&snap))
	require.Equal(t, before, dump(w))
	require.True(t, w.ark.Alive(e))

	pool := newPool(t, 0)
	tr := safety.NewTracker(pool, w.Registry(), safety.Options{})
	s.frame(t, pool, tr, 64)
	require.NotEqual(t, before, dump(w))
	require.True(t, w.sameTables(&snap), "a frame without structural change keeps the tables")
	require.NoError(t, w.Restore(&snap))
	require.Equal(t, before, dump(w))

	allocs := testing.AllocsPerRun(20, func() {
		require.NoError(t, w.Snapshot(&snap))
		require.NoError(t, w.Restore(&snap))
	})
	require.Zero(t, allocs, "snapshot and restore of unchanged tables")
	b := w.NewCommands()
	allocs = testing.AllocsPerRun(20, func() {
		b.Despawn(e)
		_, _ = w.Apply(b)
		require.NoError(t, w.Restore(&snap))
	})
	require.Zero(t, allocs, "restore that rebuilds a table")
	require.Equal(t, before, dump(w))
}
