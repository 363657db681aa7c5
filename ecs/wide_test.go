package ecs

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/weft-engine/weft/jobs"
)

type c1 struct{ V int }
type c2 struct{ V int }
type c3 struct{ V int }
type c4 struct{ V int }
type c5 struct{ V int }
type c6 struct{ V int }
type c7 struct{ V int }
type c8 struct{ V int }

// runQuery runs body over q's chunks of batch rows on the serial pool.
func runQuery(t *testing.T, w *World, prepare func(int) (int, error), body jobs.Func, batch int) {
	pool := newPool(t, 0)
	require.NoError(t, w.BeginFrame())
	n, err := prepare(batch)
	require.NoError(t, err)
	h, err := pool.ParallelFor(jobs.Job{Label: jobs.Label{Name: "q"}, Run: body}, n, 1)
	require.NoError(t, err)
	require.NoError(t, pool.Wait(h))
	_, err = w.EndFrame()
	require.NoError(t, err)
}

// Arity 8: a Spawner8 spawns, a Query8 sees all eight columns row for row.
func TestArity8(t *testing.T) {
	w := NewWorld(Options{})
	sp := NewSpawner8[c1, c2, c3, c4, c5, c6, c7, c8](w)
	b := w.NewCommands()
	for i := range 10 {
		sp.Spawn(b, c1{i}, c2{2 * i}, c3{3 * i}, c4{4 * i}, c5{5 * i}, c6{6 * i}, c7{7 * i}, c8{8 * i})
	}
	_, err := w.Apply(b)
	require.NoError(t, err)
	d := w.System("wide")
	r1, r2, r3, r4 := Read[c1](d), Read[c2](d), Read[c3](d), Read[c4](d)
	r5, r6, r7, w8 := Read[c5](d), Read[c6](d), Read[c7](d), Write[c8](d)
	q := NewQuery8(d, r1, r2, r3, r4, r5, r6, r7, w8)
	require.NoError(t, d.Err())
	rows := 0
	body := q.Job(func(c *Chunk) {
		a, h := r1.Column(c), w8.Column(c)
		cols := [][]int{}
		for k := range a {
			cols = append(cols, []int{r2.Column(c)[k].V, r3.Column(c)[k].V, r4.Column(c)[k].V, r5.Column(c)[k].V, r6.Column(c)[k].V, r7.Column(c)[k].V, h[k].V})
			h[k].V = -a[k].V
		}
		for k, row := range cols {
			for j, v := range row {
				assert.Equal(t, (j+2)*a[k].V, v)
			}
		}
		rows += len(a)
	})
	runQuery(t, w, q.Prepare, body, 3)
	assert.Equal(t, 10, rows)
	seq, err := w.Entities(NewComponent[c1](w), NewComponent[c8](w))
	require.NoError(t, err)
	for e := range seq {
		a, _ := Get[c1](w, e)
		h, _ := Get[c8](w, e)
		assert.Equal(t, -a.V, h.V)
	}
}

// An optional column is nil in chunks of tables without it and the rows
// of the table in chunks of tables with it; it does not change which
// entities match.
func TestOptionalColumn(t *testing.T) {
	s := newScene(t, 30, Options{}) // every third entity has health, every third a tag
	d := s.w.System("opt")
	p, hp := Read[pos](d), Write[health](d)
	q := NewQuery1(d, p, Optional(hp), Without[tag]())
	require.NoError(t, d.Err())
	with, without, rows := 0, 0, 0
	body := q.Job(func(c *Chunk) {
		h := hp.Column(c)
		rows += c.Len()
		if h == nil {
			without++
			return
		}
		with++
		require.Len(t, h, c.Len())
		for i := range h {
			assert.Equal(t, 100, h[i].HP)
			h[i].HP = int(p.Column(c)[i].X)
		}
	})
	runQuery(t, s.w, q.Prepare, body, 4)
	assert.Equal(t, 20, rows, "the entities without tag, health or not")
	assert.Positive(t, with)
	assert.Positive(t, without)
	seq, err := s.w.Entities(s.hpC)
	require.NoError(t, err)
	for e := range seq {
		h, _ := Get[health](s.w, e)
		ps, _ := Get[pos](s.w, e)
		assert.Equal(t, int(ps.X), h.HP, "written through the optional column")
	}

	// The optional column is declared: a write of health conflicts with
	// a reader of health.
	r := s.w.System("reader")
	Read[health](r)
	_, conflict := d.access.Conflict(&r.access)
	assert.True(t, conflict)
}

func TestTooManyColumns(t *testing.T) {
	w := NewWorld(Options{})
	d := w.System("huge")
	NewQuery8(d, Read[c1](d), Read[c2](d), Read[c3](d), Read[c4](d), Read[c5](d), Read[c6](d), Read[c7](d), Read[c8](d), Optional(Read[pos](d)))
	assert.ErrorIs(t, d.Err(), ErrBadArgument)
	assert.ErrorContains(t, d.Err(), "has 9 columns, optional ones included; the most is 8")
}
