package interact

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync/atomic"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
	"github.com/weft-engine/weft/replay"
)

// RunConfig is an executor a game runs on.
type RunConfig struct {
	Workers int
	Batch   int // 0: adaptive
}

func (c RunConfig) String() string {
	if c.Batch == 0 {
		return fmt.Sprintf("W%d batch adaptive", c.Workers)
	}
	return fmt.Sprintf("W%d batch %d", c.Workers, c.Batch)
}

// comps are the scene's component handles, for commands and hashes.
type comps struct {
	val     ecs.Component[Val]
	acc     ecs.Component[Acc]
	heat    ecs.Component[Heat]
	life    ecs.Component[Life]
	mark    ecs.Component[Mark]
	ref     ecs.Component[Ref]
	scope   ecs.Component[Scope]
	follows ecs.Component[ecs.Link[Follows]]
	child   ecs.Component[ecs.Link[ecs.ChildOf]]
}

// all is every component, in a fixed order, for the world's hash.
func (c comps) all() []ecs.Comp {
	return []ecs.Comp{c.val, c.acc, c.heat, c.life, c.mark, c.ref, c.scope, c.follows, c.child}
}

// scene is one game built on one executor: its world, engine and the
// owner's resources. It is a replay.Sim. Every method is executed only by
// the owner.
type scene struct {
	g       *Game
	w       *ecs.World
	eng     *engine.Engine
	c       comps
	knob    *Knob
	tally   *Tally
	seen    *Seen
	fails   map[string]bool // the names of the failing parts
	pending []Action        // the owner's actions for the next step
	measure bool            // count the next step's allocations (StepAllocs)
}

// warmUp is the steps of a game before its allocations count: its tables,
// buffers and snapshots are made in the first ones.
const warmUp = 5

// stepAllocs are the engine steps measured and their allocations.
var stepAllocs struct{ steps, mallocs atomic.Uint64 }

// StepAllocs is the number of engine steps measured since the process
// started (each serial run's steps after warm-up) and the allocations
// they made, the engine's and the systems', not the owner's actions.
func StepAllocs() (steps, mallocs uint64) {
	return stepAllocs.steps.Load(), stepAllocs.mallocs.Load()
}

// build makes g's world, spawns its first entities, adds its parts and
// builds the engine on cfg. Close the scene's engine when done.
func build(g *Game, cfg RunConfig) (*scene, error) {
	w := ecs.NewWorld(ecs.Options{})
	if err := ecs.NewRelation[Follows](w, ecs.Detach); err != nil {
		return nil, err
	}
	s := &scene{g: g, w: w, knob: &Knob{}, tally: &Tally{}, seen: &Seen{}, fails: map[string]bool{}}
	s.c = comps{
		val: ecs.NewComponent[Val](w), acc: ecs.NewComponent[Acc](w), heat: ecs.NewComponent[Heat](w),
		life: ecs.NewComponent[Life](w), mark: ecs.NewComponent[Mark](w), ref: ecs.NewComponent[Ref](w),
		scope: ecs.NewComponent[Scope](w), follows: ecs.NewComponent[ecs.Link[Follows]](w),
		child: ecs.NewComponent[ecs.Link[ecs.ChildOf]](w),
	}
	if err := errors.Join(ecs.AddResource(w, s.knob), ecs.AddResource(w, s.tally), ecs.AddResource(w, s.seen)); err != nil {
		return nil, err
	}
	if err := s.populate(); err != nil {
		return nil, err
	}
	eng, err := engine.New(w, engine.Config{Workers: cfg.Workers, Serial: cfg.Workers == 0, Batch: cfg.Batch, ChainChunks: g.Chain})
	if err != nil {
		return nil, err
	}
	s.eng = eng
	if err := s.addParts(); err != nil {
		eng.Close()
		return nil, err
	}
	if err := errors.Join(eng.Build(), eng.SetRewind(8, 1)); err != nil {
		eng.Close()
		return nil, err
	}
	return s, nil
}

// populate spawns the game's first entities in one owner buffer: every
// one with a Val, some with the other components, a Ref to an earlier
// one, a parent and a target, through placeholders.
func (s *scene) populate() error {
	r := rand.New(rand.NewPCG(s.g.Seed, 1))
	b := s.w.NewCommands()
	var made []ecs.Entity
	for i := range s.g.Entities {
		e := b.Spawn()
		s.components(b, e, i, r)
		if i == 0 {
			made = append(made, e)
			continue
		}
		if r.IntN(2) == 0 {
			s.c.ref.Add(b, e, Ref{To: made[r.IntN(len(made))]})
		}
		var err error
		if r.IntN(5) == 0 {
			err = ecs.Relate[ecs.ChildOf](b, e, made[r.IntN(len(made))])
		} else if r.IntN(6) == 0 {
			err = ecs.Relate[Follows](b, e, made[r.IntN(len(made))])
		}
		if err != nil {
			return err
		}
		made = append(made, e)
	}
	rep, err := s.w.Apply(b)
	if err == nil && len(rep.Problems) > 0 {
		err = fmt.Errorf("populating: %v", rep.Err())
	}
	return err
}

// components records the i-th first entity's components but its Ref.
func (s *scene) components(b *ecs.Commands, e ecs.Entity, i int, r *rand.Rand) {
	c := s.c
	c.val.Add(b, e, Val{V: int64(r.IntN(1000))})
	if r.IntN(10) < 7 {
		c.acc.Add(b, e, Acc{V: int64(r.IntN(50))})
	}
	if r.IntN(2) == 0 {
		c.heat.Add(b, e, Heat{V: int64(r.IntN(50))})
	}
	if r.IntN(5) < 2 {
		c.life.Add(b, e, Life{Left: int32(2 + r.IntN(25))})
	}
	if r.IntN(5) < 2 {
		c.mark.Add(b, e, Mark{N: int32(i)})
	}
}

// addParts adds the game's parts in the order of their Index, each after
// the earlier parts of its stage that it conflicts with, and declares the
// sets that have members.
func (s *scene) addParts() error {
	if err := engine.AddState(s.eng, ModeA, ModeB, ModeC); err != nil {
		return err
	}
	emits := slices.ContainsFunc(s.g.Parts, func(p Part) bool { return p.Kind == KEmit })
	for i, set := range s.g.Sets {
		if !slices.ContainsFunc(s.g.Parts, func(p Part) bool { return p.Set == i }) {
			continue
		}
		if err := s.eng.Set(setName(i), engine.InStage(set.Stage), condition(set.Cond, set.Arg)); err != nil {
			return err
		}
	}
	for _, p := range s.g.Parts {
		if p.Kind == KObsPing && !emits {
			continue // an observer of events nobody emits is refused at Build
		}
		if p.Kind == KFail {
			s.fails[p.Name()] = true
		}
		if err := kinds[p.Kind].make(s, p); err != nil {
			return fmt.Errorf("adding %s: %w", p.Name(), err)
		}
	}
	return nil
}

func setName(i int) string { return fmt.Sprintf("set%d", i) }

// add adds a system or an exclusive system with its options.
func (s *scene) add(p Part, sys any) error {
	var opts []engine.Option
	if p.Cond != CondNone {
		opts = append(opts, condition(p.Cond, p.Arg))
	}
	if p.Set >= 0 {
		opts = append(opts, engine.InSet(setName(p.Set)))
	}
	if x, ok := sys.(engine.Exclusive); ok {
		return s.eng.AddExclusive(p.Stage, x, opts...)
	}
	var after []string
	for _, q := range s.g.Parts {
		if q.Index < p.Index && q.Stage == p.Stage && kinds[q.Kind].role == roleSystem && conflicts(p.Kind, q.Kind) {
			after = append(after, q.Name())
		}
	}
	if len(after) > 0 {
		opts = append(opts, engine.After(after...))
	}
	return s.eng.Add(p.Stage, sys.(engine.System), opts...)
}

// condition is the run condition c with its parameter.
func condition(c Cond, arg int) engine.Option {
	switch c {
	case CondEvery:
		return engine.EveryN(arg)
	case CondRunIf:
		return engine.RunIf(func(f *engine.Frame) bool { return f.Time().Step%uint64(arg) != 0 })
	case CondKnob:
		return engine.WhileRes(func(k *Knob) bool { return k.V != int64(arg%4) })
	default:
		return engine.InState(Mode(arg) % numModes)
	}
}

// sorted is the entities that have comp, in the order of their ids.
func sorted[T any](w *ecs.World, comp ecs.Component[T]) []ecs.Entity {
	seq, err := w.Entities(comp)
	if err != nil {
		return nil
	}
	var out []ecs.Entity
	for e := range seq {
		out = append(out, e)
	}
	slices.SortFunc(out, func(a, b ecs.Entity) int { return cmp.Compare(a.ID(), b.ID()) })
	return out
}

// hash is the world's hash: every entity, every component's values and
// on/off states, the resources, the state and the step.
func (s *scene) hash() (uint64, error) {
	h := fnv.New64a()
	put := func(v uint64) { h.Write(binary.LittleEndian.AppendUint64(nil, v)) }
	all, err := s.w.Hash()
	if err != nil {
		return 0, err
	}
	put(all)
	for _, c := range s.c.all() {
		x, err := s.w.Hash(c)
		if err != nil {
			return 0, err
		}
		put(x)
	}
	for _, v := range []int64{s.tally.N, s.tally.H, s.seen.N, s.seen.H, s.knob.V} {
		put(uint64(v))
	}
	st, err := engine.StateOf[Mode](s.w)
	if err != nil {
		return 0, err
	}
	put(uint64(st.Current()))
	put(s.eng.Time().Step)
	return h.Sum64(), nil
}

// deadLink is the first relation link that names a dead entity, or "".
func (s *scene) deadLink() string {
	alive := s.w.Ark().Alive
	for _, e := range sorted(s.w, s.c.follows) {
		if t, ok, err := ecs.TargetOf[Follows](s.w, e); err != nil || ok && !alive(t) {
			return fmt.Sprintf("%v follows %v, which is dead (%v)", e, t, err)
		}
	}
	for _, e := range sorted(s.w, s.c.child) {
		if t, ok, err := ecs.TargetOf[ecs.ChildOf](s.w, e); err != nil || ok && !alive(t) {
			return fmt.Sprintf("%v is a child of %v, which is dead (%v)", e, t, err)
		}
	}
	return ""
}

// The replay.Sim methods.

func (s *scene) Engine() *engine.Engine { return s.eng }

func (s *scene) Digest() (uint64, error) { return s.hash() }

func (s *scene) Resources() []replay.Resource { return []replay.Resource{replay.Track("knob", s.knob)} }

func (s *scene) Do(action []byte) error {
	var a Action
	if err := replay.Decode(action, &a); err != nil {
		return err
	}
	s.pending = append(s.pending, a)
	return nil
}

// Tick carries out the owner's pending actions, then runs one step.
func (s *scene) Tick() error {
	for _, a := range s.pending {
		if err := s.apply(a); err != nil {
			return fmt.Errorf("the owner's %v: %w", a, err)
		}
	}
	s.pending = s.pending[:0]
	if !s.measure {
		return s.eng.Tick()
	}
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	before := m.Mallocs
	err := s.eng.Tick()
	runtime.ReadMemStats(&m)
	stepAllocs.steps.Add(1)
	stepAllocs.mallocs.Add(m.Mallocs - before)
	return err
}
