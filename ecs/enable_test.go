package ecs

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"testing"

	ark "github.com/mlange-42/ark/ecs"
	"github.com/stretchr/testify/require"
	"github.com/weft-engine/weft/internal/fault"
	"github.com/weft-engine/weft/jobs"
	"github.com/weft-engine/weft/safety"
)

// switcher is a scene with a system that switches pos off for the rows
// it picks and one that reads which rows are on.
type switcher struct {
	s    *scene
	sw   *Decl
	wen  EnabledWriter[pos]
	wq   *Query1[pos]
	rd   *Decl
	ren  EnabledReader[pos]
	rq   *Query1[pos]
	rpos Reader[pos]
	last *ark.Entity // the last row that moveSome made (enable_rows_test.go)
}

func newSwitcher(t testing.TB, n int) *switcher {
	x := &switcher{s: newScene(t, n, Options{})}
	w := x.s.w
	x.sw = w.System("switch")
	x.wen = WriteEnabled[pos](x.sw)
	x.wq = NewQuery1(x.sw, Read[pos](x.sw))
	x.rd = w.System("read")
	x.ren, x.rpos = ReadEnabled[pos](x.rd), Read[pos](x.rd)
	x.rq = NewQuery1(x.rd, x.rpos)
	require.NoError(t, x.sw.Err())
	require.NoError(t, x.rd.Err())
	return x
}

// pass runs body over every chunk of q, chunk-parallel on pool.
func pass(t testing.TB, pool *jobs.Pool, q *Query1[pos], batch int, body func(c *Chunk)) {
	n, err := q.Prepare(batch)
	require.NoError(t, err)
	h, err := pool.ParallelFor(jobs.Job{Label: jobs.Label{Name: q.d.name}, Run: q.Job(body)}, n, 1)
	require.NoError(t, err)
	require.NoError(t, pool.Wait(h))
}

// frame switches off the rows whose entity id is a multiple of k (on the
// others), then returns the entities that the reader's On visits and the
// sum of their pos.X.
func (x *switcher) frame(t testing.TB, pool *jobs.Pool, batch int, k uint32) ([]ark.Entity, float64) {
	w := x.s.w
	require.NoError(t, w.BeginFrame())
	pass(t, pool, x.wq, batch, func(c *Chunk) {
		for i, e := range c.Entities() {
			x.wen.Set(c, i, e.ID()%k != 0)
		}
	})
	var on []ark.Entity
	sums := make([]float64, 0)
	n, err := x.rq.Prepare(batch)
	require.NoError(t, err)
	sums = slices.Grow(sums, n)[:n]
	h, err := pool.ParallelFor(jobs.Job{Label: jobs.Label{Name: "read"}, Run: x.rq.Job(func(c *Chunk) {
		p := x.rpos.Column(c)
		for _, i := range x.ren.On(c) {
			sums[c.Index()] += p[i].X
		}
	})}, n, 1)
	require.NoError(t, err)
	require.NoError(t, pool.Wait(h))
	for i := range n {
		c := &x.rq.chunks[i]
		for _, r := range x.ren.On(c) {
			on = append(on, c.Entities()[r])
		}
	}
	_, err = w.EndFrame()
	require.NoError(t, err)
	require.NoError(t, pool.Reset())
	total := 0.0
	for _, s := range sums {
		total += s
	}
	return on, total
}

// Switches from chunk jobs are seen by the next system's On, by
// IsEnabled, and by Off; what is visited does not depend on the worker
// count or the batch size.
func TestEnabledSwitchFromJobs(t *testing.T) {
	var want string
	for _, workers := range []int{0, 1, 2, 4} {
		for _, batch := range []int{1, 50, 64, 300} {
			x := newSwitcher(t, 500)
			pool := newPool(t, workers)
			var got string
			for _, k := range []uint32{3, 2, 5} {
				on, sum := x.frame(t, pool, batch, k)
				for _, e := range entities(x.s.w) {
					en, err := IsEnabled[pos](x.s.w, e)
					require.NoError(t, err)
					require.Equal(t, e.ID()%k != 0, en, "entity %v", e)
					require.Equal(t, en, slices.Contains(on, e))
				}
				got += fmt.Sprint(on, sum)
			}
			if want == "" {
				want = got
			}
			require.Equal(t, want, got, "W=%d batch=%d", workers, batch)
		}
	}
}

// Each reads the state 64 table rows at a time, when it reaches the
// first of them in the chunk: a row that the loop switches off ahead of
// itself is still visited within those 64 and skipped from the next; a
// break ends the loop.
func TestEnabledEach(t *testing.T) {
	for _, workers := range []int{0, 2} {
		for _, batch := range []int{50, 64, 300} {
			x := newSwitcher(t, 500)
			require.NoError(t, x.s.w.BeginFrame())
			visited := make([][]int, 500) // by chunk
			starts, lens := make([]int, 500), make([]int, 500)
			pass(t, newPool(t, workers), x.wq, batch, func(c *Chunk) {
				var rows []int
				for i := range x.wen.Each(c) {
					rows = append(rows, i)
					if i+1 < c.Len() {
						x.wen.Set(c, i+1, false)
					}
				}
				for range x.wen.Each(c) {
					rows = append(rows, -1)
					break
				}
				visited[c.Index()], starts[c.Index()], lens[c.Index()] = rows, c.start, c.Len()
			})
			_, err := x.s.w.EndFrame()
			require.NoError(t, err)
			require.NotEmpty(t, visited[0])
			for k, rows := range visited {
				if rows == nil {
					continue
				}
				require.Equal(t, -1, rows[len(rows)-1], "W%d batch %d: one row, then break", workers, batch)
				var want []int
				for r := range lens[k] {
					if r == 0 || (starts[k]+r)%64 != 0 {
						want = append(want, r)
					}
				}
				require.Equal(t, want, rows[:len(rows)-1], "W%d batch %d chunk %d", workers, batch, k)
			}
		}
	}
}

// A pass that visits its rows through Each allocates nothing: the
// iterator is inlined with the loop, in each shape that the guide
// recommends: a function literal given to the query, a method value, a
// method that another method calls; and a helper that returns a function
// literal visits them through Runs or On, plain calls.
func TestEnabledEachAlloc(t *testing.T) {
	if raceOn {
		t.Skip("the race detector's instrumentation keeps the loop's state on the heap")
	}
	x := newSwitcher(t, 500)
	pool := newPool(t, 1)
	s := &eachSys{on: x.wen, sums: make([]int, 500)}
	shapes := map[string]func(c *Chunk){
		"literal": func(c *Chunk) {
			for i := range x.wen.Each(c) {
				s.sums[c.Index()] += i
			}
		},
		"method":           s.visit,
		"method in method": s.chunk,
		"helper of Runs":   runsBody(x.wen, s.sums),
	}
	for name, body := range shapes {
		job := jobs.Job{Label: jobs.Label{Name: "switch"}, Run: x.wq.Job(body)}
		allocs := testing.AllocsPerRun(10, func() {
			require.NoError(t, x.s.w.BeginFrame())
			n, err := x.wq.Prepare(64)
			require.NoError(t, err)
			h, err := pool.ParallelFor(job, n, 1)
			require.NoError(t, err)
			require.NoError(t, pool.Wait(h))
			_, err = x.s.w.EndFrame()
			require.NoError(t, err)
			require.NoError(t, pool.Reset())
		})
		require.Zero(t, allocs, name)
	}
	require.Positive(t, s.sums[0])
}

// eachSys visits the rows that are on through Each, in a method.
type eachSys struct {
	on   EnabledWriter[pos]
	sums []int
}

func (s *eachSys) visit(c *Chunk) {
	for i := range s.on.Each(c) {
		s.sums[c.Index()] += i
	}
}

// chunk calls visit, which the compiler inlines into it.
func (s *eachSys) chunk(c *Chunk) {
	s.visit(c)
	s.sums[c.Index()]++
}

// runsBody is a helper that returns the body of a pass: its loops are
// over Runs and On, which need no inlining.
func runsBody(on EnabledWriter[pos], sums []int) func(c *Chunk) {
	return func(c *Chunk) {
		for _, r := range on.Runs(c) {
			for i := r.Start; i < r.End; i++ {
				sums[c.Index()] += i
			}
		}
		for _, i := range on.On(c) {
			sums[c.Index()] += i
		}
	}
}

// A component is on when an entity gets it: a new entity, a reused id,
// and an entity that lost T and got it again.
func TestEnabledOnWhenGot(t *testing.T) {
	x := newSwitcher(t, 100)
	w := x.s.w
	x.frame(t, newPool(t, 0), 64, 1) // every entity off
	ents := entities(w)
	b := w.NewCommands()
	b.Despawn(ents[0])
	x.s.posC.Remove(b, ents[1])
	fresh := b.Spawn()
	x.s.posC.Add(b, fresh, pos{})
	_, err := w.Apply(b)
	require.NoError(t, err)
	b = w.NewCommands()
	x.s.posC.Add(b, ents[1], pos{})
	_, err = w.Apply(b)
	require.NoError(t, err)
	got := 0
	for _, e := range entities(w) {
		if e == ents[1] || !slices.Contains(ents, e) {
			got++
			on, err := IsEnabled[pos](w, e)
			require.NoError(t, err)
			require.True(t, on, "entity %v", e)
		}
	}
	require.Equal(t, 2, got)
	on, err := IsEnabled[pos](w, ents[2])
	require.NoError(t, err)
	require.False(t, on)
}

// A switch from a job marks its row's block changed for a Changed filter,
// and only a switch that changes the state.
func TestChangedSeesASwitch(t *testing.T) {
	x := newSwitcher(t, 500)
	w := x.s.w
	watch := newWatcher(w, "watch", false)
	pool := newPool(t, 0)
	frame := func(row func(e ark.Entity) (bool, bool)) []ark.Entity {
		require.NoError(t, w.BeginFrame())
		pass(t, pool, x.wq, 64, func(c *Chunk) {
			for i, e := range c.Entities() {
				if set, on := row(e); set {
					x.wen.Set(c, i, on)
				}
			}
		})
		watch.run(t, 64)
		_, err := w.EndFrame()
		require.NoError(t, err)
		return slices.Clone(watch.seen)
	}
	frame(func(ark.Entity) (bool, bool) { return false, false }) // the first frame sees everything
	target := entities(w)[130]
	seen := frame(func(e ark.Entity) (bool, bool) { return e == target, false })
	require.Contains(t, seen, target)
	require.Less(t, len(seen), 100, "only the switched row's block")
	seen = frame(func(e ark.Entity) (bool, bool) { return e == target, false }) // off again: no change
	require.Empty(t, seen)
}

// A restore and a load put the bits back; a file of the older format is
// refused with its typed error.
func TestEnabledSnapshotAndSave(t *testing.T) {
	x := newSwitcher(t, 300)
	w := x.s.w
	pool := newPool(t, 0)
	state := func() string {
		var s string
		for _, e := range entities(w) {
			on, err := IsEnabled[pos](w, e)
			require.NoError(t, err)
			s += fmt.Sprint(e, on)
		}
		return s
	}
	x.frame(t, pool, 64, 3)
	var snap Snapshot
	require.NoError(t, w.Snapshot(&snap))
	var file bytes.Buffer
	require.NoError(t, w.Save(&file))
	want := state()
	x.frame(t, pool, 64, 2)
	require.NotEqual(t, want, state())
	require.NoError(t, w.Restore(&snap))
	require.Equal(t, want, state())
	x.frame(t, pool, 64, 2)
	require.NoError(t, w.Load(bytes.NewReader(file.Bytes())))
	require.Equal(t, want, state())

	old := bytes.Clone(file.Bytes())
	binary.LittleEndian.PutUint32(old[8:], 1)
	err := w.Load(bytes.NewReader(old))
	var e *Error
	require.ErrorAs(t, err, &e)
	require.Equal(t, ErrSaveVersion, e.Code)
	require.Equal(t, want, state())

	other := newScene(t, 300, Options{}) // made with other systems: refused
	err = other.w.Load(bytes.NewReader(file.Bytes()))
	require.ErrorAs(t, err, &e)
	require.Equal(t, ErrBadFile, e.Code)
}

// A world that has not made a component enableable yet (the code that
// switches it has not run) loads a file of a world that had: the
// component becomes enableable, with the file's states.
func TestLoadMakesEnableable(t *testing.T) {
	a := NewWorld(Options{})
	pa := NewComponent[pos](a)
	b := a.NewCommands()
	for i := range 130 {
		pa.Add(b, b.Spawn(), pos{X: float64(i)})
	}
	_, err := a.Apply(b)
	require.NoError(t, err)
	for _, e := range entities(a) {
		if e.ID()%3 == 0 {
			require.NoError(t, SetEnabled[pos](a, e, false))
		}
	}
	var file bytes.Buffer
	require.NoError(t, a.Save(&file))
	fresh := NewWorld(Options{})
	pf := NewComponent[pos](fresh)
	require.NoError(t, fresh.Load(&file))
	for _, e := range entities(a) {
		on, err := IsEnabled[pos](fresh, e)
		require.NoError(t, err)
		require.Equal(t, e.ID()%3 != 0, on, "%v", e)
	}
	ha, err := a.Hash(pa)
	require.NoError(t, err)
	hf, err := fresh.Hash(pf)
	require.NoError(t, err)
	require.Equal(t, ha, hf)
}

// For the safety checks a switch is a write of the component and a
// filter by its state a read.
func TestEnabledDeclaresItsComponent(t *testing.T) {
	x := newSwitcher(t, 10)
	key := component[pos](x.s.w).key
	require.Contains(t, x.sw.decls, safety.Decl{Key: key, Mode: safety.Write})
	require.Contains(t, x.rd.decls, safety.Decl{Key: key, Mode: safety.Read})

	// a column and the state of one component are one declaration, of the
	// stronger mode, whichever comes first
	d := x.s.w.System("both")
	ReadEnabled[pos](d)
	Write[pos](d)
	WriteEnabled[pos](d)
	require.Equal(t, []safety.Decl{{Key: key, Mode: safety.Write}}, d.decls)
}

// Misuse answers with typed errors: another system's token, the zero
// token, a row out of the chunk, an entity without the component, a call
// during a frame.
func TestEnabledMisuse(t *testing.T) {
	x := newSwitcher(t, 100)
	w := x.s.w
	code := func(f func()) (c fault.Code) {
		defer func() {
			var e *Error
			if r := recover(); r != nil {
				if err, ok := r.(error); ok && errors.As(err, &e) {
					c = e.Code
				}
			}
		}()
		f()
		return ""
	}
	require.NoError(t, w.BeginFrame())
	n, err := x.rq.Prepare(64)
	require.NoError(t, err)
	require.Positive(t, n)
	c := &x.rq.chunks[0]
	require.Equal(t, ErrUndeclared, code(func() { x.wen.Set(c, 0, false) }))
	require.Equal(t, ErrUndeclared, code(func() { x.wen.Runs(c) }))
	require.Equal(t, ErrBadArgument, code(func() { EnabledReader[pos]{}.Runs(c) }))
	require.Equal(t, ErrUndeclared, code(func() {
		for range x.wen.Each(c) {
		}
	}))
	require.Equal(t, ErrBadArgument, code(func() {
		for range (EnabledReader[pos]{}).Each(c) {
		}
	}))
	require.Equal(t, ErrBadArgument, code(func() { EnabledWriter[pos]{}.Set(c, 0, false) }))
	require.Equal(t, ErrBadArgument, code(func() { x.ren.Enabled(c, c.Len()) }))
	_, err = IsEnabled[pos](w, entities(w)[0])
	requireCode(t, ErrLocked, err)
	_, err = w.EndFrame()
	require.Error(t, err) // the refusals above went to EndFrame
	var hp Entity
	for _, e := range entities(w) {
		if ok := w.unsafe.Has(e, x.s.hpC.id); !ok {
			hp = e
			break
		}
	}
	requireCode(t, ErrNotFound, SetEnabled[health](w, hp, false))
}

func requireCode(t *testing.T, code fault.Code, err error) {
	t.Helper()
	var e *Error
	require.ErrorAs(t, err, &e)
	require.Equal(t, code, e.Code)
}

// Commands switch a component on and off at playback, from the owner's
// buffers and from jobs'; the next frame's passes see it. An entity that
// is dead or lacks the component, or a component that nothing made
// enableable, is a problem of the playback (ErrBadCommand), and the
// other commands still apply.
func TestEnabledByCommands(t *testing.T) {
	x := newSwitcher(t, 200)
	w := x.s.w
	pool := newPool(t, 2)
	ents := entities(w)
	b := w.NewCommands()
	for _, e := range ents[:50] {
		x.s.posC.SetEnabled(b, e, false)
	}
	x.s.posC.SetEnabled(b, ents[0], true) // later commands win
	r, err := w.Apply(b)
	require.NoError(t, err)
	require.NoError(t, r.Err())
	require.Equal(t, 51, r.Applied)
	for i, e := range ents[:60] {
		on, err := IsEnabled[pos](w, e)
		require.NoError(t, err)
		require.Equal(t, i == 0 || i >= 50, on, "entity %d", i)
	}
	x.checkRows(t, 64)

	// from a job's buffer: switch the next entity's pos off
	require.NoError(t, w.BeginFrame())
	pass(t, pool, x.wq, 64, func(c *Chunk) {
		cb := c.Commands()
		for _, e := range c.Entities() {
			if e == ents[100] {
				x.s.posC.SetEnabled(cb, ents[101], false)
				x.s.tagC.SetEnabled(cb, ents[101], false) // tag is not enableable
			}
		}
	})
	rep, err := w.EndFrame()
	require.NoError(t, err)
	requireCode(t, ErrBadCommand, rep.Err())
	require.Len(t, rep.Problems, 1)
	require.Contains(t, rep.Problems[0].Reason, "not switched on and off anywhere")
	require.NoError(t, pool.Reset())
	on, err := IsEnabled[pos](w, ents[101])
	require.NoError(t, err)
	require.False(t, on)
	x.checkRows(t, 64)

	var noHP Entity
	for _, e := range ents {
		if !w.unsafe.Has(e, x.s.hpC.id) {
			noHP = e
			break
		}
	}
	b.Despawn(ents[2])
	x.s.posC.SetEnabled(b, ents[2], true)  // dead by then
	x.s.hpC.SetEnabled(b, noHP, false)     // lacks health
	x.s.posC.SetEnabled(b, ents[3], false) // still applies
	r, err = w.Apply(b)
	require.NoError(t, err)
	requireCode(t, ErrBadCommand, r.Err())
	require.Len(t, r.Problems, 2)
	require.Equal(t, "switch on", r.Problems[0].Op)
	require.Contains(t, r.Problems[1].Reason, "has no")
	on, err = IsEnabled[pos](w, ents[3])
	require.NoError(t, err)
	require.False(t, on)
}

// The on/off bits count in the world's hash and digest: switching a
// component changes both, switching it back restores them.
func TestEnabledInHashAndDigest(t *testing.T) {
	x := newSwitcher(t, 100)
	w := x.s.w
	sums := func() [2]uint64 {
		h, err := w.Hash(x.s.posC)
		require.NoError(t, err)
		d, err := w.Digest(x.s.posC)
		require.NoError(t, err)
		return [2]uint64{h, d}
	}
	all := sums()
	e := entities(w)[42]
	require.NoError(t, SetEnabled[pos](w, e, false))
	off := sums()
	require.NotEqual(t, all[0], off[0])
	require.NotEqual(t, all[1], off[1])
	require.NoError(t, SetEnabled[pos](w, e, true))
	require.Equal(t, all, sums())
}

// A switch by the owner (SetEnabled) or played back from a command marks
// only the block of 64 rows of the entity's row for a Changed filter, as
// a switch from a job does, on every batch size.
func TestChangedSeesAnOwnerSwitch(t *testing.T) {
	for _, batch := range []int{1, 64, 100} {
		x := newSwitcher(t, 600)
		w := x.s.w
		watch := newWatcher(w, "watch", false)
		frame := func() []ark.Entity {
			require.NoError(t, w.BeginFrame())
			watch.run(t, batch)
			_, err := w.EndFrame()
			require.NoError(t, err)
			return slices.Clone(watch.seen)
		}
		frame() // the first frame sees everything
		ents := entities(w)
		block := func(e ark.Entity) (out []ark.Entity) { // the entities of e's block of 64 rows of its table
			at := locations(w)
			for o, l := range at {
				if l.table == at[e].table && l.row>>6 == at[e].row>>6 {
					out = append(out, o)
				}
			}
			return out
		}
		for _, k := range []int{3, 100, 130} {
			require.NoError(t, SetEnabled[pos](w, ents[k], false))
			seen := frame()
			require.ElementsMatch(t, block(ents[k]), seen, "batch %d, SetEnabled of entity %d", batch, k)
			require.Empty(t, frame())
		}
		b := w.NewCommands()
		x.s.posC.SetEnabled(b, ents[200], false)
		_, err := w.Apply(b)
		require.NoError(t, err)
		require.ElementsMatch(t, block(ents[200]), frame(), "batch %d, a played back switch", batch)
	}
}

// IsEnabled of an entity without the component says that it reads.
func TestIsEnabledNotFoundText(t *testing.T) {
	x := newSwitcher(t, 10)
	e := entities(x.s.w)[0]
	b := x.s.w.NewCommands()
	b.Despawn(e)
	_, err := x.s.w.Apply(b)
	require.NoError(t, err)
	_, err = IsEnabled[pos](x.s.w, e)
	requireCode(t, ErrNotFound, err)
	require.Contains(t, err.Error(), "read the state of")
	require.NotContains(t, err.Error(), "switch")
}

// A row whose entity lacks T is neither on nor off. With T an optional
// column, On, Off, Each and Runs skip the rows of a table without it,
// Enabled reports false and Set refuses them (ErrNotFound); a query that
// carries T neither as a column nor as a With filter is refused
// (ErrNotInQuery) by each of them, whatever its tables hold.
func TestEnabledRowsWithoutT(t *testing.T) {
	s := newScene(t, 12, Options{}) // every entity has pos; a third has health
	w := s.w
	var hurt []ark.Entity
	for _, e := range entities(w) {
		if w.unsafe.Has(e, s.hpC.id) {
			hurt = append(hurt, e)
		}
	}
	require.Len(t, hurt, 4)
	require.NoError(t, SetEnabled[health](w, hurt[0], false))
	count := func(d *Decl, q *Query1[pos], on EnabledReader[health]) (n [5]int) {
		require.NoError(t, d.Err())
		require.NoError(t, w.BeginFrame())
		k, err := q.Prepare(64)
		require.NoError(t, err)
		for i := range k {
			c := &q.chunks[i]
			n[0] += len(on.On(c))
			n[1] += len(on.Off(c))
			for range on.Each(c) {
				n[2]++
			}
			for _, r := range on.Runs(c) {
				n[3] += r.End - r.Start
			}
			for r := range c.Len() {
				if on.Enabled(c, r) {
					n[4]++
				}
			}
		}
		_, err = w.EndFrame()
		require.NoError(t, err)
		return n
	}
	opt := w.System("optional")
	p, hp := Read[pos](opt), Read[health](opt)
	oq := NewQuery1(opt, p, Optional(hp))
	require.Equal(t, [5]int{3, 1, 3, 3, 3}, count(opt, oq, ReadEnabled[health](opt)))
	with := w.System("with")
	wq := NewQuery1(with, Read[pos](with), With[health]())
	require.Equal(t, [5]int{3, 1, 3, 3, 3}, count(with, wq, ReadEnabled[health](with)))

	// Set of a row without health, through an optional column
	sw := w.System("switch")
	set := WriteEnabled[health](sw)
	sq := NewQuery1(sw, Read[pos](sw), Optional(Read[health](sw)))
	require.NoError(t, w.BeginFrame())
	k, err := sq.Prepare(64)
	require.NoError(t, err)
	var lacking *Chunk
	for i := range k {
		if c := &sq.chunks[i]; sq.tables[c.table].cols[1] == nil {
			lacking = c
		}
	}
	require.NotNil(t, lacking)
	requirePanicCode(t, ErrNotFound, func() { set.Set(lacking, 0, false) })
	_, err = w.EndFrame()
	requireCode(t, ErrNotFound, err)

	// a query without health: every call is refused
	bare := w.System("bare")
	on := ReadEnabled[health](bare)
	bq := NewQuery1(bare, Read[pos](bare))
	calls := map[string]func(c *Chunk){
		"On":      func(c *Chunk) { on.On(c) },
		"Off":     func(c *Chunk) { on.Off(c) },
		"Runs":    func(c *Chunk) { on.Runs(c) },
		"Enabled": func(c *Chunk) { on.Enabled(c, 0) },
		"Each": func(c *Chunk) {
			for range on.Each(c) {
			}
		},
	}
	for name, call := range calls {
		require.NoError(t, w.BeginFrame())
		k, err := bq.Prepare(64)
		require.NoError(t, err)
		for i := range k {
			requirePanicCode(t, ErrNotInQuery, func() { call(&bq.chunks[i]) })
		}
		_, err = w.EndFrame()
		requireCode(t, ErrNotInQuery, err)
		require.Contains(t, err.Error(), "ecs.With[health]()", name)
	}
}

// requirePanicCode runs f, which must panic with an *Error of code.
func requirePanicCode(t *testing.T, code fault.Code, f func()) {
	t.Helper()
	defer func() {
		err, _ := recover().(error)
		requireCode(t, code, err)
	}()
	f()
}

// A component on for every entity hashes and digests as one that is not
// enableable: a world that made it enableable (a switch that turned
// nothing off) equals one that never did, as a rewind or load to before
// the first switch must.
func TestEnableableAllOnHashesAsPlain(t *testing.T) {
	sum := func(switchOn bool) (uint64, uint64) {
		w := NewWorld(Options{})
		pc := NewComponent[pos](w)
		b := w.NewCommands()
		for i := range 70 {
			pc.Add(b, b.Spawn(), pos{X: float64(i)})
		}
		_, err := w.Apply(b)
		require.NoError(t, err)
		if switchOn {
			require.NoError(t, SetEnabled[pos](w, entities(w)[3], true))
		}
		h, err := w.Hash(pc)
		require.NoError(t, err)
		d, err := w.Digest(pc)
		require.NoError(t, err)
		return h, d
	}
	h0, d0 := sum(false)
	h1, d1 := sum(true)
	require.Equal(t, h0, h1)
	require.Equal(t, d0, d1)
}
