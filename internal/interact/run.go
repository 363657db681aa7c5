package interact

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
	"github.com/weft-engine/weft/replay"
)

// Outcome is what one step left: the world's hash, the step's errors and
// the commands it skipped, as text that does not depend on the executor.
type Outcome struct {
	Hash     uint64
	Errors   string
	Problems string
}

// step runs step t of s: the owner sets Knob and carries out its actions
// (recorded by rec, if any), then the engine steps. It checks what every
// step must hold and returns the step's outcome.
func (s *scene) step(t int, rec *replay.Recorder) (Outcome, error) {
	s.knob.V = knobAt(s.g.Seed, t)
	for _, a := range actionsAt(s.g.Seed, t) {
		if rec != nil {
			if err := rec.Do(a); err != nil {
				return Outcome{}, err
			}
		}
		s.pending = append(s.pending, a)
	}
	err := s.Tick()
	if got := int(s.eng.Time().Step); got != t {
		return Outcome{}, fmt.Errorf("step %d: the engine is at step %d", t, got)
	}
	var out Outcome
	if err != nil {
		out.Errors, err = s.failures(err)
		if err != nil {
			return out, fmt.Errorf("step %d: %w", t, err)
		}
	}
	var p strings.Builder
	for _, pr := range s.eng.Problems() {
		fmt.Fprintf(&p, "%s %s %s %v; ", pr.Code, pr.System, pr.Op, pr.Entity)
	}
	out.Problems = p.String()
	if dead := s.deadLink(); dead != "" {
		return out, fmt.Errorf("step %d: %s", t, dead)
	}
	h, err := s.hash()
	out.Hash = h
	return out, err
}

// failures is a step error as text (code and system of each engine
// error), or an error when any of it is not a failing part's.
func (s *scene) failures(err error) (string, error) {
	var b strings.Builder
	var walk func(err error) error
	walk = func(err error) error {
		var e *engine.Error
		switch x := err.(type) {
		case interface{ Unwrap() []error }:
			for _, c := range x.Unwrap() {
				if err := walk(c); err != nil {
					return err
				}
			}
			return nil
		case *engine.Error:
			e = x
		default:
			return fmt.Errorf("an error that is not the engine's: %w", err)
		}
		if !s.fails[e.System] {
			return fmt.Errorf("an error of a part that should not fail: %w", e)
		}
		fmt.Fprintf(&b, "%s %s; ", e.Code, e.System)
		return nil
	}
	return b.String(), walk(err)
}

// straight runs g's steps on cfg without leaving the path, recording them
// into file when given, and returns each step's outcome (index t-1). With
// measure, it counts the allocations of each engine step after warmUp
// (StepAllocs).
func straight(g *Game, cfg RunConfig, file *bytes.Buffer, measure bool) ([]Outcome, error) {
	s, err := build(g, cfg)
	if err != nil {
		return nil, fmt.Errorf("build: %w", err)
	}
	defer s.eng.Close()
	var rec *replay.Recorder
	if file != nil {
		if rec, err = replay.NewRecorder(file, s, g.Seed); err != nil {
			return nil, err
		}
	}
	var outs []Outcome
	for t := 1; t <= g.Steps; t++ {
		s.measure = measure && t > warmUp
		o, err := s.step(t, rec)
		if err != nil {
			return nil, err
		}
		outs = append(outs, o)
	}
	if rec != nil {
		return outs, rec.Close()
	}
	return outs, nil
}

// detours runs g on cfg against want, the serial run's outcomes, leaving
// the straight path as g.Plan says: a snapshot restored, a rewind, a save
// loaded into the same engine, and one loaded into an engine built
// afresh. Every step, first run or again, must give want's outcome.
func detours(g *Game, cfg RunConfig, want []Outcome) error {
	s, err := build(g, cfg)
	if err != nil {
		return fmt.Errorf("build: %w", err)
	}
	defer s.eng.Close()
	r := &route{g: g, cfg: cfg, s: s, want: want, taken: map[string]bool{}, path: "straight"}
	for t := 0; t < g.Steps; {
		t++
		got, err := s.step(t, nil)
		if err != nil {
			return fmt.Errorf("%s: %w", r.path, err)
		}
		if got != want[t-1] {
			return fmt.Errorf("%s: step %d differs from the serial run:\n  got  %+v\n  want %+v", r.path, t, got, want[t-1])
		}
		if t, err = r.leave(t); err != nil {
			return err
		}
	}
	return nil
}

// route is one run's way through a game's steps: the detours it took and
// what it keeps to come back to a step.
type route struct {
	g     *Game
	cfg   RunConfig
	s     *scene
	want  []Outcome
	snap  ecs.Snapshot
	saved bytes.Buffer
	taken map[string]bool // the detours taken
	since int             // the step the rewind ring starts after
	path  string          // how the run came to the current step, for errors
}

// once reports whether the detour named is due: not taken yet, and t is
// its step. It marks it taken.
func (r *route) once(name string, t, at int) bool {
	if t != at || r.taken[name] {
		return false
	}
	r.taken[name] = true
	return true
}

// leave takes the detours due after step t and returns the step the run
// is at then.
func (r *route) leave(t int) (int, error) {
	var err error
	for _, detour := range []func(int) (int, error){r.restore, r.load, r.rewind, r.fresh} {
		if t, err = detour(t); err != nil {
			return t, err
		}
	}
	return t, nil
}

// restore snapshots the world after step SnapAt and restores it after
// step RestoreAt.
func (r *route) restore(t int) (int, error) {
	pl, s := r.g.Plan, r.s
	switch {
	case r.once("snapshot", t, pl.SnapAt):
		return t, s.w.Snapshot(&r.snap)
	case r.taken["snapshot"] && r.once("restore", t, pl.RestoreAt):
		r.path = fmt.Sprintf("restored after step %d to step %d", pl.RestoreAt, pl.SnapAt)
		r.since = pl.SnapAt
		return pl.SnapAt, s.eng.Restore(&r.snap)
	}
	return t, nil
}

// load saves the world after step SaveAt and loads the file into the same
// engine after step LoadAt.
func (r *route) load(t int) (int, error) {
	pl, s := r.g.Plan, r.s
	switch {
	case r.once("save", t, pl.SaveAt):
		return t, s.eng.Save(&r.saved)
	case r.taken["save"] && r.once("load", t, pl.LoadAt):
		if err := s.eng.Load(bytes.NewReader(r.saved.Bytes())); err != nil {
			return t, fmt.Errorf("%s: load after step %d: %w", r.path, t, err)
		}
		r.path = fmt.Sprintf("loaded after step %d the save of step %d", pl.LoadAt, pl.SaveAt)
		r.since = pl.SaveAt
		return pl.SaveAt, nil
	}
	return t, nil
}

// rewind goes Rewind steps back after step RewindAt, as far as the ring
// reaches since the last restore or load.
func (r *route) rewind(t int) (int, error) {
	pl := r.g.Plan
	if n := min(pl.Rewind, t-r.since); r.once("rewind", t, pl.RewindAt) && n > 0 {
		k, err := r.s.eng.Rewind(n)
		if err != nil || k != n {
			return t, fmt.Errorf("%s: Rewind(%d) after step %d went %d steps: %v", r.path, n, t, k, err)
		}
		r.path = fmt.Sprintf("rewound %d steps after step %d", n, t)
		return t - n, nil
	}
	return t, nil
}

// fresh loads a save of step FreshAt into an engine built afresh.
func (r *route) fresh(t int) (int, error) {
	if r.once("fresh", t, r.g.Plan.FreshAt) {
		return t, fresh(r.g, r.cfg, r.s, t, r.want)
	}
	return t, nil
}

// fresh saves s after step at and loads the file into an engine built
// afresh on cfg, which must then run want's next steps.
func fresh(g *Game, cfg RunConfig, s *scene, at int, want []Outcome) error {
	var file bytes.Buffer
	if err := s.eng.Save(&file); err != nil {
		return err
	}
	f, err := build(g, cfg)
	if err != nil {
		return fmt.Errorf("build: %w", err)
	}
	defer f.eng.Close()
	if err := f.eng.Load(&file); err != nil {
		return fmt.Errorf("loading the save of step %d into a fresh engine: %w", at, err)
	}
	for t := at + 1; t <= min(at+g.Plan.Fresh, g.Steps); t++ {
		got, err := f.step(t, nil)
		if err != nil {
			return fmt.Errorf("fresh engine loaded at step %d: %w", at, err)
		}
		if got != want[t-1] {
			return fmt.Errorf("fresh engine loaded at step %d: step %d differs from the serial run:\n  got  %+v\n  want %+v", at, t, got, want[t-1])
		}
	}
	return nil
}

// verify plays a recording into g built on cfg.
func verify(g *Game, cfg RunConfig, file []byte) error {
	rec, err := replay.Read(bytes.NewReader(file))
	if err != nil {
		return err
	}
	s, err := build(g, cfg)
	if err != nil {
		return fmt.Errorf("build: %w", err)
	}
	defer s.eng.Close()
	if err := replay.Verify(rec, s); err != nil {
		return fmt.Errorf("replaying the serial run's recording on %v: %w", cfg, err)
	}
	return nil
}
