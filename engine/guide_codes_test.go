//go:build !weft_nochecks

package engine_test

import (
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
	"github.com/weft-engine/weft/internal/fault"
	"github.com/weft-engine/weft/replay"
	"github.com/weft-engine/weft/safety"
)

// A passage of the guide that names error codes, and a scenario that
// makes the error it describes.
type guideClaim struct {
	says string                   // the passage, as in the guide (spaces and line breaks are one space)
	err  func(t *testing.T) error // what the engine returns there
}

var (
	anyCode = regexp.MustCompile(`WEFT-[A-Z]\d{3}`)
	spaces  = regexp.MustCompile(`\s+`)
	fenced  = regexp.MustCompile("(?s)```.*?```")
)

// The codes the guide names are the codes the engine returns: each
// passage that names a code is a claim with a scenario; every code it
// names is reached with errors.Is, and where it names an engine code
// first, that is the code of the error returned (the others are the
// causes it wraps). A code named in the guide outside every claim fails,
// so that a new passage comes with its scenario.
func TestGuideCodes(t *testing.T) {
	doc := spaces.ReplaceAllString(fenced.ReplaceAllString(guideText(t), ""), " ")
	covered := make([]bool, len(doc))
	for _, c := range guideClaims {
		says := spaces.ReplaceAllString(c.says, " ")
		at := strings.Index(doc, says)
		if !assert.GreaterOrEqual(t, at, 0, "the guide no longer says %q: fix the claim with the guide", says) {
			continue
		}
		for i := at; i < at+len(says); i++ {
			covered[i] = true
		}
		got := c.err(t)
		codes := anyCode.FindAllString(says, -1)
		for _, code := range codes {
			assert.ErrorIs(t, got, codeError(code), "the guide says %q", says)
		}
		if len(codes) > 0 && strings.HasPrefix(codes[0], "WEFT-G") {
			var ee *engine.Error
			if assert.True(t, errors.As(got, &ee), "%q: %v", says, got) {
				assert.Equal(t, fault.Code(codes[0]), ee.Code, "the guide says %q; the engine returned %v", says, got)
			}
		}
	}
	for _, at := range anyCode.FindAllStringIndex(doc, -1) {
		if !covered[at[0]] && !notClaims(doc, at[0]) {
			t.Errorf("the guide names %s in %q without a claim in guideClaims: add one with its scenario", doc[at[0]:at[1]], doc[max(0, at[0]-80):min(len(doc), at[1]+40)])
		}
	}
}

// notClaims reports whether the code at i is in a passage that lists
// codes rather than says what a call returns.
func notClaims(doc string, i int) bool {
	for _, s := range []string{"WEFT-G001 to WEFT-G017", "WEFT-R001 to WEFT-R005", "Read it from the outside in. `WEFT-G009`", "The cause below it is the precise one: `WEFT-E004`"} {
		if at := strings.Index(doc, s); at >= 0 && i >= at && i < at+len(s) {
			return true
		}
	}
	return false
}

// codeError is code as an errors.Is target: one Code type serves every
// package.
func codeError(code string) error { return fault.Code(code) }

type missingRes struct{}

// built builds an engine over world(t, n) with the systems added by add.
func built(t *testing.T, n int, add func(e *engine.Engine)) (*engine.Engine, error) {
	eng := newEngine(t, world(t, n), engine.Config{Workers: 2, Batch: 4})
	add(eng)
	return eng, eng.Build()
}

// buildErr is the error of building an engine over a one-entity world
// with the systems added by add.
func buildErr(t *testing.T, add func(e *engine.Engine)) error {
	_, err := built(t, 1, add)
	return err
}

// tick1 builds and runs one step.
func tick1(t *testing.T, add func(e *engine.Engine)) error {
	eng, err := built(t, 8, add)
	require.NoError(t, err)
	return eng.Tick()
}

// sys is a toy with a build and a schedule.
func sys(name string, build func(b *engine.Builder) error, sched func(f *engine.Frame) error) *toy {
	return &toy{name: name, build: build, sched: sched}
}

func nothing(*engine.Frame) error { return nil }

// declares is a system that only declares, with fn.
func declares(name string, fn func(d *ecs.Decl)) *toy {
	return sys(name, func(b *engine.Builder) error { fn(b.Decl()); return nil }, nothing)
}

// chunky is a system with one chunk pass over the rows with pos (read),
// whose body pass makes in Build.
func chunky(name string, pass func(b *engine.Builder, d *ecs.Decl) func(c *ecs.Chunk)) *toy {
	var p *engine.Pass
	return sys(name, func(b *engine.Builder) error {
		d := b.Decl()
		p = b.Chunks("pass", ecs.NewQuery1(d, ecs.Read[pos](d)), pass(b, d))
		return nil
	}, func(f *engine.Frame) error { return f.Run(p) })
}

var guideClaims = []guideClaim{
	{"Its error is what the calling code got wrong: a `Spawn` placeholder that did not resolve (`WEFT-E010`, e.g. one kept from an earlier `Apply`), or an observer's failure. A command skipped because its entity is dead or lacks the component is normal play, not an error: it is in the returned report, `Report.Problems`, which `Report.Err()` sums up (`WEFT-E006`)", func(t *testing.T) error {
		w := ecs.NewWorld(ecs.Options{})
		b := w.NewCommands()
		kept := b.Spawn()
		if _, err := w.Apply(b); err != nil {
			return err
		}
		b.Despawn(kept) // a placeholder of the last Apply
		_, stale := w.Apply(b)
		live, _ := w.Entities()
		for e := range live {
			b.Despawn(e)
			b.Despawn(e) // dead by then: skipped
		}
		r, err := w.Apply(b)
		if err != nil {
			return err
		}
		return errors.Join(stale, r.Err())
	}},
	{"The entity it became is `rep.Spawned(p)`, asked of the report that the `Apply` returned: it answers for the world's last playback, so ask before the next `Apply`, step, `Restore` or `Load`; a placeholder that this playback did not make (of another buffer, or kept from an earlier `Apply`) answers `WEFT-E010`.", func(t *testing.T) error {
		w := ecs.NewWorld(ecs.Options{})
		b := w.NewCommands()
		p := b.Spawn()
		rep, err := w.Apply(b)
		if err != nil {
			return err
		}
		e, err := rep.Spawned(p)
		if err != nil || !w.Ark().Alive(e) {
			return errors.Join(errors.New("Spawned right after Apply should give the live entity"), err)
		}
		rep, err = w.Apply(w.NewCommands())
		if err != nil {
			return err
		}
		_, err = rep.Spawned(p) // kept from an earlier Apply
		return err
	}},
	{"refused with `WEFT-G017` and the first stands", func(t *testing.T) error {
		eng, err := built(t, 1, func(e *engine.Engine) { require.NoError(t, engine.AddState(e, TitleScreen, Playing, PauseMenu)) })
		require.NoError(t, err)
		screen, err := engine.StateOf[Screen](eng.World())
		require.NoError(t, err)
		require.NoError(t, screen.Set(Playing))
		return screen.Set(PauseMenu)
	}},
	{"and `Set` on a copy is refused with `WEFT-G016` rather than change nothing", func(t *testing.T) error {
		eng, err := built(t, 1, func(e *engine.Engine) { require.NoError(t, engine.AddState(e, TitleScreen, Playing)) })
		require.NoError(t, err)
		screen, err := engine.StateOf[Screen](eng.World())
		require.NoError(t, err)
		copied := *screen
		return copied.Set(Playing)
	}},
	{"`WEFT-G016` also answers a state that is not registered or a value that `AddState` did not list", func(t *testing.T) error {
		eng, err := built(t, 1, func(e *engine.Engine) { require.NoError(t, engine.AddState(e, TitleScreen, Playing)) })
		require.NoError(t, err)
		screen, err := engine.StateOf[Screen](eng.World())
		require.NoError(t, err)
		return screen.Set(PauseMenu) // not listed: refused at the call
	}},
	{"at Build for `InState`", func(t *testing.T) error {
		return buildErr(t, func(e *engine.Engine) {
			require.NoError(t, engine.AddState(e, TitleScreen, Playing))
			e.Add(engine.Update, mover("a", true, noop), engine.InState(PauseMenu))
		})
	}},
	{"When a step differs, Verify answers WEFT-R004 with a `replay.Divergence`", func(t *testing.T) error {
		recording := recordArena(engine.Config{Serial: true, Batch: 1024}, true)
		a := newArena(engine.Config{Serial: true, Batch: 64}, true)
		defer a.eng.Close()
		return replay.Verify(recording, a)
	}},
	{"or `Build` fails with WEFT-G002 wrapping WEFT-E008 naming the type", func(t *testing.T) error {
		return buildErr(t, func(e *engine.Engine) {
			e.Add(engine.Update, sys("needy", func(b *engine.Builder) error { ecs.ReadRes[missingRes](b.Decl()); return nil }, nothing))
		})
	}},
	{"resource the world does not have fails `Build` with `WEFT-G002` wrapping `WEFT-E008`", func(t *testing.T) error {
		return buildErr(t, func(e *engine.Engine) {
			e.Add(engine.Update, sys("needy", func(b *engine.Builder) error { ecs.WriteRes[missingRes](b.Decl()); return nil }, nothing))
		})
	}},
	{"skipped as a whole, and the step returns `WEFT-G009` with the panic", func(t *testing.T) error {
		return tick1(t, func(e *engine.Engine) { e.Add(engine.Update, mover("a", true, func([]pos) { panic("x") })) })
	}},
	{"`engine.MaxWorkers` (256) is refused with `WEFT-G001`", func(t *testing.T) error {
		eng, err := built(t, 1, func(*engine.Engine) {})
		require.NoError(t, err)
		return eng.SetWorkers(engine.MaxWorkers + 1)
	}},
	{"from inside a step they are refused with `WEFT-G007`", func(t *testing.T) error {
		var inner error
		var eng *engine.Engine
		eng, err := built(t, 1, func(e *engine.Engine) {
			e.Add(engine.Update, sys("again", func(*engine.Builder) error { return nil },
				func(*engine.Frame) error { inner = eng.Tick(); return nil }))
		})
		require.NoError(t, err)
		require.NoError(t, eng.Tick())
		return inner
	}},
	{"a job asks for a column it did not declare (`otherSystemsToken.Column(c)`): `WEFT-E001`", func(t *testing.T) error {
		var other ecs.Reader[vel]
		return tick1(t, func(e *engine.Engine) {
			e.Add(engine.Update, declares("owner", func(d *ecs.Decl) { other = ecs.Read[vel](d) }))
			e.Add(engine.Update, chunky("borrower", func(*engine.Builder, *ecs.Decl) func(c *ecs.Chunk) {
				return func(c *ecs.Chunk) { _ = other.Column(c) }
			}))
		})
	}},
	{"a system declares one component twice, once as a write: `Build` fails with `WEFT-G003` wrapping `WEFT-S003`", func(t *testing.T) error {
		return buildErr(t, func(e *engine.Engine) {
			e.Add(engine.Update, declares("twice", func(d *ecs.Decl) { ecs.Read[pos](d); ecs.Write[pos](d) }))
		})
	}},
	{"`Build` fails with `WEFT-G004` wrapping `WEFT-S006`", func(t *testing.T) error {
		return buildErr(t, func(e *engine.Engine) {
			e.Add(engine.Update, mover("one", true, noop))
			e.Add(engine.Update, mover("two", true, noop))
		})
	}},
	{"A participant index that is not the chunk's fails the step with WEFT-G009, naming the marker", func(t *testing.T) error {
		return tick1(t, func(e *engine.Engine) {
			e.Add(engine.Update, chunky("marking", func(b *engine.Builder, d *ecs.Decl) func(c *ecs.Chunk) {
				m := b.Marker("loop")
				return func(c *ecs.Chunk) { m.Begin(c.Worker() + 99).End() }
			}))
		})
	}},
	{"would write rows that its lookups read at the same time. Build refuses that with `WEFT-G003` wrapping `WEFT-S003`", func(t *testing.T) error {
		return buildErr(t, func(e *engine.Engine) {
			e.Add(engine.Update, declares("self", func(d *ecs.Decl) { ecs.Write[pos](d); ecs.ReadLookup[pos](d) }))
		})
	}},
	{"works only in a pass that runs as one job (`b.ChunksInOrder`, below); elsewhere it is refused with `WEFT-E009`", func(t *testing.T) error {
		return tick1(t, func(e *engine.Engine) {
			e.Add(engine.Update, chunky("pusher", func(b *engine.Builder, d *ecs.Decl) func(c *ecs.Chunk) {
				lk := ecs.WriteLookup[vel](d)
				return func(c *ecs.Chunk) { lk.Get(c, c.Entities()[0]) }
			}))
		})
	}},
	{"(a job that calls `EmitOwner` is refused with `WEFT-E009`)", func(t *testing.T) error {
		return tick1(t, func(e *engine.Engine) {
			e.Add(engine.Update, chunky("loud", func(b *engine.Builder, d *ecs.Decl) func(c *ecs.Chunk) {
				em := ecs.Emit[ping](d)
				return func(c *ecs.Chunk) { em.EmitOwner(ping{}) }
			}))
		})
	}},
	{"(`Emit(nil, ev)` fails the step with `WEFT-G009` wrapping `WEFT-E007`)", func(t *testing.T) error {
		var pass *engine.Pass
		return tick1(t, func(e *engine.Engine) {
			e.Add(engine.Update, sys("ranger", func(b *engine.Builder) error {
				em := ecs.Emit[ping](b.Decl())
				pass = b.Range("spread", func(lo, hi int) { em.Emit(nil, ping{}) })
				return nil
			}, func(f *engine.Frame) error { return f.RunRange(pass, 4, 2) }))
		})
	}},
	{"`Events()` there is refused (`WEFT-G015` wrapping `WEFT-E007`, the condition counts as false)", func(t *testing.T) error {
		var rd ecs.EventReader[ping]
		return tick1(t, func(e *engine.Engine) {
			e.Add(engine.Update, sys("early", func(b *engine.Builder) error { rd = ecs.ReadEvents[ping](b.Decl()); return nil }, nothing),
				engine.RunIf(func(*engine.Frame) bool { return len(rd.Events()) > 0 }))
		})
	}},
	{"satisfies the function (the resource must exist at Build: `WEFT-G015` otherwise)", func(t *testing.T) error {
		return buildErr(t, func(e *engine.Engine) {
			e.Add(engine.Update, sys("waiting", func(*engine.Builder) error { return nil }, nothing),
				engine.WhileRes(func(*missingRes) bool { return true }))
		})
	}},
	{"A condition that panics counts as false and fails the step with `WEFT-G015`", func(t *testing.T) error {
		return tick1(t, func(e *engine.Engine) {
			e.Add(engine.Update, sys("moody", func(*engine.Builder) error { return nil }, nothing),
				engine.RunIf(func(*engine.Frame) bool { panic("moody") }))
		})
	}},
	{"two members that conflict are reported as ambiguous (`WEFT-G004`)", func(t *testing.T) error {
		return buildErr(t, func(e *engine.Engine) {
			e.Set("group")
			e.Add(engine.Update, mover("one", true, noop), engine.InSet("group"))
			e.Add(engine.Update, mover("two", true, noop), engine.InSet("group"))
		})
	}},
	{"a set (`WEFT-G011`)", func(t *testing.T) error {
		return buildErr(t, func(e *engine.Engine) {
			e.Add(engine.Update, mover("one", true, noop), engine.InSet("nowhere"))
		})
	}},
	{"a member outside its set's stage (`WEFT-G012`)", func(t *testing.T) error {
		return buildErr(t, func(e *engine.Engine) {
			e.Set("late", engine.InStage(engine.PostUpdate))
			e.Add(engine.Update, mover("one", true, noop), engine.InSet("late"))
		})
	}},
	{"named like a system or declared twice (`WEFT-G013`)", func(t *testing.T) error {
		eng := newEngine(t, world(t, 1), engine.Config{Serial: true})
		eng.Set("twice")
		return eng.Set("twice")
	}},
	{"sets that form a cycle (`WEFT-G014`)", func(t *testing.T) error {
		return buildErr(t, func(e *engine.Engine) {
			e.Set("x", engine.After("y"))
			e.Set("y", engine.After("x"))
			e.Add(engine.Update, mover("one", true, noop), engine.InSet("x"))
			e.Add(engine.Update, mover("two", false, noop), engine.InSet("y"))
		})
	}},
	{"`Tick` (or `Step`) returns a `WEFT-G009` error wrapping `WEFT-E010`", func(t *testing.T) error {
		return unresolvedStep(t)
	}},
	{"`Engine.Problems()` lists the command (with the commands skipped for dead entities, `WEFT-E006`, which are not errors)", func(t *testing.T) error {
		eng, err := built(t, 2, func(e *engine.Engine) {
			var pass *engine.Pass
			e.Add(engine.Update, sys("reaper", func(b *engine.Builder) error {
				d := b.Decl()
				b.Commands()
				pass = b.Chunks("reap", ecs.NewQuery1(d, ecs.Read[pos](d)), func(c *ecs.Chunk) {
					for _, x := range c.Entities() {
						c.Commands().Despawn(x)
						c.Commands().Despawn(x) // the second finds it dead
					}
				})
				return nil
			}, func(f *engine.Frame) error { return f.Run(pass) }))
		})
		require.NoError(t, err)
		require.NoError(t, eng.Tick(), "skipped commands are not errors")
		var errs []error
		for _, p := range eng.Problems() {
			errs = append(errs, p.Code)
		}
		return errors.Join(errs...)
	}},
	{"stays a placeholder, which `ecs.Get` and later commands report as `WEFT-E010`", func(t *testing.T) error {
		w := world(t, 1)
		_, err := ecs.Get[pos](w, w.NewCommands().Spawn())
		return err
	}},
	{"During a frame, in a system's `Schedule` and in jobs, where jobs may be writing, they answer `WEFT-E005`", func(t *testing.T) error {
		var got error
		w := world(t, 1)
		eng := newEngine(t, w, engine.Config{Serial: true})
		require.NoError(t, eng.Add(engine.Update, sys("peek", func(*engine.Builder) error { return nil }, func(*engine.Frame) error {
			_, got = ecs.Get[pos](w, ecs.Entity{})
			return nil
		})))
		require.NoError(t, eng.Build())
		require.NoError(t, eng.Tick())
		return got
	}},
}

// unresolvedStep runs a system that keeps a placeholder from step 1 and
// uses it in step 2, where it cannot resolve; it returns step 2's error.
func unresolvedStep(t *testing.T) error {
	var pass *engine.Pass
	var kept ecs.Entity
	step := 0
	eng, err := built(t, 1, func(e *engine.Engine) {
		e.Add(engine.Update, sys("hoarder", func(b *engine.Builder) error {
			d := b.Decl()
			b.Commands()
			vc := ecs.NewComponent[vel](b.World())
			pass = b.ChunksInOrder("hoard", ecs.NewQuery1(d, ecs.Read[pos](d)), func(c *ecs.Chunk) {
				if step == 1 {
					kept = c.Commands().Spawn()
				} else {
					vc.Add(c.Commands(), kept, vel{})
				}
			})
			return nil
		}, func(f *engine.Frame) error { step = int(f.Time().Step); return f.Run(pass) }))
	})
	require.NoError(t, err)
	require.NoError(t, eng.Tick())
	return eng.Tick()
}

// errors.md's WEFT-G003: a name used twice is refused with the WEFT-S00x
// that names the system, as every other G003.
func TestDuplicateNameWrapsSafety(t *testing.T) {
	err := buildErr(t, func(e *engine.Engine) {
		e.Add(engine.Update, mover("twin", true, noop))
		e.Add(engine.PostUpdate, mover("twin", false, noop))
	})
	assert.ErrorIs(t, err, engine.ErrSchedule)
	assert.ErrorIs(t, err, safety.ErrUnknownSystem)
	assert.Contains(t, err.Error(), `two systems are named "twin"`)
}

// After a failed Build, the fix G007 gives (a new Engine on a new world)
// works, and a new Engine on the same world is refused with the WEFT-E007
// that errors.md names.
func TestFailedBuildNeedsNewWorld(t *testing.T) {
	w := world(t, 1)
	eng := newEngine(t, w, engine.Config{Serial: true})
	eng.Add(engine.Update, sys("needy", func(b *engine.Builder) error { ecs.ReadRes[missingRes](b.Decl()); return nil }, nothing))
	require.Error(t, eng.Build())
	err := eng.Build()
	assert.ErrorIs(t, err, engine.ErrOrder)
	assert.Contains(t, err.Error(), "make a new Engine on a new world")
	_, err = engine.New(w, engine.Config{Serial: true})
	assert.ErrorIs(t, err, engine.ErrOrder)
	assert.ErrorIs(t, err, ecs.ErrBadArgument)
	fresh := newEngine(t, world(t, 1), engine.Config{Serial: true})
	require.NoError(t, fresh.Add(engine.Update, mover("one", true, noop)))
	assert.NoError(t, fresh.Build())
}

// Commands that Merge records through decl.Commands play back with the
// next step's, as the guide (docs/guide/10-spawn-references.md) says: Merge runs after the
// step's playback.
func TestMergeCommandsPlayNextStep(t *testing.T) {
	for _, workers := range []int{0, 2} {
		w := world(t, 3)
		eng := newEngine(t, w, engine.Config{Workers: workers, Serial: workers == 0})
		var d *ecs.Decl
		var victim ecs.Entity
		all, err := w.Entities()
		require.NoError(t, err)
		for x := range all {
			victim = x
		}
		require.NoError(t, eng.Add(engine.Update, merging{&toy{name: "late",
			build: func(b *engine.Builder) error { d = b.Decl(); b.Commands(); return nil },
			sched: nothing,
			merge: func(f *engine.Frame) error {
				if f.Time().Step == 1 {
					d.Commands(0).Despawn(victim)
				}
				return nil
			}}}))
		require.NoError(t, eng.Build())
		require.NoError(t, eng.Tick())
		assert.Equal(t, 3, w.Count(), "W%d: not in the step whose Merge recorded it", workers)
		require.NoError(t, eng.Tick())
		assert.Equal(t, 2, w.Count(), "W%d: at the end of the next step", workers)
	}
}
