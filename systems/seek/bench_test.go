package seek_test

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
	"github.com/weft-engine/weft/systems"
	"github.com/weft-engine/weft/systems/seek"
)

// gathered is Seek written without lookups, the way issue 10 found it:
// gather every chunk's (entity, position), index them by entity ID in one
// job, then steer from the index.
type gathered struct {
	pos    ecs.Reader[systems.Position]
	seeker ecs.Reader[seek.Seeker]
	vel    ecs.Writer[systems.Velocity]
	time   ecs.ResReader[engine.Time]

	gather, steer *engine.Pass
	index         *engine.Pass
	ents          [][]ecs.Entity       // per chunk of gather
	ps            [][]systems.Position // per chunk of gather
	at            []systems.Position   // by entity ID
	gen           []uint32             // by entity ID: the generation indexed, +1
	step          []uint64             // by entity ID: the step it was indexed in
	now           uint64
}

func (g *gathered) Name() string { return "seek" }

func (g *gathered) Build(b *engine.Builder) error {
	d := b.Decl()
	g.pos, g.seeker, g.vel = ecs.Read[systems.Position](d), ecs.Read[seek.Seeker](d), ecs.Write[systems.Velocity](d)
	g.time = ecs.ReadRes[engine.Time](d)
	g.gather = b.Chunks("gather", ecs.NewQuery1(d, g.pos), func(c *ecs.Chunk) {
		i := c.Index()
		g.ents[i] = append(g.ents[i][:0], c.Entities()...)
		g.ps[i] = append(g.ps[i][:0], g.pos.Column(c)...)
	})
	g.index = b.Range("index", func(lo, hi int) {
		for i := range g.ents {
			for j, e := range g.ents[i] {
				id := e.ID()
				if int(id) >= len(g.at) {
					g.at = append(g.at, make([]systems.Position, int(id)+1-len(g.at))...)
					g.gen = append(g.gen, make([]uint32, int(id)+1-len(g.gen))...)
					g.step = append(g.step, make([]uint64, int(id)+1-len(g.step))...)
				}
				g.at[id], g.gen[id], g.step[id] = g.ps[i][j], e.Gen()+1, g.now
			}
		}
	})
	g.steer = b.Chunks("steer", ecs.NewQuery3(d, g.seeker, g.pos, g.vel), func(c *ecs.Chunk) {
		dt := g.time.Get().DT
		sk, p, v := g.seeker.Column(c), g.pos.Column(c), g.vel.Column(c)
		for i := range sk {
			id := sk[i].Target.ID()
			if int(id) < len(g.at) && g.step[id] == g.now && g.gen[id] == sk[i].Target.Gen()+1 {
				v[i] = seek.Steer(p[i], v[i], g.at[id], sk[i].Speed, sk[i].Gain*dt)
			}
		}
	})
	return nil
}

func (g *gathered) Schedule(f *engine.Frame) error {
	n, err := f.Prepare(g.gather)
	if err != nil {
		return err
	}
	for len(g.ents) < n {
		g.ents, g.ps = append(g.ents, nil), append(g.ps, nil)
	}
	g.ents, g.ps = g.ents[:n], g.ps[:n]
	g.now = f.Time().Step
	if err := f.Run(g.gather); err != nil {
		return err
	}
	if err := f.RunRange(g.index, 1, 1); err != nil {
		return err
	}
	return f.Run(g.steer)
}

// The workaround computes what the lookup does.
func TestGatheredMatchesLookup(t *testing.T) {
	run := func(s engine.System) []systems.Position {
		w, _ := scene(t, 500, 500)
		e, err := engine.New(w, engine.Config{Workers: 2, Batch: 64})
		require.NoError(t, err)
		defer e.Close()
		require.NoError(t, e.Add(engine.PreUpdate, s))
		require.NoError(t, e.Add(engine.Update, &mover{}))
		require.NoError(t, e.Build())
		for range 3 {
			require.NoError(t, e.Tick())
		}
		return dump(w)
	}
	require.Equal(t, run(seek.New()), run(&gathered{}))
}

// BenchmarkSeek steps Seek alone over 100,000 entities, with a lookup and
// with the gather/index/steer workaround, in two engines: 10,000 seekers
// among 90,000 possible targets (seekers10), and 50,000 among 50,000
// (seekers50); on the serial executor (W0) and on GOMAXPROCS-1 workers;
// with the checks off (release, as a shipped game runs) and on (the
// engine's default, whose read-column checksums cost both versions the
// same). Each op steps both, timing each, so that both see the same
// machine load; it reports ms/step of each and their ratio. Run with
// GOMAXPROCS=2 (docs/PERFORMANCE.md).
func BenchmarkSeek(b *testing.B) {
	for _, seekers := range []int{10_000, 50_000} {
		for _, workers := range []int{0, runtime.GOMAXPROCS(0) - 1} {
			for _, checks := range []bool{false, true} {
				name := fmt.Sprintf("seekers%d/W%d/checks=%v", seekers/1000, workers, checks)
				b.Run(name, func(b *testing.B) { benchSeek(b, 100_000-seekers, seekers, workers, checks) })
			}
		}
	}
}

func benchSeek(b *testing.B, targets, seekers, workers int, checks bool) {
	mk := func(s engine.System) *engine.Engine {
		w, _ := scene(b, targets, seekers)
		e, err := engine.New(w, engine.Config{Workers: workers, Serial: workers == 0, Batch: 1024, NoChecks: !checks})
		require.NoError(b, err)
		b.Cleanup(func() { e.Close() })
		require.NoError(b, e.Add(engine.PreUpdate, s))
		require.NoError(b, e.Build())
		require.NoError(b, e.Tick())
		return e
	}
	look, gath := mk(seek.New()), mk(&gathered{})
	var tLook, tGath time.Duration
	runtime.GC()
	for b.Loop() {
		t0 := time.Now()
		if err := look.Tick(); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		if err := gath.Tick(); err != nil {
			b.Fatal(err)
		}
		tLook, tGath = tLook+t1.Sub(t0), tGath+time.Since(t1)
	}
	n := float64(b.N) * 1e6
	b.ReportMetric(float64(tLook.Nanoseconds())/n, "lookup-ms/step")
	b.ReportMetric(float64(tGath.Nanoseconds())/n, "gather-ms/step")
	b.ReportMetric(float64(tGath)/float64(tLook), "gather/lookup")
}
