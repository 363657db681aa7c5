package replay_test

import (
	"fmt"
	"math"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
	"github.com/weft-engine/weft/replay"
)

// The systems below are not deterministic on purpose, each through a
// kind of write that a query's columns do not show: a write lookup, a
// resource written in Merge, commands, and an exclusive system. Each
// must be named in the first step that shows it, with the entity (or
// resource), the component and both values.

// Tally is a resource that the tally system writes in its Merge.
type Tally struct{ Sum float64 }

// picker is what a range over a map meets first, which Go randomises on
// every range; log keeps each pick, to know when two runs first differ.
type picker struct {
	m   map[int]float64
	log *[]uint64
}

func newPicker(log *[]uint64) picker {
	m := map[int]float64{}
	for i := range 1024 {
		m[i] = float64(i) * 1e-3
	}
	return picker{m: m, log: log}
}

func (p picker) pick() float64 {
	v := 0.0
	for _, x := range p.m {
		v = x
		break
	}
	*p.log = append(*p.log, math.Float64bits(v))
	return v
}

// addKind adds the system of kind b.kind to s, if it is one of these.
func addKind(t *testing.T, s *toy, b bad) {
	var err error
	switch b.kind {
	case "lookup":
		err = s.eng.Add(engine.Update, &looker{s: s, from: b.from, p: newPicker(b.log)}, engine.After("move"))
	case "res":
		require.NoError(t, ecs.AddResource(s.w, &Tally{}))
		err = s.eng.Add(engine.Update, &tally{from: b.from}, engine.After("move"))
	case "cmd":
		err = s.eng.Add(engine.Update, &commander{s: s, from: b.from, p: newPicker(b.log)}, engine.After("move"))
	case "excl":
		err = s.eng.AddExclusive(engine.PostUpdate, &stirrer{s: s, from: b.from, p: newPicker(b.log)})
	}
	require.NoError(t, err)
}

// looker adds a map's first value to the V of ten bodies through a write
// lookup.
type looker struct {
	s    *toy
	from uint64
	p    picker
	lw   ecs.LookupWriter[body]
	time ecs.ResReader[engine.Time]
	pass *engine.Pass
}

func (l *looker) Name() string { return "looker" }
func (l *looker) Build(b *engine.Builder) error {
	d := b.Decl()
	l.lw, l.time = ecs.WriteLookup[body](d), ecs.ReadRes[engine.Time](d)
	l.pass = b.ChunksInOrder("look", ecs.NewQuery1(d, ecs.Read[tag](d)), func(c *ecs.Chunk) {
		if c.Index() != 0 || l.time.Get().Step < l.from {
			return
		}
		v := l.p.pick()
		for k := range 10 {
			if p, ok := l.lw.Get(c, l.s.ents[k*7]); ok {
				p.V += v
			}
		}
	})
	return nil
}
func (l *looker) Schedule(f *engine.Frame) error { return f.Run(l.pass) }

// tally sums the bodies' X in the order its jobs finish and writes the
// total into the Tally resource in its Merge: another batch size cuts
// the rows into other chunks, and the float sum differs.
type tally struct {
	from  uint64
	b     ecs.Reader[body]
	res   ecs.ResWriter[Tally]
	time  ecs.ResReader[engine.Time]
	total atomic.Uint64 // float64 bits
	pass  *engine.Pass
}

func (s *tally) Name() string { return "tally" }
func (s *tally) Build(b *engine.Builder) error {
	d := b.Decl()
	s.b, s.res, s.time = ecs.Read[body](d), ecs.WriteRes[Tally](d), ecs.ReadRes[engine.Time](d)
	s.pass = b.Chunks("add", ecs.NewQuery1(d, s.b), func(c *ecs.Chunk) {
		part := 0.0
		for _, p := range s.b.Column(c) {
			part += p.X
		}
		for { // a float added in completion order
			old := s.total.Load()
			if s.total.CompareAndSwap(old, math.Float64bits(math.Float64frombits(old)+part)) {
				break
			}
		}
	})
	return nil
}
func (s *tally) Schedule(f *engine.Frame) error {
	s.total.Store(0)
	return f.Run(s.pass)
}
func (s *tally) Merge(f *engine.Frame) error {
	if s.time.Get().Step >= s.from {
		s.res.Get().Sum = math.Float64frombits(s.total.Load())
	}
	return nil
}

// commander sets body 5 to a map's first value through its commands.
type commander struct {
	s    *toy
	from uint64
	p    picker
	time ecs.ResReader[engine.Time]
	pass *engine.Pass
}

func (m *commander) Name() string { return "commander" }
func (m *commander) Build(b *engine.Builder) error {
	d := b.Decl()
	b.Commands()
	m.time = ecs.ReadRes[engine.Time](d)
	m.pass = b.ChunksInOrder("order", ecs.NewQuery1(d, ecs.Read[tag](d)), func(c *ecs.Chunk) {
		if c.Index() == 0 && m.time.Get().Step >= m.from {
			m.s.bodyC.Set(c.Commands(), m.s.ents[5], body{X: m.p.pick(), V: 1})
		}
	})
	return nil
}
func (m *commander) Schedule(f *engine.Frame) error { return f.Run(m.pass) }

// stirrer is an exclusive system that sets body 9's X to a map's first
// value.
type stirrer struct {
	s    *toy
	from uint64
	p    picker
}

func (x *stirrer) Name() string { return "stir" }
func (x *stirrer) Run(w *ecs.World, t engine.Time) error {
	if t.Step < x.from {
		return nil
	}
	cmd := w.NewCommands()
	x.s.bodyC.Set(cmd, x.s.ents[9], body{X: x.p.pick()})
	_, err := w.Apply(cmd)
	return err
}

// Each kind of write is named by Verify (a replay against its
// recording) and by Find (two runs side by side) in the first step that
// shows it: the system, the entity or resource, the component and both
// values.
func TestDivergenceEveryKindOfWrite(t *testing.T) {
	const from = 4
	cases := []struct {
		kind, system, component string
		entity                  int // index into the toy's entities; -1 for a resource
		cfgA, cfgB              engine.Config
	}{
		{"lookup", "looker", "body", 0, engine.Config{Workers: 1}, engine.Config{Workers: 2}},
		{"res", "tally", "replay_test.Tally", -1, engine.Config{Serial: true, Batch: 1024}, engine.Config{Workers: 2, Batch: 64}},
		{"cmd", "commander", "body", 5, engine.Config{Workers: 1}, engine.Config{Workers: 2}},
		{"excl", "stir", "body", 9, engine.Config{Workers: 1}, engine.Config{Workers: 2}},
	}
	for _, tc := range cases {
		t.Run(tc.kind, func(t *testing.T) {
			var logRec, logA, logB []uint64
			rec := recordToy(t, tc.cfgA, bad{kind: tc.kind, from: from, log: &logRec}, 30)
			assert.Contains(t, rec.Header.Systems, tc.system)

			err := replay.Verify(rec, newToy(t, tc.cfgB, bad{kind: tc.kind, from: from, log: &logA}))
			var re *replay.Error
			require.ErrorAs(t, err, &re)
			require.Equal(t, replay.ErrDiverged, re.Code, "%v", err)
			want := uint64(from)
			if tc.kind != "res" {
				want = firstDiff(logRec, logA) + from
			}
			assert.Equal(t, want, re.Detail.Step, "%v", err)
			assert.Equal(t, tc.system, re.Detail.System, "%v", err)

			logA = nil
			d, err := replay.Find(rec, newToy(t, tc.cfgA, bad{kind: tc.kind, from: from, log: &logA}),
				newToy(t, tc.cfgB, bad{kind: tc.kind, from: from, log: &logB}))
			require.NoError(t, err)
			require.NotNil(t, d)
			if tc.kind != "res" {
				want = firstDiff(logA, logB) + from
			}
			assert.Equal(t, want, d.Step, "%v", d)
			assert.Equal(t, tc.system, d.System, "%v", d)
			assert.Equal(t, tc.component, d.Component, "%v", d)
			require.NotNil(t, d.Want, "%v", d)
			require.NotNil(t, d.Got, "%v", d)
			assert.NotEqual(t, d.Want, d.Got, "%v", d)
			assert.Contains(t, d.String(), fmt.Sprintf("system %q is the first whose writes differ, first at entity", tc.system))
			if tc.entity >= 0 {
				assert.Equal(t, logEntity(t, tc.cfgA, tc.entity), d.Entity, "%v", d)
			}
		})
	}
}

// logEntity is the toy's entity i (the same in every toy).
func logEntity(t *testing.T, cfg engine.Config, i int) ecs.Entity {
	return newToy(t, cfg, bad{}).ents[i]
}
