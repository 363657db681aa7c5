package interact

import (
	"errors"
	"slices"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
	"github.com/weft-engine/weft/internal/fault"
)

// Kind is what a part does; each kind uses one or two features and obeys
// the determinism rule: what it writes depends only on what it declares
// it reads, the step's events and engine.Time.
type Kind uint8

// The kinds, in the order a game takes them first.
const (
	KIntegrate  Kind = iota // Val += f(Acc), with a With or Without filter
	KHeat                   // writes Heat in a few rows: sparse changes
	KWatch                  // visits Changed or Added Heat, adds to Acc
	KEmit                   // emits Ping from chunks and from Schedule
	KRelay                  // reads Ping in Schedule, emits Pong
	KListen                 // folds Ping or Pong into Tally, in Merge
	KLife                   // counts Life down, despawns, spawns pairs through placeholders
	KToggle                 // switches Mark on and off from jobs and by commands
	KMarked                 // adds to Acc where Mark is on (an Optional column)
	KLookup                 // Heat = the Val of its Ref, through a read lookup
	KPoke                   // adds to its Ref's Acc, through a write lookup
	KFollow                 // re-targets Follows from the target's Val
	KAdopt                  // re-parents ChildOf to its Ref
	KPrune                  // despawns roots, and so their subtrees
	KFail                   // fails in some steps: a chunk panics, Schedule or Merge errs
	KStater                 // requests the next Mode, in Merge
	KOwner                  // exclusive: applies commands, switches Mark, sets targets
	KScoped                 // exclusive on entering a Mode: spawns entities scoped to it
	KObsDespawn             // observes Life's despawns, spawns what they leave
	KObsPing                // observes Ping events
	KObsLink                // observes Follows links added and removed
	KObsMark                // observes Mark added, adds Acc by command
	KReduce                 // sums Val over chunks (a Reduction) into Tally
	KRange                  // a Range pass over its own buffer, folded into Tally in Merge
	KTwoPass                // two chunk passes, the second after the first
	KMergeEmit              // emits Pong in Merge: it joins the next step
	KOnExit                 // exclusive on leaving a Mode: despawns by commands
	numKinds
)

func (k Kind) String() string { return kinds[k].name }

// kindInfo is a kind's name, role and the access that orders it (reads,
// writes: components, "Tally", "State").
type kindInfo struct {
	name          string
	role          role
	reads, writes []string
	make          func(s *scene, p Part) error
}

type role uint8

const (
	roleSystem role = iota
	roleExclusive
	roleObserver
)

var kinds [numKinds]kindInfo

func init() {
	kinds = [numKinds]kindInfo{
		KIntegrate:  {"integrate", roleSystem, []string{"Acc", "Mark", "Life"}, []string{"Val"}, makeIntegrate},
		KHeat:       {"heat", roleSystem, []string{"Val"}, []string{"Heat"}, makeHeat},
		KWatch:      {"watch", roleSystem, []string{"Heat"}, []string{"Acc"}, makeWatch},
		KEmit:       {"emit", roleSystem, []string{"Val"}, nil, makeEmit},
		KRelay:      {"relay", roleSystem, nil, nil, makeRelay},
		KListen:     {"listen", roleSystem, nil, []string{"Tally"}, makeListen},
		KLife:       {"life", roleSystem, []string{"Val"}, []string{"Life", "ChildOf"}, makeLife},
		KToggle:     {"toggle", roleSystem, []string{"Val"}, []string{"Mark"}, makeToggle},
		KMarked:     {"marked", roleSystem, []string{"Mark"}, []string{"Acc"}, makeMarked},
		KLookup:     {"lookup", roleSystem, []string{"Val", "Ref"}, []string{"Heat"}, makeLookup},
		KPoke:       {"poke", roleSystem, []string{"Ref"}, []string{"Acc"}, makePoke},
		KFollow:     {"follow", roleSystem, []string{"Val", "Ref"}, []string{"Follows"}, makeFollow},
		KAdopt:      {"adopt", roleSystem, []string{"Val", "Ref"}, []string{"ChildOf"}, makeAdopt},
		KPrune:      {"prune", roleSystem, []string{"Val", "ChildOf"}, nil, makePrune},
		KFail:       {"fail", roleSystem, []string{"Val"}, nil, makeFail},
		KStater:     {"stater", roleSystem, nil, []string{"State"}, makeStater},
		KOwner:      {"owner", roleExclusive, nil, nil, makeOwner},
		KScoped:     {"scoped", roleExclusive, nil, nil, makeScoped},
		KObsDespawn: {"obsdespawn", roleObserver, nil, nil, makeObsDespawn},
		KObsPing:    {"obsping", roleObserver, nil, nil, makeObsPing},
		KObsLink:    {"obslink", roleObserver, nil, nil, makeObsLink},
		KObsMark:    {"obsmark", roleObserver, nil, nil, makeObsMark},
		KReduce:     {"reduce", roleSystem, []string{"Val"}, []string{"Tally"}, makeReduce},
		KRange:      {"range", roleSystem, nil, []string{"Tally"}, makeRange},
		KTwoPass:    {"twopass", roleSystem, nil, []string{"Acc", "Val"}, makeTwoPass},
		KMergeEmit:  {"mergeemit", roleSystem, nil, nil, makeMergeEmit},
		KOnExit:     {"onexit", roleExclusive, nil, nil, makeOnExit},
	}
}

// conflicts reports whether two kinds touch something in common that one
// of them writes: such parts in one stage are ordered by their Index.
func conflicts(a, b Kind) bool {
	x, y := kinds[a], kinds[b]
	for _, w := range x.writes {
		if slices.Contains(y.writes, w) || slices.Contains(y.reads, w) {
			return true
		}
	}
	for _, w := range y.writes {
		if slices.Contains(x.reads, w) {
			return true
		}
	}
	return false
}

// step is the current step in a job or Schedule.
func step(t ecs.ResReader[engine.Time]) int64 { return int64(t.Get().Step) }

func makeIntegrate(s *scene, p Part) error {
	var (
		val ecs.Writer[Val]
		acc ecs.Reader[Acc]
	)
	return s.chunks(p, false, func(b *engine.Builder, d *ecs.Decl) (engine.Query, func(*ecs.Chunk)) {
		val, acc = ecs.Write[Val](d), ecs.Read[Acc](d)
		var filters []ecs.Filter
		switch p.Q % 3 {
		case 1:
			filters = append(filters, ecs.With[Mark]())
		case 2:
			filters = append(filters, ecs.Without[Life]())
		}
		return ecs.NewQuery2(d, val, acc, filters...), func(c *ecs.Chunk) {
			v, a := val.Column(c), acc.Column(c)
			for i := range v {
				v[i].V += a[i].V%7 - 3 + int64(p.P)
			}
		}
	})
}

func makeHeat(s *scene, p Part) error {
	var (
		heat ecs.Writer[Heat]
		val  ecs.Reader[Val]
		t    ecs.ResReader[engine.Time]
	)
	return s.chunks(p, false, func(b *engine.Builder, d *ecs.Decl) (engine.Query, func(*ecs.Chunk)) {
		heat, val, t = ecs.Write[Heat](d), ecs.Read[Val](d), ecs.ReadRes[engine.Time](d)
		return ecs.NewQuery2(d, heat, val), func(c *ecs.Chunk) {
			h, v, now := heat.Column(c), val.Column(c), step(t)
			for i := range h {
				if (v[i].V+now)%int64(p.P+3) == 0 { // a few rows: a sparse write
					h[i].V = h[i].V*3 + v[i].V
				}
			}
		}
	})
}

func makeWatch(s *scene, p Part) error {
	var (
		acc  ecs.Writer[Acc]
		heat ecs.Reader[Heat]
	)
	return s.chunks(p, false, func(b *engine.Builder, d *ecs.Decl) (engine.Query, func(*ecs.Chunk)) {
		acc, heat = ecs.Write[Acc](d), ecs.Read[Heat](d)
		filter := ecs.Changed(heat)
		if p.Q%2 == 0 {
			filter = ecs.Added(heat)
		}
		return ecs.NewQuery2(d, acc, heat, filter), func(c *ecs.Chunk) {
			a, h := acc.Column(c), heat.Column(c)
			for i := range a {
				a[i].V += h[i].V%5 + 1
			}
		}
	})
}

func makeEmit(s *scene, p Part) error {
	var (
		val  ecs.Reader[Val]
		ping ecs.Emitter[Ping]
		t    ecs.ResReader[engine.Time]
		pass *engine.Pass
	)
	return s.add(p, &system{name: p.Name(), build: func(b *engine.Builder) error {
		d := b.Decl()
		val, ping, t = ecs.Read[Val](d), ecs.Emit[Ping](d), ecs.ReadRes[engine.Time](d)
		pass = b.Chunks("emit", ecs.NewQuery1(d, val), func(c *ecs.Chunk) {
			v, now := val.Column(c), step(t)
			for i, e := range c.Entities() {
				if (v[i].V+now)%int64(p.P+1) == 0 {
					ping.Emit(c, Ping{V: v[i].V, E: e})
				}
			}
		})
		return nil
	}, sched: func(f *engine.Frame) error {
		ping.EmitOwner(Ping{V: -int64(f.Time().Step)})
		return f.Run(pass)
	}})
}

func makeRelay(s *scene, p Part) error {
	var (
		ping ecs.EventReader[Ping]
		pong ecs.Emitter[Pong]
	)
	return s.add(p, &system{name: p.Name(), build: func(b *engine.Builder) error {
		d := b.Decl()
		ping, pong = ecs.ReadEvents[Ping](d), ecs.Emit[Pong](d)
		return nil
	}, sched: func(f *engine.Frame) error {
		h := int64(p.P)
		for _, ev := range ping.Events() {
			h = fold(h, ev.V)
		}
		pong.EmitOwner(Pong{V: h})
		return nil
	}})
}

func makeListen(s *scene, p Part) error {
	var (
		ping  ecs.EventReader[Ping]
		pong  ecs.EventReader[Pong]
		tally ecs.ResWriter[Tally]
	)
	return s.add(p, merging{&system{name: p.Name(), build: func(b *engine.Builder) error {
		d := b.Decl()
		if p.P%2 == 0 {
			ping = ecs.ReadEvents[Ping](d)
		} else {
			pong = ecs.ReadEvents[Pong](d)
		}
		tally = ecs.WriteRes[Tally](d)
		return nil
	}, sched: func(*engine.Frame) error { return nil }}, func(*engine.Frame) error {
		t := tally.Get()
		if p.P%2 == 0 {
			for _, ev := range ping.Events() {
				t.N, t.H = t.N+1, fold(t.H, ev.V^int64(ev.E.ID()))
			}
		} else {
			for _, ev := range pong.Events() {
				t.N, t.H = t.N+1, fold(t.H, ev.V)
			}
		}
		return nil
	}})
}

func makeLife(s *scene, p Part) error {
	var (
		life  ecs.Writer[Life]
		val   ecs.Reader[Val]
		child ecs.RelationWriter[ecs.ChildOf]
	)
	c := s.c
	return s.chunks(p, false, func(b *engine.Builder, d *ecs.Decl) (engine.Query, func(*ecs.Chunk)) {
		life, val, child = ecs.Write[Life](d), ecs.Read[Val](d), ecs.WriteRelation[ecs.ChildOf](d)
		b.Commands()
		return ecs.NewQuery2(d, life, val), func(ch *ecs.Chunk) {
			l, v, cmds := life.Column(ch), val.Column(ch), ch.Commands()
			for i, e := range ch.Entities() {
				if l[i].Left--; l[i].Left > 0 {
					continue
				}
				cmds.Despawn(e) // and its ChildOf subtree
				if e.ID()%uint32(p.P+1) != 0 {
					continue
				}
				a, z := cmds.Spawn(), cmds.Spawn() // placeholders naming each other
				c.val.Add(cmds, a, Val{V: v[i].V + 1})
				c.life.Add(cmds, a, Life{Left: int32(2 + (v[i].V&7+int64(p.Q))%9)})
				c.ref.Add(cmds, a, Ref{To: z})
				c.val.Add(cmds, z, Val{V: v[i].V - 1})
				c.ref.Add(cmds, z, Ref{To: a})
				child.Set(cmds, z, a)
			}
		}
	})
}

func makeToggle(s *scene, p Part) error {
	var (
		val ecs.Reader[Val]
		on  ecs.EnabledWriter[Mark]
		t   ecs.ResReader[engine.Time]
	)
	mark := s.c.mark
	return s.chunks(p, false, func(b *engine.Builder, d *ecs.Decl) (engine.Query, func(*ecs.Chunk)) {
		val, on, t = ecs.Read[Val](d), ecs.WriteEnabled[Mark](d), ecs.ReadRes[engine.Time](d)
		b.Commands()
		return ecs.NewQuery1(d, val, ecs.With[Mark]()), func(c *ecs.Chunk) {
			v, now := val.Column(c), step(t)
			for i, e := range c.Entities() {
				switch (v[i].V + now) % int64(p.P+1) {
				case 0: // now, from the job
					on.Set(c, i, !on.Enabled(c, i))
				case 1: // at playback, by command
					mark.SetEnabled(c.Commands(), e, v[i].V%2 == 0)
				}
			}
		}
	})
}

func makeMarked(s *scene, p Part) error {
	var (
		acc ecs.Writer[Acc]
		on  ecs.EnabledReader[Mark]
	)
	return s.chunks(p, false, func(b *engine.Builder, d *ecs.Decl) (engine.Query, func(*ecs.Chunk)) {
		acc, on = ecs.Write[Acc](d), ecs.ReadEnabled[Mark](d)
		mark := ecs.Read[Mark](d)
		return ecs.NewQuery1(d, acc, ecs.Optional(mark)), func(c *ecs.Chunk) {
			a := acc.Column(c)
			for i := range on.Each(c) {
				a[i].V += int64(p.P)
			}
		}
	})
}

func makeLookup(s *scene, p Part) error {
	var (
		heat ecs.Writer[Heat]
		ref  ecs.Reader[Ref]
		val  ecs.LookupReader[Val]
	)
	return s.chunks(p, false, func(b *engine.Builder, d *ecs.Decl) (engine.Query, func(*ecs.Chunk)) {
		heat, ref, val = ecs.Write[Heat](d), ecs.Read[Ref](d), ecs.ReadLookup[Val](d)
		return ecs.NewQuery2(d, heat, ref), func(c *ecs.Chunk) {
			h, r := heat.Column(c), ref.Column(c)
			for i := range h {
				if v, ok := val.Get(r[i].To); ok {
					h[i].V = v.V % 1000
				} else if h[i].V >= 0 {
					h[i].V = -1
				}
			}
		}
	})
}

func makePoke(s *scene, p Part) error {
	var (
		ref ecs.Reader[Ref]
		acc ecs.LookupWriter[Acc]
	)
	return s.chunks(p, true, func(b *engine.Builder, d *ecs.Decl) (engine.Query, func(*ecs.Chunk)) {
		ref, acc = ecs.Read[Ref](d), ecs.WriteLookup[Acc](d)
		return ecs.NewQuery1(d, ref), func(c *ecs.Chunk) {
			for _, r := range ref.Column(c) {
				if a, ok := acc.Get(c, r.To); ok {
					a.V = fold(a.V, int64(p.P)) % 1_000_000
				}
			}
		}
	})
}

func makeFollow(s *scene, p Part) error {
	var (
		val ecs.Reader[Val]
		ref ecs.Reader[Ref]
		rel ecs.RelationReader[Follows]
		set ecs.RelationWriter[Follows]
		t   ecs.ResReader[engine.Time]
	)
	return s.chunks(p, false, func(b *engine.Builder, d *ecs.Decl) (engine.Query, func(*ecs.Chunk)) {
		val, ref, t = ecs.Read[Val](d), ecs.Read[Ref](d), ecs.ReadRes[engine.Time](d)
		rel, set = ecs.ReadRelation[Follows](d), ecs.WriteRelation[Follows](d)
		return ecs.NewQuery2(d, val, ref, ecs.Optional(rel)), func(c *ecs.Chunk) {
			v, r, now := val.Column(c), ref.Column(c), step(t)
			targets := ecs.TargetsOf(val, rel, c)
			for i, e := range c.Entities() {
				switch tv, ok := targets.Get(i); {
				case ok && tv.V%int64(p.P+2) == 0:
					set.Remove(c.Commands(), e)
				case (v[i].V+now)%int64(p.Q+2) == 0 && r[i].To != (ecs.Entity{}):
					set.Set(c.Commands(), e, r[i].To) // a dead or cyclic target is a skipped command
				}
			}
		}
	})
}

func makeAdopt(s *scene, p Part) error {
	var (
		val ecs.Reader[Val]
		ref ecs.Reader[Ref]
		set ecs.RelationWriter[ecs.ChildOf]
		t   ecs.ResReader[engine.Time]
	)
	return s.chunks(p, false, func(b *engine.Builder, d *ecs.Decl) (engine.Query, func(*ecs.Chunk)) {
		val, ref, t = ecs.Read[Val](d), ecs.Read[Ref](d), ecs.ReadRes[engine.Time](d)
		set = ecs.WriteRelation[ecs.ChildOf](d)
		return ecs.NewQuery2(d, val, ref), func(c *ecs.Chunk) {
			v, r, now := val.Column(c), ref.Column(c), step(t)
			for i, e := range c.Entities() {
				switch k := (v[i].V + now) % int64(p.P+3); {
				case k == 0 && r[i].To != (ecs.Entity{}):
					set.Set(c.Commands(), e, r[i].To)
				case k == 1:
					set.Remove(c.Commands(), e)
				}
			}
		}
	})
}

func makePrune(s *scene, p Part) error {
	var (
		val ecs.Reader[Val]
		t   ecs.ResReader[engine.Time]
	)
	return s.chunks(p, false, func(b *engine.Builder, d *ecs.Decl) (engine.Query, func(*ecs.Chunk)) {
		val, t = ecs.Read[Val](d), ecs.ReadRes[engine.Time](d)
		b.Commands()
		roots := ecs.NewQuery1(d, val, ecs.Without[ecs.Link[ecs.ChildOf]]())
		return roots, func(c *ecs.Chunk) {
			v, now := val.Column(c), step(t)
			for i, e := range c.Entities() {
				if (v[i].V+now)%int64(p.P+5) == 0 && e.ID()%uint32(p.Q+1) == 0 {
					c.Commands().Despawn(e)
				}
			}
		}
	})
}

// errFail is what a failing part fails with.
var errFail = errors.New("interact: a part that fails in this step")

// failStep reports whether a failing part fails in step now.
func failStep(p Part, now int64) bool { return now%int64(p.P+1) == 0 }

// makeFail makes a part that fails in some steps: a chunk panics (in a
// game without chained chunks, where a failing pass skips its dependents
// as a whole, whatever the batch), its Schedule errs, or its Merge does.
// It writes nothing, so what it leaves does not depend on the chunks.
func makeFail(s *scene, p Part) error {
	var (
		val  ecs.Reader[Val]
		t    ecs.ResReader[engine.Time]
		pass *engine.Pass
	)
	how := p.Q % 3
	if how == 0 && s.g.Chain {
		how = 1
	}
	sys := &system{name: p.Name(), build: func(b *engine.Builder) error {
		d := b.Decl()
		val, t = ecs.Read[Val](d), ecs.ReadRes[engine.Time](d)
		pass = b.Chunks("fail", ecs.NewQuery1(d, val), func(c *ecs.Chunk) {
			if how != 0 || !failStep(p, step(t)) {
				return
			}
			for _, e := range c.Entities() {
				if e.ID()%7 == uint32(p.Q)%7 {
					panic(errFail)
				}
			}
		})
		return nil
	}, sched: func(f *engine.Frame) error {
		if how == 1 && failStep(p, int64(f.Time().Step)) {
			return errFail
		}
		return f.Run(pass)
	}}
	if how != 2 {
		return s.add(p, sys)
	}
	return s.add(p, merging{sys, func(f *engine.Frame) error {
		if failStep(p, int64(f.Time().Step)) {
			return errFail
		}
		return nil
	}})
}

func makeStater(s *scene, p Part) error {
	var mode ecs.ResWriter[engine.State[Mode]]
	return s.add(p, merging{&system{name: p.Name(), build: func(b *engine.Builder) error {
		mode = ecs.WriteRes[engine.State[Mode]](b.Decl())
		return nil
	}, sched: func(*engine.Frame) error { return nil }}, func(f *engine.Frame) error {
		if f.Time().Step%uint64(p.P+2) != 0 {
			return nil
		}
		st := mode.Get()
		return st.Set((st.Current() + 1) % numModes)
	}})
}

// makeOwner makes an exclusive system that changes the world as the
// owner does: a buffer applied at once (placeholders, a relation), a
// switch of Mark and a target set directly.
func makeOwner(s *scene, p Part) error {
	c := s.c
	return s.add(p, &exclusive{name: p.Name(), run: func(w *ecs.World, t engine.Time) error {
		if t.Step%uint64(p.P+1) != 0 {
			return nil
		}
		b := w.NewCommands()
		a, z := b.Spawn(), b.Spawn()
		c.val.Add(b, a, Val{V: int64(t.Step)})
		c.mark.Add(b, a, Mark{N: int32(p.Q)})
		c.mark.SetEnabled(b, a, t.Step%3 != 0) // a switch by command, of a placeholder
		c.life.Add(b, a, Life{Left: int32(1 + p.Q)})
		c.val.Add(b, z, Val{V: -int64(t.Step)})
		c.ref.Add(b, z, Ref{To: a})
		if err := ecs.Relate[Follows](b, z, a); err != nil {
			return err
		}
		if _, err := w.Apply(b); err != nil {
			return err
		}
		marked := sorted(w, c.mark)
		if len(marked) > 0 {
			if err := ecs.SetEnabled[Mark](w, marked[int(t.Step)%len(marked)], t.Step%2 == 0); err != nil {
				return err
			}
		}
		vals := sorted(w, c.val)
		if len(vals) > 1 {
			e, to := vals[int(t.Step*7)%len(vals)], vals[int(t.Step*13+uint64(p.Q))%len(vals)]
			if err := ecs.SetTarget[Follows](w, e, to); err != nil && !isCode(err, ecs.ErrBadArgument) {
				return err // a cycle, or an entity targeting itself, is refused: that is the rule
			}
		}
		return nil
	}})
}

// makeScoped makes an exclusive system run on entering a Mode that spawns
// entities scoped to it: they go when the state leaves it.
func makeScoped(s *scene, p Part) error {
	c, mode := s.c, Mode(p.P)%numModes
	x := &exclusive{name: p.Name(), run: func(w *ecs.World, t engine.Time) error {
		b := w.NewCommands()
		for i := range p.Q + 1 {
			e := b.Spawn()
			c.val.Add(b, e, Val{V: int64(t.Step)*10 + int64(i)})
			c.mark.Add(b, e, Mark{N: int32(i)})
			c.scope.Add(b, e, Scope{In: mode})
		}
		_, err := w.Apply(b)
		return err
	}}
	if p.Q%2 == 0 {
		return engine.OnTransition(s.eng, (mode+numModes-1)%numModes, mode, x)
	}
	return engine.OnEnter(s.eng, mode, x)
}

// observe adds p as an observer that folds into Seen: declare declares
// what it observes and any other access, fn handles one call.
func (s *scene) observe(p Part, declare func(d *ecs.Decl), fn func(ev ecs.Observed, seen *Seen) error) error {
	var seen ecs.ResWriter[Seen]
	return s.eng.AddObserver(&observer{name: p.Name(), build: func(b *engine.ObserverBuilder) error {
		seen = ecs.WriteRes[Seen](b.Decl())
		declare(b.Decl())
		return nil
	}, observe: func(ev ecs.Observed) error { return fn(ev, seen.Get()) }})
}

func makeObsDespawn(s *scene, p Part) error {
	var val ecs.LookupReader[Val]
	c := s.c
	return s.observe(p, func(d *ecs.Decl) {
		val = ecs.ReadLookup[Val](d)
		ecs.Observe[Life](d, ecs.OnDespawn)
	}, func(ev ecs.Observed, seen *Seen) error {
		v, _ := val.Get(ev.Entity) // still there: it goes after its observers
		seen.N, seen.H = seen.N+1, fold(seen.H, v.V)
		if v.V%int64(p.P+1) == 0 {
			e := ev.Commands.Spawn()
			c.val.Add(ev.Commands, e, Val{V: v.V / 2})
		}
		return nil
	})
}

func makeObsPing(s *scene, p Part) error {
	c := s.c
	return s.observe(p, ecs.ObserveEvent[Ping], func(ev ecs.Observed, seen *Seen) error {
		ping, _ := ecs.EventOf[Ping](ev)
		seen.N, seen.H = seen.N+1, fold(seen.H, ping.V)
		if ping.V%97 == int64(p.P) {
			e := ev.Commands.Spawn()
			c.heat.Add(ev.Commands, e, Heat{V: ping.V})
			c.val.Add(ev.Commands, e, Val{V: 1})
		}
		return nil
	})
}

func makeObsLink(s *scene, p Part) error {
	return s.observe(p, func(d *ecs.Decl) {
		ecs.Observe[ecs.Link[Follows]](d, ecs.OnAdd)
		ecs.Observe[ecs.Link[Follows]](d, ecs.OnRemove)
	}, func(ev ecs.Observed, seen *Seen) error {
		seen.N, seen.H = seen.N+1, fold(seen.H, int64(ev.Trigger)<<32|int64(ev.Entity.ID()))
		return nil
	})
}

func makeObsMark(s *scene, p Part) error {
	c := s.c
	return s.observe(p, func(d *ecs.Decl) { ecs.Observe[Mark](d, ecs.OnAdd) }, func(ev ecs.Observed, seen *Seen) error {
		seen.N++
		c.acc.Add(ev.Commands, ev.Entity, Acc{V: int64(p.P)})
		return nil
	})
}

// isCode reports whether err is a typed error with code.
func isCode(err error, code fault.Code) bool {
	var e *ecs.Error
	return errors.As(err, &e) && e.Code == code
}

// chunks adds p as a system of one chunk pass (as one job, inOrder):
// decl declares its access and returns the pass's query and body.
func (s *scene) chunks(p Part, inOrder bool, decl func(b *engine.Builder, d *ecs.Decl) (engine.Query, func(*ecs.Chunk))) error {
	var pass *engine.Pass
	return s.add(p, &system{name: p.Name(), sched: runPass(&pass), build: func(b *engine.Builder) error {
		q, fn := decl(b, b.Decl())
		if inOrder {
			pass = b.ChunksInOrder(p.Kind.String(), q, fn)
		} else {
			pass = b.Chunks(p.Kind.String(), q, fn)
		}
		return nil
	}})
}

// sum is a reduction's partial: exact, so the same for every batch.
type sum struct{ N, V int64 }

func makeReduce(s *scene, p Part) error {
	var (
		val   ecs.Reader[Val]
		tally ecs.ResWriter[Tally]
		red   *ecs.Reduction[sum]
		pass  *engine.Pass
	)
	return s.add(p, merging{&system{name: p.Name(), sched: runPass(&pass), build: func(b *engine.Builder) error {
		d := b.Decl()
		val, tally = ecs.Read[Val](d), ecs.WriteRes[Tally](d)
		q := ecs.NewQuery1(d, val)
		red = ecs.NewReduction[sum](q)
		pass = b.Chunks("reduce", q, func(c *ecs.Chunk) {
			part := red.Part(c)
			for _, v := range val.Column(c) {
				part.N, part.V = part.N+1, part.V+v.V%int64(p.P+100)
			}
		})
		return nil
	}}, func(*engine.Frame) error {
		var all sum
		for _, x := range red.Parts() {
			all.N, all.V = all.N+x.N, all.V+x.V
		}
		t := tally.Get()
		t.N, t.H = t.N+all.N, fold(t.H, all.V)
		return nil
	}})
}

// makeRange makes a system that fills a buffer of its own with a Range
// pass each step and folds it into Tally in Merge: the buffer lives one
// step, so nothing of it needs to be in the world.
func makeRange(s *scene, p Part) error {
	var (
		tally ecs.ResWriter[Tally]
		buf   []int64
		pass  *engine.Pass
	)
	return s.add(p, merging{&system{name: p.Name(), build: func(b *engine.Builder) error {
		tally = ecs.WriteRes[Tally](b.Decl())
		pass = b.Range("range", func(lo, hi int) {
			for i := lo; i < hi; i++ {
				buf[i] = int64(i*i+p.P) % 101
			}
		})
		return nil
	}, sched: func(f *engine.Frame) error {
		n := 50 + int(f.Time().Step)%(30*p.Q)
		buf = append(buf[:0], make([]int64, n)...)
		return f.RunRange(pass, n, p.P+2)
	}}, func(*engine.Frame) error {
		t := tally.Get()
		for _, v := range buf {
			t.H = fold(t.H, v)
		}
		return nil
	}})
}

// makeTwoPass makes a system of two chunk passes over two queries: the
// second runs after the first and reads what it wrote.
func makeTwoPass(s *scene, p Part) error {
	var (
		acc         ecs.Writer[Acc]
		val         ecs.Writer[Val]
		first, then *engine.Pass
	)
	return s.add(p, &system{name: p.Name(), build: func(b *engine.Builder) error {
		d := b.Decl()
		acc, val = ecs.Write[Acc](d), ecs.Write[Val](d)
		first = b.Chunks("first", ecs.NewQuery2(d, acc, val), func(c *ecs.Chunk) {
			a, v := acc.Column(c), val.Column(c)
			for i := range a {
				a[i].V += v[i].V % int64(p.P+2)
			}
		})
		then = b.Chunks("then", ecs.NewQuery1(d, acc, ecs.With[Heat]()), func(c *ecs.Chunk) {
			for i := range acc.Column(c) {
				acc.Column(c)[i].V /= 2
			}
		})
		return nil
	}, sched: func(f *engine.Frame) error {
		if err := f.Run(first); err != nil {
			return err
		}
		return f.Run(then)
	}})
}

func makeMergeEmit(s *scene, p Part) error {
	var pong ecs.Emitter[Pong]
	return s.add(p, merging{&system{name: p.Name(), build: func(b *engine.Builder) error {
		pong = ecs.Emit[Pong](b.Decl())
		return nil
	}, sched: func(*engine.Frame) error { return nil }}, func(f *engine.Frame) error {
		pong.EmitOwner(Pong{V: int64(f.Time().Step) * int64(p.P)})
		return nil
	}})
}

// makeOnExit makes an exclusive system run on leaving a Mode that
// despawns, by commands, the first entities with Heat.
func makeOnExit(s *scene, p Part) error {
	c := s.c
	return engine.OnExit(s.eng, Mode(p.P)%numModes, &exclusive{name: p.Name(), run: func(w *ecs.World, t engine.Time) error {
		hot := sorted(w, c.heat)
		b := w.NewCommands()
		for _, e := range hot[:min(len(hot), p.Q)] {
			b.Despawn(e)
		}
		_, err := w.Apply(b)
		return err
	}})
}
