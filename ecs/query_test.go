package ecs

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/weft-engine/weft/internal/fault"
	"github.com/weft-engine/weft/jobs"
	"github.com/weft-engine/weft/safety"
)

// Chunk jobs on 0..8 workers write disjoint ranges of one column and give
// the same world as the serial executor.
func TestChunkJobsMatchSerialOracle(t *testing.T) {
	const n, frames, batch = 3000, 4, 97
	var oracle string
	for workers := range 9 {
		s := newScene(t, n, Options{})
		pool := newPool(t, workers)
		tr := safety.NewTracker(pool, s.w.Registry(), safety.Options{})
		for range frames {
			s.frame(t, pool, tr, batch)
		}
		got := dump(s.w)
		if workers == 0 {
			oracle = got
			continue
		}
		require.Equal(t, oracle, got, "workers=%d", workers)
	}
}

func TestChunks(t *testing.T) {
	s := newScene(t, 1000, Options{})
	require.NoError(t, s.w.BeginFrame())
	n, err := s.qi.Prepare(64)
	require.NoError(t, err)
	rows := 0
	seen := map[uint32]bool{}
	for i := range n {
		c := &s.qi.chunks[i]
		assert.Equal(t, i, c.Index())
		assert.LessOrEqual(t, c.Len(), 64)
		assert.Positive(t, c.Len())
		p := s.ipos.Column(c)
		assert.Len(t, p, c.Len())
		assert.Equal(t, len(p), cap(p), "a column view ends at its chunk")
		ents := c.Entities()
		assert.Len(t, ents, c.Len())
		assert.Equal(t, len(ents), cap(ents))
		for _, e := range ents {
			assert.False(t, seen[e.ID()], "an entity is in one chunk only")
			seen[e.ID()] = true
		}
		rows += c.Len()
		assert.Equal(t, "integrate", c.System())
	}
	assert.Equal(t, 1000, rows)
	_, err = s.qi.Prepare(64)
	assert.ErrorIs(t, err, ErrBadArgument, "twice in one frame")
	_, err = s.w.EndFrame()
	require.NoError(t, err)

	_, err = s.qi.Prepare(64)
	assert.ErrorIs(t, err, ErrBadArgument, "outside a frame")
	require.NoError(t, s.w.BeginFrame())
	_, err = s.qi.Prepare(0)
	assert.ErrorIs(t, err, ErrBadArgument)
	_, err = s.w.EndFrame()
	require.NoError(t, err)
}

func TestFilters(t *testing.T) {
	s := newScene(t, 30, Options{})
	d := s.w.System("tagged")
	p := Read[pos](d)
	with := NewQuery1(d, p, With[tag]())
	without := NewQuery1(d, p, Without[tag](), Without[health]())
	require.NoError(t, s.w.BeginFrame())
	count := func(q *Query1[pos], n int) int {
		rows := 0
		for i := range n {
			rows += q.chunks[i].Len()
		}
		return rows
	}
	n1, err := with.Prepare(8)
	require.NoError(t, err)
	n2, err := without.Prepare(8)
	require.NoError(t, err)
	assert.Equal(t, 10, count(with, n1))
	assert.Equal(t, 10, count(without, n2))
	_, err = s.w.EndFrame()
	require.NoError(t, err)
}

// runOne runs body over every chunk of q on a serial pool and returns the
// pool's error and EndFrame's.
func runOne(t *testing.T, w *World, prepare func() (int, error), body jobs.Func) (error, error) {
	pool := newPool(t, 0)
	require.NoError(t, w.BeginFrame())
	n, err := prepare()
	require.NoError(t, err)
	h, err := pool.ParallelFor(jobs.Job{Label: jobs.Label{Name: "x"}, Run: body}, n, 1)
	require.NoError(t, err)
	waitErr := pool.Wait(h)
	_, endErr := w.EndFrame()
	return waitErr, endErr
}

func TestColumnErrors(t *testing.T) {
	if !checksCompiled {
		t.Skip("checks are compiled out (weft_nochecks)")
	}
	cases := []struct {
		name string
		code fault.Code
		comp string
		want string
		body func(s *scene, other *Decl) func(c *Chunk)
	}{
		{"token of another system", ErrUndeclared, "pos",
			`ecs: WEFT-E001: system "damage" used Reader[pos] of system "other"; a token works only in the system that declared it: declare it in "damage" with ecs.Read[pos](b.Decl()) and use that token`,
			func(s *scene, other *Decl) func(c *Chunk) {
				r := Read[pos](other)
				return func(c *Chunk) { r.Column(c) }
			}},
		{"write through a read declaration", ErrReadOnly, "pos",
			`ecs: WEFT-E002: a job of system "damage" asked for a write view of pos, which its query declares read-only; declare it with ecs.Write[pos] instead of ecs.Read[pos]`,
			func(s *scene, other *Decl) func(c *Chunk) {
				w := Write[pos](s.damage) // its query has the read
				return func(c *Chunk) { w.Column(c) }
			}},
		{"not a column of the query", ErrNotInQuery, "vel",
			`ecs: WEFT-E003: a job of system "damage" asked for a view of vel, which is not a column of its query; pass the token of vel to the query's constructor`,
			func(s *scene, other *Decl) func(c *Chunk) {
				v := Read[vel](s.damage)
				return func(c *Chunk) { v.Column(c) }
			}},
		{"a write through a read view", ErrReadModified, "pos",
			`ecs: WEFT-E004: system "damage" changed pos in chunk 0 (rows 0..2 of table 0), which it declared read-only; declare it with ecs.Write[pos] or stop writing to it`,
			func(s *scene, other *Decl) func(c *Chunk) {
				return func(c *Chunk) {
					if c.Index() == 0 {
						s.dpos.Column(c)[1].X = -1
					}
				}
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := newScene(t, 9, Options{})
			other := s.w.System("other")
			body := c.body(s, other)
			waitErr, endErr := runOne(t, s.w, func() (int, error) { return s.qd.Prepare(2) }, s.qd.Job(body))
			require.Error(t, endErr)
			assert.Equal(t, c.want, endErr.Error())
			var e *Error
			require.ErrorAs(t, endErr, &e)
			assert.Equal(t, c.code, e.Code)
			assert.Equal(t, "damage", e.System)
			assert.Equal(t, c.comp, e.Detail.Component)
			if c.code != ErrReadModified {
				require.ErrorIs(t, waitErr, jobs.ErrFailed, "the job fails")
				assert.Equal(t, e, panicOf(waitErr), "with the same error")
			}
		})
	}
}

func TestNoChecksSkipsChecksum(t *testing.T) {
	s := newScene(t, 9, Options{NoChecks: true})
	write := s.qd.Job(func(c *Chunk) { s.dpos.Column(c)[0].X-- })
	_, endErr := runOne(t, s.w, func() (int, error) { return s.qd.Prepare(2) }, write)
	assert.NoError(t, endErr)
	require.NoError(t, s.w.SetChecks(true))
	_, endErr = runOne(t, s.w, func() (int, error) { return s.qd.Prepare(2) }, write)
	if checksCompiled {
		assert.ErrorIs(t, endErr, ErrReadModified, "and on again")
	}
	require.NoError(t, s.w.BeginFrame())
	assert.ErrorIs(t, s.w.SetChecks(false), ErrLocked)
	_, err := s.w.EndFrame()
	require.NoError(t, err)
}

func TestQueryWithForeignToken(t *testing.T) {
	s := newScene(t, 3, Options{})
	d := s.w.System("thief")
	NewQuery1(d, s.ipos)
	assert.ErrorIs(t, d.Err(), ErrUndeclared)
	assert.ErrorContains(t, d.Err(), `a column of a query of system "thief" was given Writer[pos] of system "integrate"; declare it in "thief" with ecs.Write[pos](b.Decl()) and pass that token`)
}

// panicOf is the panic value of the failed job behind a jobs error (the
// ParallelFor join reports Blocked, with the failure as its cause).
func panicOf(err error) any {
	for err != nil {
		if je, ok := err.(*jobs.Error); ok && je.Code == jobs.ErrFailed {
			return je.Detail.Panic
		}
		err = errors.Unwrap(err)
	}
	return nil
}

// A chunk knows which participant runs it: the owner or a worker, never
// anything else, and on the serial pool always the owner.
func TestChunkWorker(t *testing.T) {
	for _, workers := range []int{0, 2} {
		s := newScene(t, 3000, Options{})
		pool := newPool(t, workers)
		require.NoError(t, s.w.BeginFrame())
		n, err := s.qi.Prepare(16)
		require.NoError(t, err)
		ran := make([]int, n)
		body := s.qi.Job(func(c *Chunk) { ran[c.Index()] = c.Worker() + 1 })
		h, err := pool.ParallelFor(jobs.Job{Label: jobs.Label{Name: "x"}, Run: body}, n, 1)
		require.NoError(t, err)
		require.NoError(t, pool.Wait(h))
		_, err = s.w.EndFrame()
		require.NoError(t, err)
		for i, w := range ran {
			assert.True(t, w >= 1 && w <= workers+1, "workers=%d: chunk %d ran on participant %d", workers, i, w-1)
			if workers == 0 {
				assert.Equal(t, 1, w)
			}
		}
	}
}

// Two queries over the same rows are aligned chunk by chunk; a query over
// fewer rows, one not prepared this frame, or something else is not. A
// query lists its columns' keys.
func TestAligned(t *testing.T) {
	s := newScene(t, 300, Options{})
	other := s.w.System("other")
	p, v := Read[pos](other), Read[vel](other)
	same := NewQuery2(other, p, v)
	fewer := NewQuery2(other, p, v, With[tag]())
	require.NoError(t, s.w.BeginFrame())
	_, err := s.qi.Prepare(16)
	require.NoError(t, err)
	g := worldSeam{s.w}
	qi, sq, fq := g.Query(s.qi), g.Query(same), g.Query(fewer)
	assert.False(t, g.Aligned(qi.ID, sq.ID), "same is not prepared yet")
	_, err = same.Prepare(16)
	require.NoError(t, err)
	_, err = fewer.Prepare(16)
	require.NoError(t, err)
	assert.True(t, g.Aligned(qi.ID, sq.ID))
	assert.True(t, g.Aligned(sq.ID, qi.ID))
	assert.False(t, g.Aligned(qi.ID, fq.ID))
	assert.False(t, g.Aligned(qi.ID, -1))
	_, err = s.w.EndFrame()
	require.NoError(t, err)
	assert.Equal(t, []safety.Key{s.ipos.u.key, s.ivel.u.key}, qi.Columns)
}

// A chunk that panics in a one-job pass (jobAll, in order or not) does not stop
// the chunks after it, as in a ParallelFor: every other chunk runs, and
// the job fails with the first panic, its stack at the panic.
func TestJobAllRunsEveryChunkPastAPanic(t *testing.T) {
	for _, inOrder := range []bool{false, true} {
		s := newScene(t, 1000, Options{})
		pool := newPool(t, 1)
		require.NoError(t, s.w.BeginFrame())
		n, err := s.qi.Prepare(64)
		require.NoError(t, err)
		require.Greater(t, n, 4)
		ran := make([]int, n)
		fn := func(c *Chunk) {
			ran[c.Index()]++
			if c.Index() == 1 || c.Index() == 3 {
				panic(c.Index())
			}
		}
		body := s.qi.jobAll(fn, inOrder)
		h, err := pool.Schedule(jobs.Job{Run: body})
		require.NoError(t, err)
		err = pool.Wait(h)
		var je *jobs.Error
		require.ErrorAs(t, err, &je)
		assert.Equal(t, 1, je.Detail.Panic, "the first panic is the job's")
		assert.Contains(t, string(je.Detail.Stack), "TestJobAllRunsEveryChunkPastAPanic", "its stack is the panic's")
		for k := range ran {
			assert.Equal(t, 1, ran[k], "chunk %d ran once", k)
		}
		_, err = s.w.EndFrame()
		require.NoError(t, err)
	}
}
