package ecs

import (
	"math/rand/v2"
	"slices"
	"testing"

	ark "github.com/mlange-42/ark/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/weft-engine/weft/jobs"
)

// watcher is a system whose query keeps the chunks where pos changed (or
// was added) and records the entities it visits.
type watcher struct {
	d    *Decl
	q    *Query1[pos]
	seen []ark.Entity
	body jobs.Func
}

func newWatcher(w *World, name string, added bool) *watcher {
	s := &watcher{d: w.System(name)}
	p := Read[pos](s.d)
	f := Changed(p)
	if added {
		f = Added(p)
	}
	s.q = NewQuery1(s.d, p, f)
	s.body = s.q.Job(func(c *Chunk) {}) // visits are read from the chunks on the owner
	return s
}

// run prepares the watcher's query and records the entities of its chunks.
func (s *watcher) run(t *testing.T, batch int) {
	n, err := s.q.Prepare(batch)
	require.NoError(t, err)
	s.seen = s.seen[:0]
	for i := range n {
		c := &s.q.chunks[i]
		require.LessOrEqual(t, c.Len(), batch)
		s.seen = append(s.seen, c.Entities()...)
	}
}

// Changed and Added never skip a row that was written through a Writer,
// set by commands, or moved into its table, since the query last ran; a
// frame without changes keeps nothing; and what they keep does not
// depend on the batch size.
func TestChangedNeverSkipsAWrite(t *testing.T) {
	for seed := range uint64(20) {
		var visits [][]ark.Entity
		for _, batch := range []int{1, 50, 64, 300} {
			visits = append(visits, changedScenario(t, rand.New(rand.NewPCG(seed, 2)), batch)...)
		}
		n := len(visits) / 4
		for b := 1; b < 4; b++ {
			if !slices.EqualFunc(visits[:n], visits[b*n:(b+1)*n], slices.Equal) {
				t.Fatalf("seed %d: batch #%d visits other rows than batch 1", seed, b)
			}
		}
	}
}

// changedScenario runs frames of random writes and structural changes and
// checks the watchers against the truth; it returns what they visited.
func changedScenario(t *testing.T, rng *rand.Rand, batch int) [][]ark.Entity {
	s := newScene(t, 500, Options{})
	w := s.w
	changed, added := newWatcher(w, "changed", false), newWatcher(w, "added", true)
	writer := w.System("writer")
	wp := Write[pos](writer)
	wq := NewQuery1(writer, wp, With[tag]())
	var visits [][]ark.Entity
	for frame := range 8 {
		wantC, wantA := map[ark.Entity]bool{}, map[ark.Entity]bool{}
		if frame == 0 {
			for _, e := range entities(w) {
				wantC[e], wantA[e] = true, true
			}
		}
		// Structural changes and sets by commands, between frames.
		b := w.NewCommands()
		ents := entities(w)
		for range rng.IntN(6) {
			e := ents[rng.IntN(len(ents))]
			switch rng.IntN(4) {
			case 0:
				b.Despawn(e)
			case 1:
				s.posC.Set(b, e, pos{X: -1})
				wantC[e] = true
			case 2:
				s.tagC.Add(b, e, tag{})
			default:
				n := b.Spawn()
				s.posC.Add(b, n, pos{})
			}
		}
		before := locations(w)
		_, err := w.Apply(b)
		require.NoError(t, err)
		after := locations(w)
		for e, l := range after {
			if before[e] != l {
				wantC[e], wantA[e] = true, true // moved rows count as added (conservative)
			}
		}
		require.NoError(t, w.BeginFrame())
		write := rng.IntN(3) == 0
		if write {
			n, err := wq.Prepare(batch)
			require.NoError(t, err)
			for i := range n {
				c := &wq.chunks[i]
				bump(wq, wp, c)
				for _, e := range c.Entities() {
					wantC[e] = true
				}
			}
		}
		changed.run(t, batch)
		added.run(t, batch)
		_, err = w.EndFrame()
		require.NoError(t, err)
		for e := range wantC {
			if w.ark.Alive(e) && !slices.Contains(changed.seen, e) {
				t.Fatalf("frame %d batch %d: changed entity %v skipped", frame, batch, e)
			}
		}
		for e := range wantA {
			if w.ark.Alive(e) && !slices.Contains(added.seen, e) {
				t.Fatalf("frame %d batch %d: added entity %v skipped", frame, batch, e)
			}
		}
		if len(wantC) == 0 {
			assert.Empty(t, changed.seen, "frame %d: nothing changed", frame)
		}
		visits = append(visits, sorted(changed.seen), sorted(added.seen))
	}
	return visits
}

type location struct {
	table tableKey
	row   int
}

func locations(w *World) map[ark.Entity]location {
	out := map[ark.Entity]location{}
	q := ark.NewFilter0(w.ark).Query()
	for q.NextTable() {
		for i, e := range q.Entities() {
			out[e] = location{w.tableOf(e), i}
		}
	}
	return out
}

func entities(w *World) []ark.Entity {
	var out []ark.Entity
	for e := range locations(w) {
		out = append(out, e)
	}
	return sorted(out)
}

func sorted(es []ark.Entity) []ark.Entity {
	es = slices.Clone(es)
	slices.SortFunc(es, func(a, b ark.Entity) int { return int(a.ID()) - int(b.ID()) })
	return es
}

// A change filter takes the system's own token; another's is refused, as
// a declaration during a frame is.
func TestChangedMisuse(t *testing.T) {
	w := NewWorld(Options{})
	a, b := w.System("a"), w.System("b")
	p := Read[pos](a)
	NewQuery1(b, Read[pos](b), Changed(p))
	require.ErrorIs(t, b.Err(), ErrUndeclared)
	assert.Contains(t, b.Err().Error(), `a change filter of a query of system "b" was given Reader[pos] of system "a"`)
	require.NoError(t, w.BeginFrame())
	Emit[pos](a)
	ReadEvents[vel](a)
	_, err := w.EndFrame()
	require.NoError(t, err)
	require.ErrorIs(t, a.Err(), ErrLocked)
}

// Over a table of many groups of blocks, a filter keeps exactly the
// blocks written since it last ran, in every group, whole groups skipped
// or not, and a write across a group boundary marks both groups.
func TestChangedAcrossGroups(t *testing.T) {
	const rows = 20_000 // 313 blocks, 5 groups
	w := NewWorld(Options{})
	NewComponent[pos](w)
	ark.NewMap1[pos](w.ark).NewBatchFn(rows, nil)
	watch := newWatcher(w, "changed", false)
	writer := w.System("writer")
	wp := Write[pos](writer)
	wq := NewQuery1(writer, wp)
	frame := func(batch int, written []int) (want []int) {
		require.NoError(t, w.BeginFrame())
		n, err := wq.Prepare(batch)
		require.NoError(t, err)
		for _, i := range written {
			require.Less(t, i, n)
			c := &wq.chunks[i]
			bump(wq, wp, c)
			for r := c.start &^ (blockRows - 1); r < min(blocks(c.end)<<blockShift, rows); r++ {
				want = append(want, r)
			}
		}
		watch.run(t, 256)
		_, err = w.EndFrame()
		require.NoError(t, err)
		return want
	}
	rowsOf := func(seen []ark.Entity) []int {
		ents := entities(w)
		var out []int
		for _, e := range seen {
			out = append(out, slices.Index(ents, e))
		}
		return out
	}
	frame(64, nil)
	require.Equal(t, rows, len(watch.seen), "the first run sees every row")
	for _, c := range []struct {
		batch   int
		written []int
	}{
		{64, []int{5, 64, 65, 127, 200, 312}}, // blocks in four groups, the last one short
		{64, nil},                             // nothing written: nothing kept
		{100, []int{40}},                      // rows 4000..4099: blocks 62..64, groups 0 and 1
		{5000, []int{3}},                      // rows 15000..19999: the table's end
	} {
		want := frame(c.batch, c.written)
		assert.Equal(t, want, rowsOf(watch.seen), "batch %d, chunks %v written", c.batch, c.written)
	}
}

// A mark never lowers a version: chained passes of two systems may mark
// one block with their own ticks in either order.
func TestChangedMarkRaises(t *testing.T) {
	var tk ticks
	tk.fit(make([]uint64, 2*groupBlocks))
	tk.mark(0, 3*blockRows, 7)
	tk.mark(0, blockRows, 5)
	assert.Equal(t, []uint64{7, 7, 7}, tk.blocks[:3])
	assert.Equal(t, uint64(0), tk.blocks[3])
	assert.Equal(t, []uint64{7, 0}, tk.groups)
	tk.mark(groupBlocks*blockRows-1, groupBlocks*blockRows+1, 9) // across the groups' boundary
	assert.Equal(t, []uint64{9, 9}, tk.groups)
}

// bump runs, as its job would, a write of every row of chunk c through wp.
func bump(q *Query1[pos], wp Writer[pos], c *Chunk) {
	q.run(c, 0, false, func(c *Chunk) {
		col := wp.Column(c)
		for i := range col {
			col[i].X++
		}
	})
}
