package engine_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
	"github.com/weft-engine/weft/jobs"
)

// velPanic writes vel in one chunk pass that panics with msg.
func velPanic(name, msg string) *toy {
	var pass *engine.Pass
	return &toy{name: name,
		build: func(b *engine.Builder) error {
			d := b.Decl()
			w := ecs.Write[vel](d)
			pass = b.Chunks("push", ecs.NewQuery1(d, w), func(c *ecs.Chunk) { panic(msg) })
			return nil
		},
		sched: func(f *engine.Frame) error { return f.Run(pass) },
	}
}

// velReader reads vel in one chunk pass and counts its Merges.
func velReader(name string, merges *int) merging {
	var pass *engine.Pass
	return merging{&toy{name: name,
		build: func(b *engine.Builder) error {
			d := b.Decl()
			r := ecs.Read[vel](d)
			pass = b.Chunks("look", ecs.NewQuery1(d, r), func(c *ecs.Chunk) { _ = r.Column(c) })
			return nil
		},
		sched: func(f *engine.Frame) error { return f.Run(pass) },
		merge: func(*engine.Frame) error { *merges++; return nil }}}
}

// Two systems that fail in one step are both reported, in built order,
// each with its system, its first failed chunk's panic and the systems it kept from running,
// on every worker count and batch size; a system that depends on neither
// runs and merges.
func TestEveryFailureReported(t *testing.T) {
	texts := map[int][]string{}
	for _, batch := range []int{1, 7, 64} {
		for _, workers := range []int{0, 1, 2, 4} {
			t.Run(fmt.Sprintf("W%d/B%d", workers, batch), func(t *testing.T) {
				eng := newEngine(t, world(t, 40), engine.Config{Workers: workers, Serial: workers == 0, Batch: batch})
				var skippedMerges, freeMerges int
				require.NoError(t, eng.Add(engine.Update, mover("a", true, func([]pos) { panic("a broke") })))
				require.NoError(t, eng.Add(engine.Update, velPanic("b", "b broke")))
				require.NoError(t, eng.Add(engine.PostUpdate, mover("c", false, func([]pos) {})))
				require.NoError(t, eng.Add(engine.PostUpdate, velReader("d", &skippedMerges)))
				require.NoError(t, eng.Add(engine.PreUpdate, merging{&toy{name: "free",
					build: func(*engine.Builder) error { return nil },
					sched: func(*engine.Frame) error { return nil },
					merge: func(*engine.Frame) error { freeMerges++; return nil }}}))
				require.NoError(t, eng.Build())
				err := eng.Tick()
				require.Error(t, err)
				list, ok := err.(interface{ Unwrap() []error })
				require.True(t, ok, "%v", err)
				require.Len(t, list.Unwrap(), 2, "%v", err)
				for i, want := range []struct{ sys, panic, skipped string }{{"a", "a broke", "c"}, {"b", "b broke", "d"}} {
					var ee *engine.Error
					require.True(t, errors.As(list.Unwrap()[i], &ee))
					assert.Equal(t, engine.ErrJob, ee.Code)
					assert.Equal(t, want.sys, ee.System)
					assert.Equal(t, []string{want.skipped}, ee.Detail.Skipped)
					assert.Contains(t, ee.Error(), fmt.Sprintf("blocked by it (not merged): %q", want.skipped))
					var je *jobs.Error
					require.True(t, errors.As(ee, &je), "%v", ee)
					assert.Equal(t, jobs.ErrFailed, je.Code)
					assert.Equal(t, want.panic, je.Detail.Panic)
				}
				assert.Equal(t, 0, skippedMerges, "a skipped system's Merge does not run")
				assert.Equal(t, 1, freeMerges, "a system that depends on no failure runs")
				texts[batch] = append(texts[batch], err.Error())
			})
		}
		for _, s := range texts[batch][1:] {
			assert.Equal(t, texts[batch][0], s, "the same error on every worker count")
		}
	}
}

// A failure in a system's first pass blocks its second: that is the
// system's own failure, not a skipped system.
func TestFailureBlocksOwnPasses(t *testing.T) {
	for _, workers := range []int{0, 2} {
		eng := newEngine(t, world(t, 10), engine.Config{Workers: workers, Serial: workers == 0, Batch: 3})
		var first, second *engine.Pass
		require.NoError(t, eng.Add(engine.Update, &toy{name: "two",
			build: func(b *engine.Builder) error {
				d := b.Decl()
				w := ecs.Write[pos](d)
				q := ecs.NewQuery1(d, w)
				first = b.Chunks("first", q, func(c *ecs.Chunk) { panic("first") })
				second = b.Chunks("second", q, func(c *ecs.Chunk) {})
				return nil
			},
			sched: func(f *engine.Frame) error {
				if err := f.Run(first); err != nil {
					return err
				}
				return f.Run(second)
			}}))
		require.NoError(t, eng.Build())
		err := eng.Tick()
		var ee *engine.Error
		require.True(t, errors.As(err, &ee))
		assert.Equal(t, "two", ee.System)
		assert.Empty(t, ee.Detail.Skipped)
		assert.ErrorIs(t, err, jobs.ErrFailed)
	}
}

// A Range pass has no chunk, so it cannot emit: the step says so, names
// the system, and says what to use instead.
func TestRangeCannotEmit(t *testing.T) {
	for _, workers := range []int{0, 1, 2, 4} {
		eng := newEngine(t, world(t, 4), engine.Config{Workers: workers, Serial: workers == 0})
		var pass *engine.Pass
		require.NoError(t, eng.Add(engine.Update, &toy{name: "ranger",
			build: func(b *engine.Builder) error {
				em := ecs.Emit[ping](b.Decl())
				pass = b.Range("spread", func(lo, hi int) { em.Emit(nil, ping{From: "ranger"}) })
				return nil
			},
			sched: func(f *engine.Frame) error { return f.RunRange(pass, 8, 2) }}))
		require.NoError(t, eng.Build())
		err := eng.Tick()
		var ee *engine.Error
		require.True(t, errors.As(err, &ee), "W%d: %v", workers, err)
		assert.Equal(t, engine.ErrJob, ee.Code)
		assert.Equal(t, "ranger", ee.System)
		assert.ErrorIs(t, err, ecs.ErrBadArgument)
		assert.Contains(t, err.Error(), "a Range pass has no chunk and cannot emit: emit from a Chunks pass")
	}
}
