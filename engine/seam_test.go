package engine_test

import (
	"errors"
	"fmt"
	"testing"

	ark "github.com/mlange-42/ark/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
	"github.com/weft-engine/weft/internal/fault"
)

type tally struct{ N int }

// seamCase is one kind of token: made in the Build of system "A", used
// through use where its kind is used (a chunk job, a pass that runs in
// order, Schedule or Merge; owner uses get a nil chunk).
type seamCase struct {
	kind, where string
	make        func(d *ecs.Decl) (use func(c *ecs.Chunk), q engine.Query)
	outside     fault.Code // what a use on the owner outside a step gives ("" for none)
}

func seamCases() []seamCase {
	first := func(c *ecs.Chunk) ark.Entity { return c.Entities()[0] }
	var anyone ark.Entity // an entity for lookups outside a step
	return []seamCase{
		{"Reader", "job", func(d *ecs.Decl) (func(*ecs.Chunk), engine.Query) {
			r := ecs.Read[pos](d)
			return func(c *ecs.Chunk) { _ = r.Column(c) }, ecs.NewQuery1(d, r)
		}, ecs.ErrBadArgument},
		{"Writer", "job", func(d *ecs.Decl) (func(*ecs.Chunk), engine.Query) {
			w := ecs.Write[vel](d)
			return func(c *ecs.Chunk) { _ = w.Column(c) }, ecs.NewQuery1(d, w)
		}, ecs.ErrBadArgument},
		{"LookupReader", "job", func(d *ecs.Decl) (func(*ecs.Chunk), engine.Query) {
			l := ecs.ReadLookup[pos](d)
			return func(c *ecs.Chunk) {
				if c == nil {
					_, _ = l.Get(anyone)
					return
				}
				e := first(c)
				if c.Index() == 0 {
					anyone = e // for the use outside a step
				}
				_, _ = l.Get(e)
				_ = l.Has(e)
			}, nil
		}, ""},
		{"LookupWriter", "inorder", func(d *ecs.Decl) (func(*ecs.Chunk), engine.Query) {
			l := ecs.WriteLookup[vel](d)
			return func(c *ecs.Chunk) { _, _ = l.Get(c, first(c)) }, nil
		}, ecs.ErrBadArgument},
		{"Emitter", "job", func(d *ecs.Decl) (func(*ecs.Chunk), engine.Query) {
			em := ecs.Emit[ping](d)
			return func(c *ecs.Chunk) { em.Emit(c, ping{}) }, nil
		}, ecs.ErrBadArgument},
		{"Emitter.EmitOwner", "schedule", func(d *ecs.Decl) (func(*ecs.Chunk), engine.Query) {
			em := ecs.Emit[ping](d)
			return func(*ecs.Chunk) { em.EmitOwner(ping{}) }, nil
		}, ""},
		{"EventReader", "job", func(d *ecs.Decl) (func(*ecs.Chunk), engine.Query) {
			rd := ecs.ReadEvents[ping](d)
			return func(*ecs.Chunk) { _ = rd.Events() }, nil
		}, ""},
		{"ResReader", "job", func(d *ecs.Decl) (func(*ecs.Chunk), engine.Query) {
			r := ecs.ReadRes[tally](d)
			return func(*ecs.Chunk) { _ = r.Get() }, nil
		}, ""},
		{"ResWriter", "merge", func(d *ecs.Decl) (func(*ecs.Chunk), engine.Query) {
			r := ecs.WriteRes[tally](d)
			return func(*ecs.Chunk) { r.Get().N++ }, nil
		}, ""},
		{"ResWriter.In", "inorder", func(d *ecs.Decl) (func(*ecs.Chunk), engine.Query) {
			r := ecs.WriteRes[tally](d)
			return func(c *ecs.Chunk) { r.In(c).N++ }, nil
		}, ecs.ErrBadArgument},
		{"LookupReader in Merge", "merge", func(d *ecs.Decl) (func(*ecs.Chunk), engine.Query) {
			l := ecs.ReadLookup[pos](d)
			return func(*ecs.Chunk) { _, _ = l.Get(anyone) }, nil
		}, ""},
		{"EventReader in Schedule", "schedule", func(d *ecs.Decl) (func(*ecs.Chunk), engine.Query) {
			rd := ecs.ReadEvents[ping](d)
			return func(*ecs.Chunk) { _ = rd.Events() }, nil
		}, ""},
		{"ResReader in Merge", "merge", func(d *ecs.Decl) (func(*ecs.Chunk), engine.Query) {
			r := ecs.ReadRes[tally](d)
			return func(*ecs.Chunk) { _ = r.Get() }, nil
		}, ""},
		{"command buffers", "schedule", func(d *ecs.Decl) (func(*ecs.Chunk), engine.Query) {
			return func(*ecs.Chunk) { _ = d.Commands(0) }, nil
		}, ""},
	}
}

// seamSystem is a system named name with a query over pos that runs use
// where the case says (nil: nowhere); its chunks are kept in last.
func seamSystem(name string, sc seamCase, mk func(d *ecs.Decl) (func(*ecs.Chunk), engine.Query), use *func(*ecs.Chunk), last **ecs.Chunk) *merging {
	var pass *engine.Pass
	run := func(where string) func(c *ecs.Chunk) {
		return func(c *ecs.Chunk) {
			if *use != nil && sc.where == where {
				(*use)(c)
			}
		}
	}
	return &merging{&toy{name: name,
		build: func(b *engine.Builder) error {
			d := b.Decl()
			var q engine.Query
			if mk != nil {
				*use, q = mk(d)
			}
			if q == nil {
				q = ecs.NewQuery1(d, ecs.Read[pos](d))
			}
			body := func(c *ecs.Chunk) {
				if c.Index() == 0 {
					*last = c
				}
				run("job")(c)
				run("inorder")(c)
			}
			if sc.where == "inorder" {
				pass = b.ChunksInOrder("use", q, body)
			} else {
				pass = b.Chunks("use", q, body)
			}
			return nil
		},
		sched: func(f *engine.Frame) error { run("schedule")(nil); return f.Run(pass) },
		merge: func(f *engine.Frame) error { run("merge")(nil); return nil },
	}}
}

// seamEngine builds systems "A", which declares the case's token, and,
// if other, "B", which uses it; else A uses it.
func seamEngine(t *testing.T, sc seamCase, workers int, other bool) (e *engine.Engine, use func(*ecs.Chunk), last **ecs.Chunk) {
	w := world(t, 40)
	require.NoError(t, ecs.AddResource(w, &tally{}))
	e = newEngine(t, w, engine.Config{Workers: workers, Serial: workers == 0, Batch: 4})
	last = new(*ecs.Chunk)
	if !other {
		require.NoError(t, e.Add(engine.Update, seamSystem("A", sc, sc.make, &use, last)))
	} else {
		var none func(*ecs.Chunk)
		idle := seamCase{where: "nowhere"}
		require.NoError(t, e.Add(engine.Update, seamSystem("A", idle, func(d *ecs.Decl) (func(*ecs.Chunk), engine.Query) {
			var q engine.Query
			use, q = sc.make(d)
			return nil, q
		}, &none, new(*ecs.Chunk))))
		require.NoError(t, e.Add(engine.Update, seamSystem("B", sc, nil, &use, last)))
	}
	require.NoError(t, e.Build())
	return e, use, last
}

// panicked runs fn and returns the *ecs.Error it panicked with, nil if it
// returned.
func panicked(t *testing.T, fn func()) (err *ecs.Error) {
	defer func() {
		if v := recover(); v != nil {
			require.True(t, errors.As(v.(error), &err), "panics with an *ecs.Error: %v", v)
		}
	}()
	fn()
	return nil
}

// Every kind of token goes through the one seam: in its own system it
// works; in another system (a job, Schedule or Merge) the step fails
// with WEFT-E001 naming both systems and the token; on the owner outside
// a step it works, or, for the calls that take a chunk, is refused
// (WEFT-E007: the chunk's frame has ended). Never a silent success, and
// never a race that the race detector would find first.
func TestSeamEveryKind(t *testing.T) {
	for _, sc := range seamCases() {
		for _, workers := range []int{0, 1, 2, 4} {
			name := fmt.Sprintf("%s/W%d", sc.kind, workers)
			t.Run(name+"/own", func(t *testing.T) {
				e, use, last := seamEngine(t, sc, workers, false)
				require.NoError(t, e.Tick())
				require.NoError(t, e.Tick())
				require.NotNil(t, *last)
				c := *last // a chunk of the step that has ended
				if sc.where == "schedule" || sc.where == "merge" {
					c = nil
				}
				err := panicked(t, func() { use(c) })
				if sc.outside == "" {
					assert.Nil(t, err, "outside a step")
				} else {
					require.NotNil(t, err, "outside a step")
					assert.Equal(t, sc.outside, err.Code)
				}
				require.NoError(t, e.Tick(), "the engine stays usable")
			})
			t.Run(name+"/other", func(t *testing.T) {
				e, _, _ := seamEngine(t, sc, workers, true)
				err := e.Tick()
				require.ErrorIs(t, err, ecs.ErrUndeclared)
				var ee *ecs.Error
				require.ErrorAs(t, err, &ee)
				assert.Equal(t, "B", ee.System)
				assert.Contains(t, err.Error(), `system "B" used `)
				assert.Contains(t, err.Error(), ` of system "A"; a token works only in the system that declared it: `)
			})
		}
	}
}

// A token that was never made (its zero value), used in a job, fails the
// step with WEFT-E007 naming the token and the call that makes it; never
// a nil dereference. The engine stays usable.
func TestZeroTokens(t *testing.T) {
	cases := []struct {
		token, make string
		use         func(c *ecs.Chunk)
	}{
		{"Reader[engine_test.pos]", "ecs.Read[engine_test.pos](b.Decl())", func(c *ecs.Chunk) { ecs.Reader[pos]{}.Column(c) }},
		{"Writer[engine_test.pos]", "ecs.Write[engine_test.pos](b.Decl())", func(c *ecs.Chunk) { ecs.Writer[pos]{}.Column(c) }},
		{"Emitter[engine_test.ping]", "ecs.Emit[engine_test.ping](b.Decl())", func(c *ecs.Chunk) { ecs.Emitter[ping]{}.Emit(c, ping{}) }},
		{"Emitter[engine_test.ping]", "ecs.Emit[engine_test.ping](b.Decl())", func(*ecs.Chunk) { ecs.Emitter[ping]{}.EmitOwner(ping{}) }},
		{"EventReader[engine_test.ping]", "ecs.ReadEvents[engine_test.ping](b.Decl())", func(*ecs.Chunk) { ecs.EventReader[ping]{}.Events() }},
		{"LookupReader[engine_test.pos]", "ecs.ReadLookup[engine_test.pos](b.Decl())", func(c *ecs.Chunk) { ecs.LookupReader[pos]{}.Get(c.Entities()[0]) }},
		{"LookupReader[engine_test.pos]", "ecs.ReadLookup[engine_test.pos](b.Decl())", func(c *ecs.Chunk) { ecs.LookupReader[pos]{}.Has(c.Entities()[0]) }},
		{"LookupWriter[engine_test.pos]", "ecs.WriteLookup[engine_test.pos](b.Decl())", func(c *ecs.Chunk) { ecs.LookupWriter[pos]{}.Get(c, c.Entities()[0]) }},
		{"ResReader[engine_test.tally]", "ecs.ReadRes[engine_test.tally](b.Decl())", func(*ecs.Chunk) { ecs.ResReader[tally]{}.Get() }},
		{"ResWriter[engine_test.tally]", "ecs.WriteRes[engine_test.tally](b.Decl())", func(*ecs.Chunk) { ecs.ResWriter[tally]{}.Get() }},
		{"ResWriter[engine_test.tally]", "ecs.WriteRes[engine_test.tally](b.Decl())", func(c *ecs.Chunk) { ecs.ResWriter[tally]{}.In(c) }},
	}
	for i, c := range cases {
		for _, workers := range []int{0, 2} {
			bad := true
			e := newEngine(t, world(t, 8), engine.Config{Workers: workers, Serial: workers == 0, Batch: 2})
			require.NoError(t, e.Add(engine.Update, mover("s", false, noop)))
			var pass *engine.Pass
			require.NoError(t, e.Add(engine.Update, &toy{name: "zero",
				build: func(b *engine.Builder) error {
					d := b.Decl()
					pass = b.Chunks("use", ecs.NewQuery1(d, ecs.Read[vel](d)), func(ch *ecs.Chunk) {
						if bad {
							c.use(ch)
						}
					})
					return nil
				},
				sched: func(f *engine.Frame) error { return f.Run(pass) }}))
			require.NoError(t, e.Build())
			err := e.Tick()
			require.ErrorIs(t, err, ecs.ErrBadArgument, "case %d W%d", i, workers)
			assert.Contains(t, err.Error(), "the zero "+c.token+", a token that was never made, was used; make it in the system's Build with "+c.make, "case %d", i)
			bad = false
			require.NoError(t, e.Tick(), "case %d W%d: the engine stays usable", i, workers)
		}
	}
}

// A zero token given to a query, or to its filters, fails Build with
// WEFT-G002 around WEFT-E007.
func TestZeroTokenInQuery(t *testing.T) {
	for _, mk := range []func(d *ecs.Decl){
		func(d *ecs.Decl) { ecs.NewQuery1(d, ecs.Reader[pos]{}) },
		func(d *ecs.Decl) { ecs.NewQuery1(d, ecs.Read[pos](d), ecs.Changed(ecs.Reader[pos]{})) },
		func(d *ecs.Decl) { ecs.NewQuery1(d, ecs.Read[pos](d), ecs.Optional(ecs.Writer[vel]{})) },
	} {
		e := newEngine(t, world(t, 4), engine.Config{Serial: true})
		require.NoError(t, e.Add(engine.Update, &toy{name: "z",
			build: func(b *engine.Builder) error { mk(b.Decl()); return nil },
			sched: func(f *engine.Frame) error { return nil }}))
		err := e.Build()
		require.ErrorIs(t, err, engine.ErrBuild)
		require.ErrorIs(t, err, ecs.ErrBadArgument)
		assert.Contains(t, err.Error(), `was given the zero token, one that was never made; make it in Build`)
	}
}

// A nil query or function given to Builder.Chunks, ChunksInOrder or
// Range fails Build with WEFT-G001 naming the argument; a nil pass given
// to Frame.Run fails the step with WEFT-G008. Never a nil dereference.
func TestNilPassArguments(t *testing.T) {
	cases := []struct {
		build func(b *engine.Builder)
		want  string
	}{
		{func(b *engine.Builder) {
			b.Chunks("p", ecs.NewQuery1(b.Decl(), ecs.Read[pos](b.Decl())), nil)
		}, `Chunks("p") of system "s": fn is nil; pass the function that runs on each chunk`},
		{func(b *engine.Builder) { b.Chunks("p", nil, func(*ecs.Chunk) {}) },
			`Chunks("p") of system "s": q is nil; pass the query it runs over, made in Build with ecs.NewQueryN(b.Decl(), ...)`},
		{func(b *engine.Builder) { b.ChunksInOrder("p", nil, nil) }, `ChunksInOrder("p") of system "s": q is nil`},
		{func(b *engine.Builder) { b.Range("p", nil) }, `Range("p") of system "s": fn is nil`},
	}
	for _, c := range cases {
		e := newEngine(t, world(t, 4), engine.Config{Serial: true})
		require.NoError(t, e.Add(engine.Update, &toy{name: "s",
			build: func(b *engine.Builder) error { c.build(b); return nil },
			sched: func(f *engine.Frame) error { return nil }}))
		err := e.Build()
		require.ErrorIs(t, err, engine.ErrBadConfig)
		assert.Contains(t, err.Error(), c.want)
	}

	for _, workers := range []int{0, 2} {
		bad := true
		e := newEngine(t, world(t, 4), engine.Config{Workers: workers, Serial: workers == 0})
		require.NoError(t, e.Add(engine.Update, &toy{name: "s",
			build: func(b *engine.Builder) error { return nil },
			sched: func(f *engine.Frame) error {
				if bad {
					return f.Run(nil)
				}
				return nil
			}}))
		require.NoError(t, e.Build())
		err := e.Tick()
		require.ErrorIs(t, err, engine.ErrScheduleRun)
		assert.Contains(t, err.Error(), `Run(nil) in system "s": pass a *Pass made in Build with Builder.Chunks, ChunksInOrder or Range`)
		bad = false
		require.NoError(t, e.Tick())
	}
}

// A read lookup declared by one system and called from another system's
// chunk job, while a third writes the component in the same stage, is
// refused before it reads (WEFT-E001): the step fails, and the race
// detector finds nothing.
func TestSeamLookupBesideWriter(t *testing.T) {
	for _, workers := range []int{0, 1, 2, 4} {
		var look ecs.LookupReader[pos]
		var pass *engine.Pass
		e := newEngine(t, world(t, 200), engine.Config{Workers: workers, Serial: workers == 0, Batch: 8})
		require.NoError(t, e.Add(engine.Update, &toy{name: "seeker",
			build: func(b *engine.Builder) error { look = ecs.ReadLookup[pos](b.Decl()); return nil },
			sched: func(f *engine.Frame) error { return nil }}))
		require.NoError(t, e.Add(engine.Update, mover("mover", true, func(p []pos) {
			for i := range p {
				p[i].X++
			}
		}), engine.After("seeker")))
		require.NoError(t, e.Add(engine.Update, &toy{name: "thief",
			build: func(b *engine.Builder) error {
				d := b.Decl()
				pass = b.Chunks("peek", ecs.NewQuery1(d, ecs.Read[vel](d)), func(c *ecs.Chunk) {
					for _, en := range c.Entities() {
						_, _ = look.Get(en)
					}
				})
				return nil
			},
			sched: func(f *engine.Frame) error { return f.Run(pass) }}))
		require.NoError(t, e.Build())
		for range 3 {
			err := e.Tick()
			require.ErrorIs(t, err, ecs.ErrUndeclared, "W%d", workers)
			assert.Contains(t, err.Error(), `system "thief" used LookupReader[pos] of system "seeker"; a token works only in the system that declared it: declare it in "thief" with ecs.ReadLookup[pos](b.Decl()) and use that token`)
		}
	}
}
