package engine_test

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
	"github.com/weft-engine/weft/internal/fault"
)

// Adding a system after Build is refused with WEFT-G007 and changes
// nothing: the built schedule keeps stepping.
func TestAddAfterBuild(t *testing.T) {
	e := newEngine(t, world(t, 3), engine.Config{Serial: true})
	require.NoError(t, e.Add(engine.Update, mover("m", true, noop)))
	require.NoError(t, e.Build())
	err := e.Add(engine.Update, mover("late", true, noop))
	assert.ErrorIs(t, err, engine.ErrOrder)
	assert.Contains(t, err.Error(), `Add("late") after Build`)
	err = e.AddExclusive(engine.Update, exclusive{"latex", nil})
	assert.ErrorIs(t, err, engine.ErrOrder)
	require.NoError(t, e.Tick())
	assert.Len(t, e.Explain().Systems, 1)
}

// A nil world, a nil system and a stage out of range are refused with
// WEFT-G001, not a nil dereference; a refused Add also fails Build.
func TestNilArguments(t *testing.T) {
	_, err := engine.New(nil, engine.Config{Serial: true})
	assert.ErrorIs(t, err, engine.ErrBadConfig)
	e := newEngine(t, world(t, 3), engine.Config{Serial: true})
	assert.ErrorIs(t, e.Add(engine.Update, nil), engine.ErrBadConfig)
	assert.ErrorIs(t, e.AddExclusive(engine.Update, nil), engine.ErrBadConfig)
	assert.ErrorIs(t, e.Add(engine.Stage(9), mover("m", true, noop)), engine.ErrBadConfig)
	assert.ErrorIs(t, e.Build(), engine.ErrBadConfig)
}

// A world has one engine: a second New on it is refused (its resources
// exist already), not a panic.
func TestSecondEngine(t *testing.T) {
	w := world(t, 3)
	newEngine(t, w, engine.Config{Serial: true})
	_, err := engine.New(w, engine.Config{Serial: true})
	assert.ErrorIs(t, err, engine.ErrOrder)
	assert.ErrorIs(t, err, ecs.ErrBadArgument)
}

// A panic in a system's Schedule, Merge or exclusive Run becomes an error
// that names the system and the panic value; the step completes, the
// frame is closed, and the next steps work.
func TestSystemPanic(t *testing.T) {
	for _, c := range []struct {
		where string
		code  fault.Code
	}{{"schedule", engine.ErrScheduleRun}, {"merge", engine.ErrMerge}, {"run", engine.ErrMerge}} {
		t.Run(c.where, func(t *testing.T) {
			e := newEngine(t, world(t, 10), engine.Config{Workers: 1, Batch: 4})
			boom := true
			panicIf := func(where string) {
				if boom && where == c.where {
					panic("boom in " + where)
				}
			}
			m := mover("m", true, noop)
			inner := m.sched
			m.sched = func(f *engine.Frame) error {
				err := inner(f) // a pass is started: a frame and jobs are open
				panicIf("schedule")
				return err
			}
			m.merge = func(*engine.Frame) error { panicIf("merge"); return nil }
			require.NoError(t, e.Add(engine.Update, merging{m}))
			require.NoError(t, e.AddExclusive(engine.PostUpdate, exclusive{"x", func(*ecs.World, engine.Time) error {
				panicIf("run")
				return nil
			}}))
			require.NoError(t, e.Build())
			err := e.Tick()
			assert.ErrorIs(t, err, c.code)
			var p *engine.Panic
			require.ErrorAs(t, err, &p)
			assert.Equal(t, "boom in "+c.where, p.Value)
			assert.NotEmpty(t, p.Stack)
			var ee *engine.Error
			require.ErrorAs(t, err, &ee)
			assert.Contains(t, []string{"m", "x"}, ee.System)
			assert.NotContains(t, err.Error(), "left open")
			boom = false
			for range 3 {
				require.NoError(t, e.Tick())
			}
		})
	}
}

// A panic in a system's Build fails Build with WEFT-G002 naming it.
func TestBuildPanic(t *testing.T) {
	e := newEngine(t, world(t, 3), engine.Config{Serial: true})
	require.NoError(t, e.Add(engine.Update, &toy{name: "p", build: func(*engine.Builder) error { panic("no assets") }}))
	err := e.Build()
	assert.ErrorIs(t, err, engine.ErrBuild)
	var p *engine.Panic
	require.ErrorAs(t, err, &p)
	assert.Equal(t, "no assets", p.Value)
	assert.Contains(t, err.Error(), `system "p"`)
}

// A negative dt, or one that would overflow the accumulator, is refused
// and changes nothing: the next Step runs normally.
func TestStepBadDT(t *testing.T) {
	e := newEngine(t, world(t, 3), engine.Config{Serial: true, FixedStep: 10 * time.Millisecond})
	require.NoError(t, e.Add(engine.Update, mover("m", true, noop)))
	require.NoError(t, e.Build())
	_, err := e.Step(5 * time.Millisecond)
	require.NoError(t, err)
	for _, dt := range []time.Duration{-time.Second, math.MinInt64, math.MaxInt64} {
		n, err := e.Step(dt)
		assert.ErrorIs(t, err, engine.ErrBadConfig, "dt %v", dt)
		assert.Zero(t, n)
	}
	n, err := e.Step(5 * time.Millisecond)
	require.NoError(t, err)
	assert.Equal(t, 1, n, "the 5 ms before the refusals are kept")
	assert.Equal(t, uint64(1), e.Time().Step)
}

type score struct{ N int }

// A resource declared by a system but never added fails Build naming the
// type and saying to add it; ReadRes and WriteRes alike.
func TestMissingResource(t *testing.T) {
	for _, write := range []bool{false, true} {
		e := newEngine(t, world(t, 3), engine.Config{Serial: true})
		require.NoError(t, e.Add(engine.Update, &toy{name: "scorer", build: func(b *engine.Builder) error {
			if write {
				ecs.WriteRes[score](b.Decl())
			} else {
				ecs.ReadRes[score](b.Decl())
			}
			return nil
		}, sched: func(*engine.Frame) error { return nil }}))
		err := e.Build()
		assert.ErrorIs(t, err, engine.ErrBuild)
		assert.ErrorIs(t, err, ecs.ErrNoResource)
		assert.Contains(t, err.Error(), "engine_test.score")
		assert.Contains(t, err.Error(), "ecs.AddResource")
	}
	// Added before Build (here after New), it builds.
	w := world(t, 3)
	e := newEngine(t, w, engine.Config{Serial: true})
	require.NoError(t, ecs.AddResource(w, &score{}))
	require.NoError(t, e.Add(engine.Update, &toy{name: "scorer", build: func(b *engine.Builder) error {
		ecs.WriteRes[score](b.Decl())
		return nil
	}, sched: func(*engine.Frame) error { return nil }}))
	require.NoError(t, e.Build())
	require.NoError(t, e.Tick())
	assert.True(t, errors.Is(ecs.AddResource(w, &score{}), ecs.ErrBadArgument), "a second AddResource of one type is refused")
}

// Step, Tick and Close from inside a step (Schedule, Merge, a chunk job)
// are refused with WEFT-G007: no crash, no hang, the outer step completes
// and the engine keeps running.
func TestReentrantCalls(t *testing.T) {
	calls := map[string]func(e *engine.Engine) error{
		"Tick":  func(e *engine.Engine) error { return e.Tick() },
		"Step":  func(e *engine.Engine) error { _, err := e.Step(time.Second); return err },
		"Close": func(e *engine.Engine) error { return e.Close() },
	}
	for _, workers := range []int{0, 2} {
		for name, call := range calls {
			for _, where := range []string{"schedule", "merge", "job"} {
				var e *engine.Engine
				var inner error
				var pass *engine.Pass
				s := &merging{&toy{name: "s",
					build: func(b *engine.Builder) error {
						d := b.Decl()
						pass = b.ChunksInOrder("once", ecs.NewQuery1(d, ecs.Read[pos](d)), func(c *ecs.Chunk) {
							if where == "job" && c.Index() == 0 {
								inner = call(e)
							}
						})
						return nil
					},
					sched: func(f *engine.Frame) error {
						if where == "schedule" {
							inner = call(e)
						}
						return f.Run(pass)
					},
					merge: func(f *engine.Frame) error {
						if where == "merge" {
							inner = call(e)
						}
						return nil
					},
				}}
				e = newEngine(t, world(t, 10), engine.Config{Workers: workers, Serial: workers == 0, Batch: 4})
				require.NoError(t, e.Add(engine.Update, s))
				require.NoError(t, e.Build())
				require.NoError(t, e.Tick(), "W%d %s in %s: the outer step completes", workers, name, where)
				require.ErrorIs(t, inner, engine.ErrOrder, "W%d %s in %s", workers, name, where)
				assert.Contains(t, inner.Error(), "while a step or Close is running")
				assert.Equal(t, uint64(1), e.Time().Step, "W%d %s in %s: one step ran", workers, name, where)
				require.NoError(t, e.Tick(), "W%d %s in %s: the engine keeps running", workers, name, where)
			}
		}
	}
}

// Two goroutines ticking at once: each Tick either runs or is refused
// with WEFT-G007; nothing crashes, and the steps that ran are counted.
func TestConcurrentTicks(t *testing.T) {
	e := newEngine(t, world(t, 50), engine.Config{Workers: 1, Batch: 8})
	require.NoError(t, e.Add(engine.Update, mover("m", true, noop)))
	require.NoError(t, e.Build())
	errs := make(chan error, 2)
	for range 2 {
		go func() { errs <- e.Tick() }()
	}
	ran := uint64(0)
	for range 2 {
		if err := <-errs; err == nil {
			ran++
		} else {
			assert.ErrorIs(t, err, engine.ErrOrder)
		}
	}
	assert.GreaterOrEqual(t, ran, uint64(1))
	assert.Equal(t, ran, e.Time().Step)
}

// A Spawn placeholder kept past its playback (here in a system's field,
// from one step to the next) cannot resolve: the step fails with
// WEFT-E010 naming the system, Problems lists the command, the field is
// the zero entity, and the next step runs.
func TestUnresolvedPlaceholderFailsStep(t *testing.T) {
	type target struct{ Of ecs.Entity }
	for _, workers := range []int{0, 2} {
		w := world(t, 4)
		tc := ecs.NewComponent[target](w)
		var kept ecs.Entity
		var pass *engine.Pass
		step := 0
		s := &toy{name: "keeper",
			build: func(b *engine.Builder) error {
				d := b.Decl()
				b.Commands()
				pass = b.ChunksInOrder("spawn", ecs.NewQuery1(d, ecs.Read[pos](d)), func(c *ecs.Chunk) {
					if c.Index() != 0 {
						return
					}
					cmds := c.Commands()
					switch step {
					case 1:
						kept = cmds.Spawn() // kept past its playback: the misuse
					case 2:
						tc.Add(cmds, cmds.Spawn(), target{Of: kept})
					}
				})
				return nil
			},
			sched: func(f *engine.Frame) error { step = int(f.Time().Step); return f.Run(pass) },
		}
		e := newEngine(t, w, engine.Config{Workers: workers, Serial: workers == 0, Batch: 2})
		require.NoError(t, e.Add(engine.Update, s))
		require.NoError(t, e.Build())
		require.NoError(t, e.Tick())
		err := e.Tick()
		require.ErrorIs(t, err, ecs.ErrUnresolved, "W%d", workers)
		assert.Contains(t, err.Error(), `by system "keeper"`)
		require.Len(t, e.Problems(), 1)
		assert.Equal(t, ecs.ErrUnresolved, e.Problems()[0].Code)
		assert.Equal(t, 1, lastTimings(e).Problems)
		require.NoError(t, e.Tick(), "W%d: the next step runs", workers)
		assert.Empty(t, e.Problems())
	}
}

// A job that the world refuses fails with the refusal, and EndFrame
// reports the same refusal: the step's error states it once, on every
// worker count.
func TestRefusalReportedOnce(t *testing.T) {
	type score struct{ N int }
	for _, workers := range []int{0, 1, 2} {
		w := world(t, 40)
		require.NoError(t, ecs.AddResource(w, &score{}))
		var pass *engine.Pass
		s := &toy{name: "racy",
			build: func(b *engine.Builder) error {
				d := b.Decl()
				res := ecs.WriteRes[score](d)
				pass = b.Chunks("count", ecs.NewQuery1(d, ecs.Read[pos](d)), func(c *ecs.Chunk) { res.Get().N++ })
				return nil
			},
			sched: func(f *engine.Frame) error { return f.Run(pass) },
		}
		e := newEngine(t, w, engine.Config{Workers: workers, Serial: workers == 0, Batch: 4})
		require.NoError(t, e.Add(engine.Update, s))
		require.NoError(t, e.Add(engine.Update, mover("after", false, noop), engine.After("racy")))
		require.NoError(t, e.Build())
		err := e.Tick()
		require.ErrorIs(t, err, ecs.ErrRacyWrite)
		assert.Equal(t, 1, strings.Count(err.Error(), "WEFT-E009"), "W%d:\n%v", workers, err)
	}
}
