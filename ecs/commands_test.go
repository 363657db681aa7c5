package ecs

import (
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
	"unsafe"

	ark "github.com/mlange-42/ark/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/weft-engine/weft/jobs"
	"github.com/weft-engine/weft/safety"
)

func TestPlaceholderLayout(t *testing.T) {
	require.Equal(t, uintptr(8), unsafe.Sizeof(ark.Entity{}))
	e := placeholder(5, 7)
	assert.Equal(t, uint32(placeholderID), e.ID())
	assert.Equal(t, uint32(5<<spawnBits|7), e.Gen())
	w := NewWorld(Options{})
	assert.False(t, w.ark.Alive(e))
	b := w.NewCommands()
	for range 3 * tagMask {
		b.retag()
		require.NotEqual(t, uint32(tagMask), b.tag, "the last tag with the last number would be Ark's wildcard entity, which Ark finds alive")
	}
	assert.False(t, w.ark.Alive(placeholder(tagMask-1, maxSpawns-1)))
}

// spawner is a system whose chunk jobs spawn, despawn and set, so that the
// result depends on playback order.
func spawnerFrame(t *testing.T, s *scene, pool *jobs.Pool, sys *Decl, q *Query2[pos, vel], body jobs.Func, r *rand.Rand) {
	require.NoError(t, s.w.BeginFrame())
	n, err := q.Prepare(16)
	require.NoError(t, err)
	var hs []jobs.Handle
	for _, k := range r.Perm(n) { // scheduled, so started and finished, in a shuffled order
		h, err := pool.Schedule(jobs.Job{Label: jobs.Label{Name: sys.Name(), Chunk: k}, Run: body})
		require.NoError(t, err)
		hs = append(hs, h)
	}
	all, err := pool.Combine(hs...)
	require.NoError(t, err)
	require.NoError(t, pool.Wait(all))
	rep, err := s.w.EndFrame()
	require.NoError(t, err)
	require.Empty(t, rep.Problems)
	require.NoError(t, pool.Reset())
}

// The same world results for shuffled job completion orders.
func TestPlaybackIndependentOfCompletionOrder(t *testing.T) {
	var want string
	for run := range 8 {
		s := newScene(t, 200, Options{})
		sys := s.w.System("spawner")
		p, v := Write[pos](sys), Read[vel](sys)
		q := NewQuery2(sys, p, v)
		sp := NewSpawner2[pos, vel](s.w)
		r := rand.New(rand.NewPCG(uint64(run), 9))
		body := q.Job(func(c *Chunk) {
			for range (c.Index()*7919 + run*104729) % 13 { // jitter the completion order, differently per run
				runtime.Gosched()
			}
			b := c.Commands()
			ents, ps := c.Entities(), p.Column(c)
			for i, e := range ents {
				switch int(ps[i].X) % 5 {
				case 0:
					b.Despawn(e)
				case 1:
					n := b.Spawn()
					s.posC.Add(b, n, pos{X: ps[i].X * 2})
					s.velC.Add(b, n, vel{DY: 1})
					s.posC.Set(b, n, pos{X: ps[i].X * 3}) // a separate command on the placeholder
				case 2:
					s.posC.Set(b, e, pos{X: ps[i].X + 1000})
				case 3:
					s.tagC.Add(b, e, tag{})
				case 4:
					n := sp.Spawn(b, pos{X: ps[i].X * 5}, vel{DX: 1})
					s.hpC.Add(b, n, health{HP: int(ps[i].X)})
				}
			}
		})
		pool := newPool(t, 4)
		for range 3 {
			spawnerFrame(t, s, pool, sys, q, body, r)
		}
		got := dump(s.w)
		if run == 0 {
			want = got
		}
		require.Equal(t, want, got, "run %d", run)
	}
}

func TestDeadEntityCommands(t *testing.T) {
	s := newScene(t, 0, Options{})
	w := s.w
	b := w.NewCommands()
	a, c := b.Spawn(), b.Spawn()
	s.posC.Add(b, a, pos{X: 1})
	_, err := w.Apply(b)
	require.NoError(t, err)
	var ents []ark.Entity
	q := ark.NewFilter0(w.ark).Query()
	for q.Next() {
		ents = append(ents, q.Entity())
	}
	slices.SortFunc(ents, func(x, y ark.Entity) int { return int(x.ID()) - int(y.ID()) })
	require.Len(t, ents, 2)
	_ = c

	sys := w.System("reaper")
	require.NoError(t, w.BeginFrame())
	jb := sys.Commands(0)
	jb.Despawn(ents[0])
	jb.Despawn(ents[0])                   // twice
	s.velC.Add(jb, ents[0], vel{DX: 1})   // add to a removed entity
	s.hpC.Set(jb, ents[1], health{HP: 3}) // set of a missing component
	s.posC.Remove(jb, ents[1])            // remove of a missing component
	s.hpC.Add(jb, ents[1], health{HP: 7}) // valid
	jb.Despawn(placeholder(jb.tag^1, 0))  // a placeholder of another buffer
	r, err := w.EndFrame()
	require.NoError(t, err)
	assert.Equal(t, 2, r.Applied)
	require.Len(t, r.Problems, 5)
	for _, p := range r.Problems {
		assert.Equal(t, "reaper", p.System)
	}
	assert.Equal(t, []string{"despawn", "add", "set", "remove", "despawn"},
		[]string{r.Problems[0].Op, r.Problems[1].Op, r.Problems[2].Op, r.Problems[3].Op, r.Problems[4].Op})
	assert.Equal(t, 1, r.Problems[0].Seq)
	err = r.Err()
	assert.ErrorIs(t, err, ErrBadCommand)
	assert.Equal(t, `ecs: WEFT-E006: 5 commands were skipped; the first: despawn of {2 0} by system "reaper" (buffer 0, command 1): the entity is not alive (despawned, or never spawned); record commands only for entities that are alive when the buffer plays, and check components with the previous frame's state`, err.Error())
	assert.Equal(t, health{HP: 7}, *ark.NewMap[health](w.ark).Get(ents[1]))
	assert.False(t, w.ark.Alive(ents[0]))
}

func TestStructuralChangeDuringFrame(t *testing.T) {
	s := newScene(t, 3, Options{})
	w := s.w
	require.NoError(t, w.BeginFrame())
	assert.True(t, w.InFrame())
	_, err := w.Apply(w.NewCommands())
	assert.ErrorIs(t, err, ErrLocked)
	assert.Equal(t, "ecs: WEFT-E005: Apply while a frame is in progress (jobs may be in flight); with an engine, do it between steps, in a system's Merge or an exclusive system; without one, before World.BeginFrame or after World.EndFrame; or record it in a Commands buffer", err.Error())
	assert.ErrorIs(t, w.BeginFrame(), ErrLocked)
	assert.ErrorIs(t, AddResource(w, &struct{ N int }{}), ErrLocked)
	d := w.System("late")
	Read[pos](d)
	assert.ErrorIs(t, d.Err(), ErrLocked)
	assert.PanicsWithError(t, "ecs: WEFT-E005: registering component ecs.late while a frame is in progress (jobs may be in flight); with an engine, do it between steps, in a system's Merge or an exclusive system; without one, before World.BeginFrame or after World.EndFrame; or record it in a Commands buffer", func() {
		type late struct{}
		NewComponent[late](w)
	})
	assert.Panics(t, func() { w.Ark().NewEntity() }, "Ark refuses too: the guard query locks it")
	_, err = w.EndFrame()
	require.NoError(t, err)
	_, err = w.EndFrame()
	assert.ErrorIs(t, err, ErrBadArgument)
	_, err = w.Apply(w.NewCommands())
	assert.NoError(t, err)
}

func TestResources(t *testing.T) {
	type clock struct{ T float64 }
	w := NewWorld(Options{})
	require.NoError(t, AddResource(w, &clock{T: 1}))
	d := w.System("tick")
	rw := WriteRes[clock](d)
	d2 := w.System("read")
	rr := ReadRes[clock](d2)
	rw.Get().T += 1
	assert.Equal(t, clock{T: 2}, rr.Get())
	_, conflict := d.access.Conflict(&d2.access)
	assert.True(t, conflict)
	assert.Equal(t, "resource clock", w.Registry().Name(d.decls[0].Key))
}

// Steady state: a whole frame (prepare, schedule, run, checksums, command
// recording and playback, reset) allocates nothing.
func TestFrameAllocs(t *testing.T) {
	s := newScene(t, 500, Options{})
	pool := newPool(t, 1)
	tr := safety.NewTracker(pool, s.w.Registry(), safety.Options{})
	setter := s.w.System("setter")
	sp, sv := Write[pos](setter), Read[vel](setter)
	q := NewQuery2(setter, sp, sv)
	body := q.Job(func(c *Chunk) {
		b := c.Commands()
		for i, e := range c.Entities() {
			if i%4 == 0 {
				s.velC.Set(b, e, vel{DX: sp.Column(c)[i].X})
			}
		}
	})
	frame := func() {
		s.frame(t, pool, tr, 64)
		require.NoError(t, s.w.BeginFrame())
		n, _ := q.Prepare(64)
		h, _ := tr.ParallelFor(jobs.Job{Label: jobs.Label{Name: "setter"}, Run: body}, &setter.access, n, 1)
		pool.Wait(h)
		r, err := s.w.EndFrame()
		if err != nil || len(r.Problems) > 0 {
			panic(err)
		}
		pool.Reset()
		tr.Reset()
	}
	frame()
	frame()
	assert.Zero(t, testing.AllocsPerRun(10, frame))
}

// A placeholder kept from an earlier playback of the same buffer is
// refused, not resolved to whatever the new spawns made, and Apply
// returns the error (not only its report).
func TestStalePlaceholder(t *testing.T) {
	w := NewWorld(Options{})
	b := w.NewCommands()
	e := b.Spawn()
	_, err := w.Apply(b)
	require.NoError(t, err)
	b.Spawn()
	b.Despawn(e)
	r, err := w.Apply(b)
	require.ErrorIs(t, err, ErrUnresolved, "a bug in the caller: Apply returns it, as Tick does")
	require.Len(t, r.Problems, 1)
	assert.Equal(t, 1, r.Applied)
	assert.Contains(t, r.Problems[0].Reason, "earlier frame")
	assert.Equal(t, ErrUnresolved, r.Problems[0].Code)
	assert.ErrorIs(t, r.Err(), ErrUnresolved)
}
