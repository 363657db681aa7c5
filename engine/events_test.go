package engine_test

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
)

// ping is an event: who emitted it, for which row, its number in the row.
type ping struct {
	From     string
	Row, Seq int
}

// emitter emits, from chunk jobs, a random number of pings per row
// (fixed by seed, row and step), plus one ping from Schedule and one from
// Merge.
func emitter(name string, seed uint64) *merging {
	var pass *engine.Pass
	var em ecs.Emitter[ping]
	var step uint64
	return &merging{&toy{name: name,
		build: func(b *engine.Builder) error {
			d := b.Decl()
			em = ecs.Emit[ping](d)
			p := ecs.Read[pos](d)
			pass = b.Chunks("emit", ecs.NewQuery1(d, p), func(c *ecs.Chunk) {
				for _, x := range p.Column(c) {
					for k := range pings(seed, int(x.X), step) {
						em.Emit(c, ping{name, int(x.X), k})
					}
				}
			})
			return nil
		},
		sched: func(f *engine.Frame) error {
			step = f.Time().Step
			em.EmitOwner(ping{name, -1, int(step)})
			return f.Run(pass)
		},
		merge: func(f *engine.Frame) error {
			em.EmitOwner(ping{name, -2, int(step)})
			return nil
		},
	}}
}

// pings is how many pings row emits in step: 0 to 2.
func pings(seed uint64, row int, step uint64) int {
	x := (seed*0x9E3779B97F4A7C15 ^ uint64(row)<<32 ^ step) * 0xBF58476D1CE4E5B9
	return int(x>>61) % 3
}

// want is what a reader sees from the writer named name in step: its
// owner events (Merge of the step before, then Schedule), then its rows'
// events in row order.
func want(name string, seed uint64, rows int, step uint64) []ping {
	var out []ping
	if step > 1 {
		out = append(out, ping{name, -2, int(step - 1)})
	}
	out = append(out, ping{name, -1, int(step)})
	for r := range rows {
		for k := range pings(seed, r, step) {
			out = append(out, ping{name, r, k})
		}
	}
	return out
}

// reader copies what it reads in Merge; every chunk job reads too, and
// *bad is set if one saw other events than Merge.
func reader(name string, got *[]ping, bad *bool) *merging {
	var pass *engine.Pass
	var rd ecs.EventReader[ping]
	var seen []int // by chunk: the events' count and a checksum
	return &merging{&toy{name: name,
		build: func(b *engine.Builder) error {
			d := b.Decl()
			rd = ecs.ReadEvents[ping](d)
			v := ecs.Read[vel](d)
			pass = b.Chunks("read", ecs.NewQuery1(d, v), func(c *ecs.Chunk) { seen[c.Index()] = sum(rd.Events()) })
			return nil
		},
		sched: func(f *engine.Frame) error {
			n, err := f.Prepare(pass)
			seen = slices.Grow(seen[:0], n)[:n]
			if err != nil {
				return err
			}
			return f.Run(pass)
		},
		merge: func(f *engine.Frame) error {
			*got = append((*got)[:0], rd.Events()...)
			for _, s := range seen {
				*bad = *bad || s != sum(*got)
			}
			return nil
		},
	}}
}

func sum(ps []ping) int {
	h := len(ps)
	for _, p := range ps {
		h = h*31 + p.Row*7 + p.Seq + len(p.From)
	}
	return h
}

// Events from random chunk jobs arrive complete and in the documented
// order, for every worker count and batch size: a reader sees the
// writers before it in this step's events, and the writer after it (a
// later stage) with its events of the previous step.
func TestEventsOrder(t *testing.T) {
	const rows = 300
	for _, workers := range []int{0, 1, 2, 4} {
		for _, batch := range []int{1, 7, 64, 1000} {
			var got []ping
			var bad bool
			e := newEngine(t, world(t, rows), engine.Config{Workers: workers, Serial: workers == 0, Batch: batch})
			require.NoError(t, e.Add(engine.Update, emitter("b", 2)))
			require.NoError(t, e.Add(engine.Update, reader("r", &got, &bad)))
			require.NoError(t, e.Add(engine.PostUpdate, emitter("z", 3)))
			require.NoError(t, e.Add(engine.Update, emitter("a", 1))) // registered after r, runs before it
			require.NoError(t, e.Build())
			for step := uint64(1); step <= 4; step++ {
				require.NoError(t, e.Tick())
				var exp []ping
				if step > 1 {
					exp = append(exp, want("z", 3, rows, step-1)...)
				}
				exp = append(exp, want("b", 2, rows, step)...)
				exp = append(exp, want("a", 1, rows, step)...)
				require.Equal(t, exp, got, "W%d batch %d step %d", workers, batch, step)
			}
			assert.False(t, bad)
		}
	}
}

// The reader is ordered after its writers, and Explain says why.
func TestEventsExplain(t *testing.T) {
	var got []ping
	var bad bool
	e := newEngine(t, world(t, 10), engine.Config{Serial: true})
	require.NoError(t, e.Add(engine.Update, reader("r", &got, &bad)))
	require.NoError(t, e.Add(engine.Update, emitter("w", 1)))
	require.NoError(t, e.Build())
	x := e.Explain()
	require.Equal(t, "w", x.Systems[0].Name, "the writer runs first")
	i := slices.IndexFunc(x.Edges, func(ed engine.Edge) bool { return ed.From == "w" && ed.To == "r" })
	require.GreaterOrEqual(t, i, 0, "an edge w -> r")
	assert.Equal(t, engine.CauseEvents, x.Edges[i].Causes[0].Kind)
	assert.Contains(t, x.Edges[i].Causes[0].Text, "w emits events ping, r reads them")
	text := x.String()
	assert.Contains(t, text, "1. w [Update] reads pos; emits ping;")
	assert.Contains(t, text, "2. r [Update] reads vel; reads events ping;")
}

// A reader explicitly Before its writer reads the writer's events of the
// previous step: the constraint wins, and no event is lost.
func TestEventsReaderBefore(t *testing.T) {
	var got []ping
	var bad bool
	e := newEngine(t, world(t, 20), engine.Config{Workers: 2, Batch: 3})
	require.NoError(t, e.Add(engine.Update, reader("r", &got, &bad), engine.Before("w")))
	require.NoError(t, e.Add(engine.Update, emitter("w", 1)))
	require.NoError(t, e.Build())
	require.NoError(t, e.Tick())
	assert.Empty(t, got)
	require.NoError(t, e.Tick())
	assert.Equal(t, want("w", 1, 20, 1), got)
}

// Events nobody reads are dropped: memory stays that of two steps, and a
// step with events allocates nothing once the buffers have grown.
func TestEventsSteadyState(t *testing.T) {
	if raceOn {
		t.Skip("the race detector allocates")
	}
	var got []ping
	var bad bool
	e := newEngine(t, world(t, 500), engine.Config{Workers: 1, Batch: 64})
	require.NoError(t, e.Add(engine.Update, emitter("w", 1)))
	require.NoError(t, e.Add(engine.Update, emitter("nobody reads me", 2)))
	require.NoError(t, e.Add(engine.Update, reader("r", &got, &bad)))
	require.NoError(t, e.Build())
	for range 30 {
		require.NoError(t, e.Tick())
	}
	assert.Zero(t, testing.AllocsPerRun(20, func() { _ = e.Tick() }))
}

// Emitting with another system's token is refused.
func TestEventsForeignToken(t *testing.T) {
	var em ecs.Emitter[ping]
	var pass *engine.Pass
	e := newEngine(t, world(t, 4), engine.Config{Serial: true})
	require.NoError(t, e.Add(engine.Update, &toy{name: "owner",
		build: func(b *engine.Builder) error { em = ecs.Emit[ping](b.Decl()); return nil },
		sched: func(f *engine.Frame) error { return nil }}))
	require.NoError(t, e.Add(engine.Update, &toy{name: "thief",
		build: func(b *engine.Builder) error {
			d := b.Decl()
			pass = b.Chunks("emit", ecs.NewQuery1(d, ecs.Read[vel](d)), func(c *ecs.Chunk) { em.Emit(c, ping{}) })
			return nil
		},
		sched: func(f *engine.Frame) error { return f.Run(pass) }}))
	require.NoError(t, e.Build())
	err := e.Tick()
	require.ErrorIs(t, err, ecs.ErrUndeclared)
	assert.Contains(t, err.Error(), `system "thief" used Emitter[engine_test.ping] of system "owner"; a token works only in the system that declared it: declare it in "thief" with ecs.Emit[engine_test.ping](b.Decl())`)
}

// A reader may read its events in Schedule (to decide whether to start
// its pass): the first call there waits for the emitters before it, so
// Schedule sees what Merge sees, on every worker count and batch.
func TestEventsInSchedule(t *testing.T) {
	const rows = 300
	for _, workers := range []int{0, 1, 2, 4} {
		for _, batch := range []int{1, 64} {
			var inSched, inMerge []ping
			var rd ecs.EventReader[ping]
			r := &merging{&toy{name: "r",
				build: func(b *engine.Builder) error {
					rd = ecs.ReadEvents[ping](b.Decl())
					return nil
				},
				sched: func(f *engine.Frame) error {
					inSched = append(inSched[:0], rd.Events()...)
					return nil
				},
				merge: func(f *engine.Frame) error {
					inMerge = append(inMerge[:0], rd.Events()...)
					return nil
				},
			}}
			e := newEngine(t, world(t, rows), engine.Config{Workers: workers, Serial: workers == 0, Batch: batch})
			require.NoError(t, e.Add(engine.Update, emitter("a", 1)))
			require.NoError(t, e.Add(engine.Update, r))
			require.NoError(t, e.Build())
			for step := uint64(1); step <= 3; step++ {
				require.NoError(t, e.Tick())
				require.Equal(t, want("a", 1, rows, step), inSched, "W%d batch %d step %d", workers, batch, step)
				require.Equal(t, inSched, inMerge)
			}
		}
	}
}

// EmitOwner from a chunk job is refused with WEFT-E009 (its owner part
// has no lock); the step reports it and the engine keeps running.
func TestEmitOwnerFromJob(t *testing.T) {
	for _, workers := range []int{0, 2} {
		var em ecs.Emitter[ping]
		var pass *engine.Pass
		bad := true
		s := &toy{name: "w",
			build: func(b *engine.Builder) error {
				d := b.Decl()
				em = ecs.Emit[ping](d)
				pass = b.Chunks("emit", ecs.NewQuery1(d, ecs.Read[pos](d)), func(c *ecs.Chunk) {
					if bad {
						em.EmitOwner(ping{"w", c.Index(), 0})
					}
				})
				return nil
			},
			sched: func(f *engine.Frame) error { return f.Run(pass) },
		}
		e := newEngine(t, world(t, 20), engine.Config{Workers: workers, Serial: workers == 0, Batch: 4})
		require.NoError(t, e.Add(engine.Update, s))
		require.NoError(t, e.Build())
		err := e.Tick()
		require.ErrorIs(t, err, ecs.ErrRacyWrite, "W%d", workers)
		assert.Contains(t, err.Error(), `a job of system "w" called EmitOwner`)
		bad = false
		require.NoError(t, e.Tick(), "W%d: the engine stays usable", workers)
	}
}

// EmitOwner with another system's emitter, in Schedule or Merge, is
// refused with WEFT-E001; Emit(nil, ev) on the owner with WEFT-E007 and
// a hint to use EmitOwner. The step reports it; the next one runs.
func TestEmitOwnerForeignAndNilChunk(t *testing.T) {
	for _, where := range []string{"schedule", "merge", "nil chunk"} {
		var other ecs.Emitter[ping]
		var bad = true
		emitting := &toy{name: "owner", build: func(b *engine.Builder) error {
			other = ecs.Emit[ping](b.Decl())
			return nil
		}, sched: func(f *engine.Frame) error { return nil }}
		s := &merging{&toy{name: "thief",
			build: func(b *engine.Builder) error { _ = ecs.Emit[ping](b.Decl()); return nil },
			sched: func(f *engine.Frame) error {
				if bad && where == "schedule" {
					other.EmitOwner(ping{})
				}
				if bad && where == "nil chunk" {
					other.Emit(nil, ping{})
				}
				return nil
			},
			merge: func(f *engine.Frame) error {
				if bad && where == "merge" {
					other.EmitOwner(ping{})
				}
				return nil
			},
		}}
		e := newEngine(t, world(t, 4), engine.Config{Workers: 1})
		require.NoError(t, e.Add(engine.Update, emitting))
		require.NoError(t, e.Add(engine.Update, s))
		require.NoError(t, e.Build())
		err := e.Tick()
		if where == "nil chunk" {
			require.ErrorIs(t, err, ecs.ErrBadArgument, where)
			assert.Contains(t, err.Error(), "emit with EmitOwner(ev)")
		} else {
			require.ErrorIs(t, err, ecs.ErrUndeclared, where)
			assert.Contains(t, err.Error(), `system "thief" used Emitter[engine_test.ping] of system "owner"`)
		}
		bad = false
		require.NoError(t, e.Tick(), where)
	}
}

// A run condition runs before the step's emitters, so it cannot read
// their events: Events() there is refused (WEFT-E007 under WEFT-G015,
// the condition counts as false), and the reader's jobs and Merge still
// see every event of the step.
func TestEventsInRunCondition(t *testing.T) {
	const rows = 50
	var rd ecs.EventReader[ping]
	var inMerge []ping
	r := &merging{&toy{name: "r",
		build: func(b *engine.Builder) error { rd = ecs.ReadEvents[ping](b.Decl()); return nil },
		sched: func(f *engine.Frame) error { return nil },
		merge: func(f *engine.Frame) error { inMerge = append(inMerge[:0], rd.Events()...); return nil },
	}}
	e := newEngine(t, world(t, rows), engine.Config{Workers: 1, Batch: 8})
	require.NoError(t, e.Add(engine.Update, emitter("a", 1)))
	require.NoError(t, e.Add(engine.Update, r))
	require.NoError(t, e.Add(engine.Update, mover("gate", false, noop), engine.RunIf(func(f *engine.Frame) bool { return len(rd.Events()) > 0 })))
	require.NoError(t, e.Build())
	err := e.Tick()
	require.ErrorIs(t, err, engine.ErrCondition)
	require.ErrorIs(t, err, ecs.ErrBadArgument)
	assert.Contains(t, err.Error(), "in a run condition, which runs before this step's emitters")
	assert.Equal(t, want("a", 1, rows, 1), inMerge, "the reader's own view is whole")
}
