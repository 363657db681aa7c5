package safety

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/weft-engine/weft/jobs"
)

// fixture: a serial pool, whose jobs stay in flight until Wait, and a
// registry with a few keys.
type fixture struct {
	pool                     *jobs.Pool
	reg                      *Registry
	tr                       *Tracker
	pos, vel, hp, time, heap Key
}

func newFixture(t testing.TB, opts Options) *fixture {
	pool, err := jobs.New(jobs.Options{Workers: 0})
	require.NoError(t, err)
	t.Cleanup(func() { pool.Close() })
	f := &fixture{pool: pool, reg: &Registry{}}
	keys := []*Key{&f.pos, &f.vel, &f.hp, &f.time, &f.heap}
	for i, n := range []string{"Position", "Velocity", "Health", "resource Time", "Heap"} {
		var err error
		*keys[i], err = f.reg.Register(n)
		require.NoError(t, err)
	}
	f.tr = NewTracker(pool, f.reg, opts)
	return f
}

func acc(decls ...Decl) *Access {
	a := &Access{}
	for _, d := range decls {
		a.Add(d.Key, d.Mode)
	}
	return a
}

func job(name string) jobs.Job { return jobs.Job{Label: jobs.Label{Name: name}} }

func TestAccess(t *testing.T) {
	var a, b Access
	a.Read(3)
	a.Write(3)
	assert.Equal(t, Write, a.Mode(3), "write wins over an earlier read")
	a.Read(3)
	assert.Equal(t, Write, a.Mode(3), "a later read keeps the write")
	b.Read(3)
	b.Read(400)
	k, ok := a.Conflict(&b)
	assert.True(t, ok)
	assert.Equal(t, Key(3), k)
	var c Access
	c.Read(400)
	_, ok = b.Conflict(&c)
	assert.False(t, ok, "read/read never conflicts")
	c.Union(&a)
	assert.Equal(t, Write, c.Mode(3))
	assert.Equal(t, Read, c.Mode(400))
	assert.Equal(t, None, c.Mode(5))
	assert.True(t, (&Access{}).Empty())
	assert.False(t, c.Empty())

	// Conflicts lists every conflicting key, lowest first: those where one
	// writes and the other uses the key.
	r := rand.New(rand.NewPCG(1, 1))
	for range 200 {
		var x, y Access
		for k := range Key(200) {
			for _, acc := range []*Access{&x, &y} {
				switch r.IntN(3) {
				case 1:
					acc.Read(k)
				case 2:
					acc.Write(k)
				}
			}
		}
		var want []Key
		for k := range Key(200) {
			mx, my := x.Mode(k), y.Mode(k)
			if mx != None && my != None && (mx == Write || my == Write) {
				want = append(want, k)
			}
		}
		assert.Equal(t, want, x.Conflicts(&y, nil))
		first, ok := x.Conflict(&y)
		assert.Equal(t, len(want) > 0, ok)
		if ok {
			assert.Equal(t, want[0], first)
		}
	}
}

// Unity's no-false-positive cases: each schedule is safe and must pass.
func TestNoFalsePositives(t *testing.T) {
	cases := []struct {
		name string
		run  func(f *fixture) error
	}{
		{"disjoint keys", func(f *fixture) error {
			f.tr.ScheduleAfter(job("a"), acc(Decl{f.pos, Write}))
			_, err := f.tr.ScheduleAfter(job("b"), acc(Decl{f.vel, Write}))
			return err
		}},
		{"read/read", func(f *fixture) error {
			f.tr.ScheduleAfter(job("a"), acc(Decl{f.pos, Read}))
			_, err := f.tr.ScheduleAfter(job("b"), acc(Decl{f.pos, Read}))
			return err
		}},
		{"chained", func(f *fixture) error {
			a, _ := f.tr.ScheduleAfter(job("a"), acc(Decl{f.pos, Write}))
			_, err := f.tr.ScheduleAfter(job("b"), acc(Decl{f.pos, Read}), a)
			return err
		}},
		{"transitive", func(f *fixture) error {
			a, _ := f.tr.ScheduleAfter(job("a"), acc(Decl{f.pos, Write}))
			b, _ := f.tr.ScheduleAfter(job("b"), acc(Decl{f.vel, Write}), a)
			_, err := f.tr.ScheduleAfter(job("c"), acc(Decl{f.pos, Read}), b)
			return err
		}},
		{"completed first", func(f *fixture) error {
			a, _ := f.tr.ScheduleAfter(job("a"), acc(Decl{f.pos, Write}))
			if err := f.pool.Wait(a); err != nil {
				return err
			}
			_, err := f.tr.ScheduleAfter(job("b"), acc(Decl{f.pos, Write}))
			return err
		}},
		{"writer after all readers", func(f *fixture) error {
			r1, _ := f.tr.ScheduleAfter(job("r1"), acc(Decl{f.pos, Read}))
			r2, _ := f.tr.ScheduleAfter(job("r2"), acc(Decl{f.pos, Read}))
			_, err := f.tr.ScheduleAfter(job("w"), acc(Decl{f.pos, Write}), r1, r2)
			return err
		}},
		{"writer after a combine of the readers", func(f *fixture) error {
			r1, _ := f.tr.ScheduleAfter(job("r1"), acc(Decl{f.pos, Read}))
			r2, _ := f.tr.ScheduleAfter(job("r2"), acc(Decl{f.pos, Read}))
			all, err := f.tr.Combine(r1, r2)
			if err != nil {
				return err
			}
			_, err = f.tr.ScheduleAfter(job("w"), acc(Decl{f.pos, Write}), all)
			return err
		}},
		{"explicit after derived", func(f *fixture) error {
			f.tr.Schedule(job("a"), acc(Decl{f.pos, Write}))
			b, _ := f.tr.Schedule(job("b"), acc(Decl{f.pos, Read}, Decl{f.vel, Write}))
			_, err := f.tr.ScheduleAfter(job("c"), acc(Decl{f.pos, Write}, Decl{f.vel, Read}), b)
			return err
		}},
		{"after a parallel-for", func(f *fixture) error {
			a, _ := f.tr.ParallelForAfter(jobs.Job{Label: jobs.Label{Name: "a"}, Run: func(*jobs.Ctx) {}}, acc(Decl{f.pos, Write}), 100, 8)
			_, err := f.tr.ParallelForAfter(jobs.Job{Label: jobs.Label{Name: "b"}, Run: func(*jobs.Ctx) {}}, acc(Decl{f.pos, Read}), 100, 8, a)
			return err
		}},
		{"after a group of chunk jobs", func(f *fixture) error {
			w0, _ := f.tr.Schedule(job("w0"), acc(Decl{f.vel, Write}))
			g, err := f.tr.ScheduleChunks(job("g"), acc(Decl{f.pos, Write}, Decl{f.vel, Read}), 5)
			if err != nil {
				return err
			}
			_ = w0
			_, err = f.tr.ScheduleAfter(job("c"), acc(Decl{f.pos, Read}, Decl{f.vel, Write}), g)
			return err
		}},
		{"empty access", func(f *fixture) error {
			f.tr.ScheduleAfter(job("a"), acc(Decl{f.pos, Write}))
			_, err := f.tr.ScheduleAfter(job("b"), acc())
			return err
		}},
		{"previous frame", func(f *fixture) error {
			f.tr.ScheduleAfter(job("a"), acc(Decl{f.pos, Write}))
			if err := f.pool.Reset(); err != nil {
				return err
			}
			f.tr.Reset()
			_, err := f.tr.ScheduleAfter(job("b"), acc(Decl{f.pos, Write}))
			return err
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.NoError(t, c.run(newFixture(t, Options{})))
		})
	}
}

// Every missing dependency gives the error with the exact text.
func TestMissingDependencyText(t *testing.T) {
	if !checksCompiled {
		t.Skip("checks are compiled out (weft_nochecks)")
	}
	cases := []struct {
		name      string
		earlier   Mode
		later     Mode
		key       func(f *fixture) Key
		chunk     int
		unrelated bool
		want      string
	}{
		{"write then read", Write, Read, func(f *fixture) Key { return f.pos }, 0, false,
			`safety: WEFT-S001: the previously scheduled job "physics.Integrate" writes Position. You are trying to schedule "cull.Frustum", which reads Position. To guarantee safety, make "physics.Integrate" a dependency of "cull.Frustum" (or complete it first).`},
		{"read then write", Read, Write, func(f *fixture) Key { return f.vel }, 0, false,
			`safety: WEFT-S001: the previously scheduled job "physics.Integrate" reads Velocity. You are trying to schedule "cull.Frustum", which writes Velocity. To guarantee safety, make "physics.Integrate" a dependency of "cull.Frustum" (or complete it first).`},
		{"write then write", Write, Write, func(f *fixture) Key { return f.hp }, 0, false,
			`safety: WEFT-S001: the previously scheduled job "physics.Integrate" writes Health. You are trying to schedule "cull.Frustum", which writes Health. To guarantee safety, make "physics.Integrate" a dependency of "cull.Frustum" (or complete it first).`},
		{"resource, with a chunk", Write, Read, func(f *fixture) Key { return f.time }, 3, false,
			`safety: WEFT-S001: the previously scheduled job "physics.Integrate"[3] writes resource Time. You are trying to schedule "cull.Frustum"[3], which reads resource Time. To guarantee safety, make "physics.Integrate"[3] a dependency of "cull.Frustum"[3] (or complete it first).`},
		{"an unrelated dependency does not help", Write, Read, func(f *fixture) Key { return f.pos }, 0, true,
			`safety: WEFT-S001: the previously scheduled job "physics.Integrate" writes Position. You are trying to schedule "cull.Frustum", which reads Position. To guarantee safety, make "physics.Integrate" a dependency of "cull.Frustum" (or complete it first).`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t, Options{})
			k := c.key(f)
			_, err := f.tr.ScheduleAfter(jobs.Job{Label: jobs.Label{Name: "physics.Integrate", Chunk: c.chunk}}, acc(Decl{k, c.earlier}))
			require.NoError(t, err)
			var deps []jobs.Handle
			if c.unrelated {
				u, err := f.tr.ScheduleAfter(job("anim"), acc(Decl{f.heap, Write}))
				require.NoError(t, err)
				deps = append(deps, u)
			}
			before := f.pool.Snapshot()
			_, err = f.tr.ScheduleAfter(jobs.Job{Label: jobs.Label{Name: "cull.Frustum", Chunk: c.chunk}}, acc(Decl{k, c.later}), deps...)
			require.Error(t, err)
			assert.Equal(t, c.want, err.Error())
			var se *Error
			require.True(t, errors.As(err, &se))
			assert.Equal(t, ErrMissingDependency, se.Code)
			assert.Equal(t, "physics.Integrate", se.Detail.Earlier)
			assert.Equal(t, "cull.Frustum", se.Detail.Later)
			assert.Equal(t, f.reg.Name(k), se.Detail.Key)
			assert.Equal(t, c.earlier, se.Detail.EarlierMode)
			assert.Equal(t, c.later, se.Detail.LaterMode)
			assert.ErrorIs(t, err, ErrMissingDependency)
			assert.Equal(t, before, f.pool.Snapshot(), "a refused job is not scheduled")
		})
	}
}

func TestNoChecks(t *testing.T) {
	f := newFixture(t, Options{NoChecks: true})
	_, err := f.tr.ScheduleAfter(job("a"), acc(Decl{f.pos, Write}))
	require.NoError(t, err)
	_, err = f.tr.ScheduleAfter(job("b"), acc(Decl{f.pos, Read}))
	assert.NoError(t, err, "the check is off")
	f.tr.SetChecks(true)
	_, err = f.tr.ScheduleAfter(job("c"), acc(Decl{f.pos, Read}))
	if checksCompiled {
		assert.ErrorIs(t, err, ErrMissingDependency, "and on again")
	}
}

// randomAccess gives each of n keys no access, a read or a write.
func randomAccess(r *rand.Rand, n int) *Access {
	a := &Access{}
	for k := range n {
		a.Add(Key(k), Mode(r.IntN(3)))
	}
	return a
}

// reaches is brute-force reachability along next.
func reaches(from, to int, next func(v int) []int) bool {
	seen := map[int]bool{}
	stack := []int{from}
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if v == to {
			return true
		}
		if !seen[v] {
			seen[v] = true
			stack = append(stack, next(v)...)
		}
	}
	return false
}

// reachable is brute-force reachability over the recorded dependencies.
func reachable(t *Tracker, from, to int) bool {
	return reaches(from, to, func(v int) []int {
		var out []int
		r := t.at(v)
		for _, d := range t.deps[r.d0:r.d1] {
			out = append(out, int(d))
		}
		return out
	})
}

func directEdge(t *Tracker, from, to int) bool {
	r := t.at(from)
	for _, d := range t.deps[r.d0:r.d1] {
		if int(d) == to {
			return true
		}
	}
	return false
}

// Property: derived dependencies order every conflicting pair (so two
// conflicting jobs are never runnable at once) and never put a direct edge
// between two jobs that do not conflict.
func TestPropertyDerivedOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for iter := range 200 {
		f := newFixture(t, Options{})
		nk := 1 + r.IntN(5)
		n := 2 + r.IntN(25)
		hs := make([]jobs.Handle, n)
		as := make([]*Access, n)
		for i := range n {
			as[i] = randomAccess(r, nk)
			var err error
			hs[i], err = f.tr.Schedule(job("j"), as[i])
			require.NoError(t, err)
		}
		for i := range n {
			for j := i + 1; j < n; j++ {
				_, conflict := as[i].Conflict(as[j])
				later, earlier := hs[j].Index(), hs[i].Index()
				if conflict {
					require.True(t, reachable(f.tr, later, earlier), "iter %d: conflicting jobs %d and %d are unordered", iter, i, j)
				} else {
					require.False(t, directEdge(f.tr, later, earlier), "iter %d: jobs %d and %d do not conflict but are ordered", iter, i, j)
				}
			}
		}
		all, err := f.pool.Combine(hs...)
		require.NoError(t, err)
		require.NoError(t, f.pool.Wait(all))
	}
}

// Property: the check (which looks only at the last writer and the readers
// since) refuses a job exactly when brute force over all earlier jobs finds
// a conflicting one in flight that is not a prerequisite. In flight means
// not observed by the owner: neither waited on nor a prerequisite of a job
// waited on, whatever else the serial executor ran while it waited.
func TestPropertyCheckIsExact(t *testing.T) {
	if !checksCompiled {
		t.Skip("checks are compiled out (weft_nochecks)")
	}
	r := rand.New(rand.NewPCG(3, 4))
	refused := 0
	for range 200 {
		f := newFixture(t, Options{})
		nk := 1 + r.IntN(4)
		var hs, waited []jobs.Handle
		var as []*Access
		for range 2 + r.IntN(20) {
			a := randomAccess(r, nk)
			var deps []jobs.Handle
			for _, h := range hs {
				if r.IntN(3) == 0 {
					deps = append(deps, h)
				}
			}
			if len(hs) > 0 && r.IntN(8) == 0 {
				w := hs[r.IntN(len(hs))]
				require.NoError(t, f.pool.Wait(w))
				waited = append(waited, w)
			}
			want := false
			for i, h := range hs {
				_, conflict := as[i].Conflict(a)
				seen := false
				for _, w := range waited {
					seen = seen || w == h || reachable(f.tr, w.Index(), h.Index())
				}
				if !conflict || seen {
					continue
				}
				pre := false
				for _, d := range deps {
					pre = pre || reachable(f.tr, d.Index(), h.Index())
				}
				want = want || !pre
			}
			h, err := f.tr.ScheduleAfter(job("j"), a, deps...)
			if want {
				require.ErrorIs(t, err, ErrMissingDependency)
				refused++
				continue
			}
			require.NoError(t, err)
			hs, as = append(hs, h), append(as, a)
		}
	}
	assert.Greater(t, refused, 50, "the generator should exercise refusals")
}

func TestSteadyStateAllocs(t *testing.T) {
	f := newFixture(t, Options{})
	a := acc(Decl{f.pos, Write}, Decl{f.vel, Read})
	b := acc(Decl{f.pos, Read}, Decl{f.hp, Write})
	run := func(*jobs.Ctx) {}
	frame := func() {
		var last jobs.Handle
		for i := range 50 {
			h, err := f.tr.Schedule(jobs.Job{Label: jobs.Label{Name: "a", Chunk: i}, Run: run}, a)
			if err != nil {
				panic(err)
			}
			last, err = f.tr.ScheduleAfter(jobs.Job{Label: jobs.Label{Name: "b", Chunk: i}, Run: run}, b, h)
			if err != nil {
				panic(err)
			}
		}
		p, err := f.tr.ParallelFor(jobs.Job{Label: jobs.Label{Name: "p"}, Run: run}, a, 1000, 64)
		if err != nil {
			panic(err)
		}
		g, err := f.tr.ScheduleChunks(jobs.Job{Label: jobs.Label{Name: "g"}, Run: run}, b, 16)
		if err != nil {
			panic(err)
		}
		all, _ := f.tr.Combine(last, p, g)
		if err := f.pool.Wait(all); err != nil {
			panic(err)
		}
		if err := f.pool.Reset(); err != nil {
			panic(err)
		}
		f.tr.Reset()
	}
	frame()
	assert.Zero(t, testing.AllocsPerRun(20, frame))
}

// Chunk jobs of one group wait for the conflicting jobs before them, not
// for each other; a later writer waits for the whole group.
func TestScheduleChunks(t *testing.T) {
	f := newFixture(t, Options{})
	w0, err := f.tr.Schedule(job("w0"), acc(Decl{f.vel, Write}))
	require.NoError(t, err)
	var ran []int
	j := jobs.Job{Label: jobs.Label{Name: "g"}, Run: func(c *jobs.Ctx) {
		lo, hi := c.Range()
		require.Equal(t, c.Label().Chunk, lo)
		require.Equal(t, lo+1, hi)
		ran = append(ran, lo)
	}}
	g, err := f.tr.ScheduleChunks(j, acc(Decl{f.pos, Write}, Decl{f.vel, Read}), 4)
	require.NoError(t, err)
	for i := range 4 {
		idx := w0.Index() + 1 + i
		assert.True(t, directEdge(f.tr, g.Index(), idx), "the group handle follows chunk %d", i)
	}
	assert.True(t, reachable(f.tr, g.Index(), w0.Index()))
	w1, err := f.tr.Schedule(job("w1"), acc(Decl{f.pos, Write}))
	require.NoError(t, err)
	assert.True(t, directEdge(f.tr, w1.Index(), g.Index()))
	require.NoError(t, f.pool.Wait(w1))
	assert.ElementsMatch(t, []int{0, 1, 2, 3}, ran)
}

func TestParallelForBadBatchIsRefused(t *testing.T) {
	pool, err := jobs.New(jobs.Options{Workers: 0})
	require.NoError(t, err)
	defer pool.Close()
	var reg Registry
	k, _ := reg.Register("K")
	tr := NewTracker(pool, &reg, Options{})
	var a Access
	a.Write(k)
	run := func(*jobs.Ctx) {}
	_, err = tr.ParallelFor(jobs.Job{Run: run}, &a, 10, 0)
	require.ErrorIs(t, err, jobs.ErrBadArgument)
	_, err = tr.ParallelForAfter(jobs.Job{Run: run}, &a, 10, -1)
	require.ErrorIs(t, err, jobs.ErrBadArgument)
}

// Chunk-wise chaining: copy k of the second group waits for copy k of the
// first, not for the whole group, and the check accepts it; other
// conflicts are still caught, and a handle that is no group is refused.
func TestChunksAfterChained(t *testing.T) {
	f := newFixture(t, Options{})
	var ran []string
	j := func(name string) jobs.Job {
		return jobs.Job{Label: jobs.Label{Name: name}, Run: func(c *jobs.Ctx) {
			ran = append(ran, fmt.Sprintf("%s%d", name, c.Label().Chunk))
		}}
	}
	w, err := f.tr.Schedule(job("w"), acc(Decl{f.vel, Write}))
	require.NoError(t, err)
	a, err := f.tr.ChunksAfter(j("a"), acc(Decl{f.pos, Write}, Decl{f.vel, Read}), 4, jobs.Handle{}, w)
	require.NoError(t, err)
	b, err := f.tr.ChunksAfter(j("b"), acc(Decl{f.pos, Write}), 4, a)
	require.NoError(t, err)
	a0, b0 := w.Index()+1, a.Index()+1 // the copies sit right before their group's handle
	for k := range 4 {
		for i := range 4 {
			assert.Equal(t, i == k, directEdge(f.tr, b0+k, a0+i), "b%d after a%d", k, i)
		}
		assert.False(t, directEdge(f.tr, b0+k, a.Index()), "b%d does not wait for all of a", k)
		assert.True(t, reachable(f.tr, b0+k, w.Index()), "b%d is after w through a%d", k, k)
	}

	if checksCompiled { // the check of explicit dependencies
		_, err = f.tr.ScheduleAfter(job("late"), acc(Decl{f.pos, Read}))
		require.ErrorIs(t, err, ErrMissingDependency, "b is in flight and writes Position")
		_, err = f.tr.ChunksAfter(j("c"), acc(Decl{f.pos, Write}, Decl{f.vel, Write}), 4, b)
		require.ErrorIs(t, err, ErrMissingDependency, "chaining onto b does not excuse a, which reads Velocity")
	}
	_, err = f.tr.ChunksAfter(j("c"), acc(Decl{f.pos, Write}), 3, b)
	require.ErrorIs(t, err, ErrBadArgument, "another chunk count")
	_, err = f.tr.ChunksAfter(j("c"), acc(Decl{f.pos, Write}), 4, w)
	require.ErrorIs(t, err, ErrBadArgument, "w is no group")

	require.NoError(t, f.pool.Wait(b))
	require.Len(t, ran, 8)
	for k := range 4 {
		assert.Less(t, slices.Index(ran, fmt.Sprintf("a%d", k)), slices.Index(ran, fmt.Sprintf("b%d", k)))
	}
}

// An empty chunk group still waits for its prerequisites (and for the group
// it chains onto), and a job after a chained group is after the group it
// chained onto too.
func TestChunksAfterEdgeCases(t *testing.T) {
	f := newFixture(t, Options{})
	w, err := f.tr.Schedule(job("w"), acc(Decl{f.vel, Write}))
	require.NoError(t, err)
	empty, err := f.tr.ChunksAfter(job("empty"), acc(Decl{f.pos, Write}, Decl{f.vel, Read}), 0, jobs.Handle{}, w)
	require.NoError(t, err)
	assert.True(t, directEdge(f.tr, empty.Index(), w.Index()))
	o, err := f.pool.Outcome(empty)
	require.NoError(t, err)
	assert.False(t, o.Done(), "the empty group waits for w")

	a, err := f.tr.ChunksAfter(job("a"), acc(Decl{f.pos, Write}), 4, jobs.Handle{}, empty)
	require.NoError(t, err)
	b, err := f.tr.ChunksAfter(job("b"), acc(Decl{f.pos, Read}), 4, a)
	require.NoError(t, err)
	_, err = f.tr.ScheduleAfter(job("d"), acc(Decl{f.pos, Write}), b)
	assert.NoError(t, err, "d after b is after a: each copy of b follows its twin in a")
	require.NoError(t, f.pool.Wait(b))
}
