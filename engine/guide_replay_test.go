package engine_test

// The code of docs/guide/12-determinism.md, record and replay:
// TestGuide checks that its Go blocks appear here verbatim.

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync/atomic"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
	"github.com/weft-engine/weft/replay"
)

// Ember is a spark that cools and drifts.
type Ember struct{ Heat, Drift float64 }

// Cool cools every ember by the step's time and the wind: it reads only
// its components, a resource and Time, so it writes the same on every
// run, worker count and batch size.
type Cool struct {
	ember ecs.Writer[Ember]
	wind  ecs.ResReader[Wind]
	time  ecs.ResReader[engine.Time]
	pass  *engine.Pass
}

// Wind is set by the game between steps.
type Wind struct{ Speed float64 }

func (s *Cool) Name() string { return "cool" }

func (s *Cool) Build(b *engine.Builder) error {
	d := b.Decl()
	s.ember, s.wind, s.time = ecs.Write[Ember](d), ecs.ReadRes[Wind](d), ecs.ReadRes[engine.Time](d)
	s.pass = b.Chunks("cool", ecs.NewQuery1(d, s.ember), s.cool)
	return nil
}

func (s *Cool) Schedule(f *engine.Frame) error { return f.Run(s.pass) }

func (s *Cool) cool(c *ecs.Chunk) {
	dt, wind := s.time.Get().DT, s.wind.Get().Speed
	for i := range s.ember.Column(c) {
		e := &s.ember.Column(c)[i]
		e.Heat -= e.Heat * dt
		e.Drift += wind * dt
	}
}

// Blend gives every ember the mean heat. It is not deterministic: each
// chunk adds its heat to a shared total when it finishes, so the total's
// rounding depends on how the rows were cut into chunks and on which job
// finished first.
type Blend struct {
	ember      ecs.Writer[Ember]
	total      atomic.Uint64 // float64 bits
	n          atomic.Int64
	sum, share *engine.Pass
}

func (s *Blend) Name() string { return "blend" }

func (s *Blend) Build(b *engine.Builder) error {
	d := b.Decl()
	s.ember = ecs.Write[Ember](d)
	q := ecs.NewQuery1(d, s.ember)
	s.sum = b.Chunks("sum", q, s.add)
	s.share = b.Chunks("share", q, s.give)
	return nil
}

func (s *Blend) Schedule(f *engine.Frame) error {
	s.total.Store(0)
	s.n.Store(0)
	if err := f.Run(s.sum); err != nil {
		return err
	}
	return f.Run(s.share)
}

// add is the mistake: a float added in the order the jobs finish.
func (s *Blend) add(c *ecs.Chunk) {
	part := 0.0
	for _, e := range s.ember.Column(c) {
		part += e.Heat
	}
	for {
		old := s.total.Load()
		if s.total.CompareAndSwap(old, math.Float64bits(math.Float64frombits(old)+part)) {
			break
		}
	}
	s.n.Add(int64(c.Len()))
}

func (s *Blend) give(c *ecs.Chunk) {
	mean := math.Float64frombits(s.total.Load()) / float64(s.n.Load())
	for i := range s.ember.Column(c) {
		s.ember.Column(c)[i].Heat = (s.ember.Column(c)[i].Heat + mean) / 2
	}
}

// Arena is a game as a replay sees it (replay.Sim): an engine, the
// world's digest after a step, the game's own commands applied before
// each step, and the resources it sets between steps.
type Arena struct {
	eng     *engine.Engine
	w       *ecs.World
	embers  ecs.Component[Ember]
	wind    *Wind
	pending *ecs.Commands // sparks the player threw, applied before the next step
}

// Spark is the arena's one owner-side action: a player throws a spark.
type Spark struct{ Heat float64 }

func (a *Arena) Engine() *engine.Engine { return a.eng }

func (a *Arena) Tick() error {
	if _, err := a.w.Apply(a.pending); err != nil {
		return err
	}
	return a.eng.Tick()
}

func (a *Arena) Digest() (uint64, error) { return a.w.Digest(a.embers) }

func (a *Arena) Resources() []replay.Resource {
	return []replay.Resource{replay.Track("wind", a.wind)}
}

// Do throws a recorded spark again.
func (a *Arena) Do(action []byte) error {
	var s Spark
	if err := replay.Decode(action, &s); err != nil {
		return err
	}
	a.Throw(s)
	return nil
}

// Throw records a spark for the next step.
func (a *Arena) Throw(s Spark) {
	a.embers.Add(a.pending, a.pending.Spawn(), Ember{Heat: s.Heat})
}

// newArena makes an arena of 3000 embers with cfg's workers and batch;
// with blend, Blend runs after Cool.
func newArena(cfg engine.Config, blend bool) *Arena {
	w := ecs.NewWorld(ecs.Options{})
	a := &Arena{w: w, embers: ecs.NewComponent[Ember](w), wind: &Wind{}}
	setup := w.NewCommands()
	for i := range 3000 {
		a.embers.Add(setup, setup.Spawn(), Ember{Heat: 1 + math.Sin(float64(i))})
	}
	a.pending = w.NewCommands()
	eng, err := engine.New(w, cfg)
	if err == nil {
		_, err = w.Apply(setup)
	}
	if err == nil {
		err = errors.Join(ecs.AddResource(w, a.wind), eng.Add(engine.Update, &Cool{}))
	}
	if err == nil && blend {
		err = eng.Add(engine.Update, &Blend{}, engine.After("cool"))
	}
	if err == nil {
		err = eng.Build()
	}
	if err != nil {
		panic(err)
	}
	a.eng = eng
	return a
}

// play runs 20 steps of a: the wind changes between steps and the
// player throws a spark every fifth one, which rec records.
func play(a *Arena, rec *replay.Recorder) error {
	for i := range 20 {
		a.wind.Speed = float64(i%3) - 1
		if i%5 == 4 {
			s := Spark{Heat: float64(i)}
			if err := rec.Do(s); err != nil {
				return err
			}
			a.Throw(s)
		}
		if err := a.Tick(); err != nil {
			return err
		}
	}
	return nil
}

// recordArena records 20 steps of an arena made with cfg.
func recordArena(cfg engine.Config, blend bool) *replay.Recording {
	a := newArena(cfg, blend)
	defer a.eng.Close()
	var file bytes.Buffer
	rec, err := replay.NewRecorder(&file, a, "arena")
	if err != nil {
		panic(err)
	}
	err = errors.Join(play(a, rec), rec.Close())
	recording, rerr := replay.Read(&file)
	if err = errors.Join(err, rerr); err != nil {
		panic(err)
	}
	return recording
}

func Example_replay() {
	recording := recordArena(engine.Config{Workers: 1}, false) // recorded on one worker
	for _, workers := range []int{0, 2, 4} {
		a := newArena(engine.Config{Workers: workers, Serial: workers == 0, Batch: 64}, false)
		err := replay.Verify(recording, a)
		fmt.Printf("W%d: %d steps, %v\n", workers, len(recording.Steps), err)
		a.eng.Close()
	}
	// Output:
	// W0: 20 steps, <nil>
	// W2: 20 steps, <nil>
	// W4: 20 steps, <nil>
}

func Example_divergence() {
	recording := recordArena(engine.Config{Serial: true, Batch: 1024}, true)
	a := newArena(engine.Config{Serial: true, Batch: 64}, true) // the same inputs, cut into other chunks
	err := replay.Verify(recording, a)
	a.eng.Close()
	var re *replay.Error
	if errors.As(err, &re) {
		fmt.Println(re.Code, "in step", re.Detail.Step, "by system", re.Detail.System)
	}

	oracle := newArena(engine.Config{Serial: true, Batch: 1024}, true)
	other := newArena(engine.Config{Serial: true, Batch: 64}, true)
	d, err := replay.Find(recording, oracle, other)
	oracle.eng.Close()
	other.eng.Close()
	fmt.Println(d.System, d.Component, d.Want != d.Got, err)
	// Output:
	// WEFT-R004 in step 2 by system blend
	// blend Ember true <nil>
}

// heaviest is deterministic where ranging over a map is not: it visits
// the keys in sorted order, so ties go the same way on every run.
func heaviest(weights map[string]float64) string {
	keys := slices.Sorted(func(yield func(string) bool) {
		for k := range weights {
			if !yield(k) {
				return
			}
		}
	})
	best := ""
	for _, k := range keys {
		if best == "" || weights[k] > weights[best] {
			best = k
		}
	}
	return best
}

func Example_heaviest() {
	fmt.Println(heaviest(map[string]float64{"ogre": 3, "troll": 3, "imp": 1}))
	// Output: ogre
}
