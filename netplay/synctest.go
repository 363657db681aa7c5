package netplay

import (
	"slices"

	"github.com/weft-engine/weft/ecs"
)

// SyncTestConfig configures SyncTest.
type SyncTestConfig struct {
	Steps int // steps to run (default 300)
	Check int // steps rolled back and run again after each step (default 2, at most 64)
	// Before sets the inputs of step f (from 0) in the game's resources:
	// from f alone, so that a step run again gets the same ones. May be nil.
	Before func(f int) error
}

// SyncTest runs g alone as a session would, and after every step rolls
// back Check steps and runs them again with the same inputs, comparing
// each one's world digest and every system's digest with its first run.
// Where they differ, a system is not deterministic: the error is WEFT-N008
// whose Report names the step, the first system (in the order they ran)
// whose digest differs and, where two more runs of that step with every
// written row kept (ecs.DigestCapture) differ too, the first entity and
// component it wrote differently with both values. It returns the steps
// that were checked. Executed only by g's owner, between steps; it leaves
// the engine's digests on and its rewind set to Check steps.
func SyncTest(g Game, cfg SyncTestConfig) (int, error) {
	if cfg.Steps == 0 {
		cfg.Steps = 300
	}
	if cfg.Check == 0 {
		cfg.Check = 2
	}
	if cfg.Steps < 0 || cfg.Check < 1 || cfg.Check > 64 {
		return 0, errorf(ErrBadConfig, nil, "SyncTestConfig{Steps: %d, Check: %d}: Steps at least 0, Check 1 to 64", cfg.Steps, cfg.Check)
	}
	e := g.Engine()
	if err := e.SetDigests(ecs.DigestOn); err != nil {
		return 0, errorf(ErrMisuse, err, "SyncTest inside a step")
	}
	if err := e.SetRewind(cfg.Check+1, 1); err != nil {
		return 0, errorf(ErrBadConfig, err, "SyncTest: the world cannot be snapshot")
	}
	st := &syncTest{g: g, cfg: cfg, hashes: make([]uint64, cfg.Check+1), sums: make([][]uint64, cfg.Check+1)}
	for f := range cfg.Steps {
		if err := st.run(f, true); err != nil {
			return f, err
		}
		if f+1 < cfg.Check {
			continue
		}
		if _, err := e.Rewind(cfg.Check); err != nil {
			return f, errorf(ErrSimulation, err, "rolling back %d steps after step %d", cfg.Check, f)
		}
		for again := f + 1 - cfg.Check; again <= f; again++ {
			if err := st.run(again, false); err != nil {
				return f, err
			}
		}
	}
	return cfg.Steps, nil
}

type syncTest struct {
	g      Game
	cfg    SyncTestConfig
	hashes []uint64
	sums   [][]uint64
	names  []string
}

// tick runs step f with its inputs.
func (st *syncTest) tick(f int) error {
	if st.cfg.Before != nil {
		if err := st.cfg.Before(f); err != nil {
			return errorf(ErrSimulation, err, "the inputs of step %d", f)
		}
	}
	if err := st.g.Tick(); err != nil {
		return errorf(ErrSimulation, err, "step %d", f)
	}
	return nil
}

// run runs step f: the first time, keeping its digests; again, comparing.
func (st *syncTest) run(f int, first bool) error {
	if err := st.tick(f); err != nil {
		return err
	}
	h, err := st.g.Digest()
	if err != nil {
		return errorf(ErrSimulation, err, "the world digest after step %d", f)
	}
	ds := st.g.Engine().Digests()
	slot := f % len(st.hashes)
	if first {
		st.hashes[slot] = h
		st.sums[slot] = st.sums[slot][:0]
		st.names = st.names[:0]
		for _, d := range ds {
			st.sums[slot] = append(st.sums[slot], d.Sum)
			st.names = append(st.names, d.System)
		}
		return nil
	}
	r := &Report{Step: uint64(f), Peer: -1, LocalHash: st.hashes[slot], RemoteHash: h}
	sys := -1
	for i := range min(len(ds), len(st.sums[slot])) {
		if ds[i].Sum != st.sums[slot][i] {
			sys = i
			break
		}
	}
	if sys < 0 && h == st.hashes[slot] {
		return nil
	}
	if sys >= 0 {
		r.System = ds[sys].System
		st.rows(f, r)
	}
	return &Error{Code: ErrDiverged, Detail: r,
		Msg: "a step run again with the same inputs differs: " + r.String() + "; make that system's writes depend only on what it reads (docs/guide/12-determinism.md)"}
}

// rows runs step f twice more with every written row kept and sets r's
// entity, component and values from the first row of r.System that
// differs between them; r stays as it is if none does (in three tries).
func (st *syncTest) rows(f int, r *Report) {
	e := st.g.Engine()
	defer e.SetDigests(ecs.DigestOn)
	if e.SetDigests(ecs.DigestCapture) != nil {
		return
	}
	for range 3 {
		var runs [2][]ecs.Written
		for i := range runs {
			if _, err := e.Rewind(1); err != nil || st.tick(f) != nil {
				return
			}
			runs[i] = slices.Clone(e.Written(r.System))
		}
		if firstRow(r, runs[0], runs[1]) {
			return
		}
	}
}

// firstRow sets r's entity, component and values from the first row, in
// (entity, component) order, that differs between a and b (each sorted
// so), and reports whether there was one.
func firstRow(r *Report, a, b []ecs.Written) bool {
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		var mine *ecs.Written
		if i < len(a) {
			mine = &a[i]
		}
		var theirs *Row
		if j < len(b) {
			w := &b[j]
			theirs = &Row{ID: w.Entity.ID(), Gen: w.Entity.Gen(), Component: w.Component, Sum: w.Sum}
		}
		c := compareRow(mine, theirs)
		switch {
		case c < 0:
			r.Entity, r.Component, r.Local = mine.Entity, mine.Component, valueText(mine.Value)
			return true
		case c > 0:
			r.Entity, r.Component, r.Remote = b[j].Entity, b[j].Component, valueText(b[j].Value)
			return true
		case mine.Sum != theirs.Sum:
			r.Entity, r.Component, r.Local, r.Remote = mine.Entity, mine.Component, valueText(mine.Value), valueText(b[j].Value)
			return true
		}
		i, j = i+1, j+1
	}
	return false
}
