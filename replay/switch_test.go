package replay_test

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
	"github.com/weft-engine/weft/replay"
)

// flag is an enableable component of the switch scene.
type flag struct{}

// switchSim is a replay.Sim of bodies with a flag that a system switches
// on and off, deterministically or, from a step on, by what a range over
// a map meets first; a later system moves the bodies whose flag is on.
type switchSim struct {
	eng   *engine.Engine
	w     *ecs.World
	bodyC ecs.Component[body]
	flagC ecs.Component[flag]
}

func newSwitchSim(t *testing.T, cfg engine.Config, from uint64) *switchSim {
	w := ecs.NewWorld(ecs.Options{})
	s := &switchSim{w: w, bodyC: ecs.NewComponent[body](w), flagC: ecs.NewComponent[flag](w)}
	cmd := w.NewCommands()
	for i := range 2000 {
		e := cmd.Spawn()
		s.bodyC.Add(cmd, e, body{X: float64(i)})
		s.flagC.Add(cmd, e, flag{})
	}
	_, err := w.Apply(cmd)
	require.NoError(t, err)
	s.eng, err = engine.New(w, cfg)
	require.NoError(t, err)
	t.Cleanup(func() { s.eng.Close() })
	require.NoError(t, s.eng.Add(engine.Update, newFlipper(from)))
	require.NoError(t, s.eng.Add(engine.Update, &flagMover{}, engine.After("flip")))
	require.NoError(t, s.eng.Build())
	return s
}

func (s *switchSim) Engine() *engine.Engine       { return s.eng }
func (s *switchSim) Tick() error                  { return s.eng.Tick() }
func (s *switchSim) Digest() (uint64, error)      { return s.w.Digest(s.bodyC, s.flagC) }
func (s *switchSim) Do([]byte) error              { return nil }
func (s *switchSim) Resources() []replay.Resource { return nil }

// flipper switches off the flags of the bodies whose id is k mod 5 and
// on the others: k is the step, or from step from on what a range over
// a map meets first.
type flipper struct {
	flip ecs.EnabledWriter[flag]
	time ecs.ResReader[engine.Time]
	m    map[uint32]bool
	k    uint32
	from uint64
	pass *engine.Pass
}

func newFlipper(from uint64) *flipper {
	m := map[uint32]bool{}
	for i := range uint32(64) {
		m[i] = true
	}
	return &flipper{m: m, from: from}
}

func (f *flipper) Name() string { return "flip" }
func (f *flipper) Build(b *engine.Builder) error {
	d := b.Decl()
	f.flip, f.time = ecs.WriteEnabled[flag](d), ecs.ReadRes[engine.Time](d)
	f.pass = b.ChunksInOrder("flip", ecs.NewQuery1(d, ecs.Read[flag](d)), func(c *ecs.Chunk) {
		if c.Index() == 0 {
			f.k = uint32(f.time.Get().Step)
			if f.time.Get().Step >= f.from {
				for k := range f.m { // the order differs from range to range
					f.k = k
					break
				}
			}
		}
		for i, e := range c.Entities() {
			f.flip.Set(c, i, e.ID()%5 != f.k%5)
		}
	})
	return nil
}
func (f *flipper) Schedule(fr *engine.Frame) error { return fr.Run(f.pass) }

// flagMover moves the bodies whose flag is on: it diverges after the
// flipper does, and must not be the one named.
type flagMover struct {
	b    ecs.Writer[body]
	on   ecs.EnabledReader[flag]
	pass *engine.Pass
}

func (m *flagMover) Name() string { return "move" }
func (m *flagMover) Build(b *engine.Builder) error {
	d := b.Decl()
	m.b, m.on = ecs.Write[body](d), ecs.ReadEnabled[flag](d)
	m.pass = b.Chunks("move", ecs.NewQuery1(d, m.b, ecs.With[flag]()), func(c *ecs.Chunk) {
		bs := m.b.Column(c)
		for _, r := range m.on.Runs(c) {
			for i := r.Start; i < r.End; i++ {
				bs[i].X++
			}
		}
	})
	return nil
}
func (m *flagMover) Schedule(f *engine.Frame) error { return f.Run(m.pass) }

// A system that switches rows on and off differently from one run to the
// next is named, in the first step where its switches differ, and Find
// names the entity and both states; switches that do not differ replay
// equal on every worker count and batch.
func TestDivergenceSwitch(t *testing.T) {
	record := func(cfg engine.Config, from uint64) *replay.Recording {
		s := newSwitchSim(t, cfg, from)
		var buf bytes.Buffer
		r, err := replay.NewRecorder(&buf, s, "switch")
		require.NoError(t, err)
		for range 20 {
			require.NoError(t, s.Tick())
		}
		require.NoError(t, r.Close())
		rec, err := replay.Read(&buf)
		require.NoError(t, err)
		return rec
	}
	rec := record(engine.Config{Workers: 1, Batch: 256}, 1000)
	for _, w := range []int{0, 2, 4} {
		for _, b := range []int{1, 64, 0} {
			assert.NoError(t, replay.Verify(rec, newSwitchSim(t, engine.Config{Workers: w, Serial: w == 0, Batch: b}, 1000)), "W%d batch %d", w, b)
		}
	}

	const from = 4
	rec = record(engine.Config{Workers: 1}, from)
	var re *replay.Error
	for range 20 { // a map's first key repeats one time in 64: try again
		err := replay.Verify(rec, newSwitchSim(t, engine.Config{Workers: 2}, from))
		require.ErrorAs(t, err, &re)
		if re.Detail.Step == from {
			break
		}
	}
	require.Equal(t, replay.ErrDiverged, re.Code)
	assert.Equal(t, uint64(from), re.Detail.Step)
	assert.Equal(t, "flip", re.Detail.System)

	d, err := replay.Find(rec, newSwitchSim(t, engine.Config{Serial: true}, from), newSwitchSim(t, engine.Config{Workers: 2}, from))
	require.NoError(t, err)
	require.NotNil(t, d)
	assert.Equal(t, "flip", d.System)
	assert.Equal(t, "on/off of flag", d.Component)
	assert.NotEqual(t, d.Want, d.Got)
}
