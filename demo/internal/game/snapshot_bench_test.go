package game_test

import (
	"fmt"
	"testing"
	"time"
	"unsafe"

	ark "github.com/mlange-42/ark/ecs"

	"github.com/weft-engine/weft/demo/internal/game"
	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
	"github.com/weft-engine/weft/systems"
	"github.com/weft-engine/weft/systems/anim"
)

// bodies is the benchmarks' world: n bodies of the demo's components,
// a quarter of them animated, a quarter tweened, made with Ark's batch
// creation; each table keeps a copy of its rows, by component, to make
// them again.
type bodies struct {
	w                        *ecs.World
	plain, animated, tweened int
	pos                      []systems.Position
	vel                      []systems.Velocity
	body                     []systems.Body
	spr                      []systems.Sprite
	look                     []systems.Look
	life                     []game.Life
	an                       []anim.Animation
	tw                       []anim.Tween
}

func newBodies(n int) *bodies {
	b := &bodies{w: ecs.NewWorld(ecs.Options{}), animated: n / 4, tweened: n / 4}
	b.plain = n - b.animated - b.tweened
	ecs.NewComponent[systems.Position](b.w)
	ecs.NewComponent[systems.Velocity](b.w)
	ecs.NewComponent[systems.Body](b.w)
	ecs.NewComponent[systems.Sprite](b.w)
	ecs.NewComponent[systems.Look](b.w)
	ecs.NewComponent[game.Life](b.w)
	ecs.NewComponent[anim.Animation](b.w)
	ecs.NewComponent[anim.Tween](b.w)
	for i := range n {
		f := float64(i)
		b.pos = append(b.pos, systems.Position{X: f, Y: -f})
		b.vel = append(b.vel, systems.Velocity{X: 1, Y: f})
		b.body = append(b.body, systems.Body{Radius: 2, Restitution: 0.8})
		b.spr = append(b.spr, systems.Sprite{Sheet: int32(i % 3), Frame: int32(i % 8), Extent: 2})
		b.look = append(b.look, systems.Look{Scale: 1, Color: engine.Color{R: 1, G: 1, B: 1, A: 1}})
		b.life = append(b.life, game.Life{Span: f, Respawn: true})
		b.an = append(b.an, anim.Animation{Frames: 8, FPS: 12})
		b.tw = append(b.tw, anim.Tween{Duration: f})
	}
	b.create()
	return b
}

// create makes the bodies with Ark's batch creation, values included:
// the cost a restore that rebuilds every table is compared with.
func (b *bodies) create() {
	w := b.w.Ark()
	i := 0
	ark.NewMap6[systems.Position, systems.Velocity, systems.Body, systems.Sprite, systems.Look, game.Life](w).NewBatchFn(b.plain,
		func(_ ark.Entity, p *systems.Position, v *systems.Velocity, bd *systems.Body, s *systems.Sprite, l *systems.Look, lf *game.Life) {
			*p, *v, *bd, *s, *l, *lf = b.pos[i], b.vel[i], b.body[i], b.spr[i], b.look[i], b.life[i]
			i++
		})
	ark.NewMap7[systems.Position, systems.Velocity, systems.Body, systems.Sprite, systems.Look, game.Life, anim.Animation](w).NewBatchFn(b.animated,
		func(_ ark.Entity, p *systems.Position, v *systems.Velocity, bd *systems.Body, s *systems.Sprite, l *systems.Look, lf *game.Life, a *anim.Animation) {
			*p, *v, *bd, *s, *l, *lf, *a = b.pos[i], b.vel[i], b.body[i], b.spr[i], b.look[i], b.life[i], b.an[i]
			i++
		})
	ark.NewMap7[systems.Position, systems.Velocity, systems.Body, systems.Sprite, systems.Look, game.Life, anim.Tween](w).NewBatchFn(b.tweened,
		func(_ ark.Entity, p *systems.Position, v *systems.Velocity, bd *systems.Body, s *systems.Sprite, l *systems.Look, lf *game.Life, t *anim.Tween) {
			*p, *v, *bd, *s, *l, *lf, *t = b.pos[i], b.vel[i], b.body[i], b.spr[i], b.look[i], b.life[i], b.tw[i]
			i++
		})
}

// columns are the world's component columns as bytes, table by table:
// what a plain copy copies.
func (b *bodies) columns() [][]byte {
	w := b.w.Ark()
	var cols [][]byte
	q := ark.NewFilter0(w).Query()
	for q.NextTable() {
		ents := q.Entities()
		ids := w.Unsafe().IDs(ents[0])
		for k := range ids.Len() {
			id := ids.Get(k)
			info, _ := ark.ComponentInfo(w, id)
			size := info.Type.Size()
			cols = append(cols, unsafe.Slice((*byte)(w.Unsafe().Get(ents[0], id)), uintptr(len(ents))*size))
		}
	}
	return cols
}

// churn despawns one body of each table and spawns one: every table then
// differs from a snapshot taken before.
func (b *bodies) churn() {
	w := b.w.Ark()
	var dead []ark.Entity
	q := ark.NewFilter0(w).Query()
	for q.NextTable() {
		dead = append(dead, q.Entities()[0])
	}
	for _, e := range dead {
		w.RemoveEntity(e)
	}
	ark.NewMap1[systems.Position](w).NewBatchFn(1, nil)
}

// Snapshot and restore of n bodies against a plain copy of the same
// component bytes (into buffers made once) and against making the same
// bodies with Ark's batch creation, in one run.
func BenchmarkSnapshot(b *testing.B) {
	for _, n := range []int{20000, 100000, 200000} {
		b.Run(fmt.Sprintf("entities=%d", n), func(b *testing.B) {
			bd := newBodies(n)
			var snap ecs.Snapshot
			if err := bd.w.Snapshot(&snap); err != nil {
				b.Fatal(err)
			}
			b.Run("copy", func(b *testing.B) {
				cols := bd.columns()
				dst := make([][]byte, len(cols))
				for i, c := range cols {
					dst[i] = make([]byte, len(c))
				}
				b.ReportAllocs()
				for b.Loop() {
					for i, c := range cols {
						copy(dst[i], c)
					}
				}
			})
			b.Run("snapshot", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					_ = bd.w.Snapshot(&snap)
				}
			})
			b.Run("restore-same", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					_ = bd.w.Restore(&snap)
				}
			})
			b.Run("restore-rebuild", func(b *testing.B) {
				b.ReportAllocs()
				for range b.N {
					b.StopTimer()
					bd.churn()
					b.StartTimer()
					_ = bd.w.Restore(&snap)
				}
			})
			b.Run("create-batch", func(b *testing.B) {
				b.ReportAllocs()
				all := ark.NewFilter0(bd.w.Ark())
				for range b.N {
					b.StopTimer()
					bd.w.Ark().RemoveEntities(all.Batch(), nil)
					b.StartTimer()
					bd.create()
				}
			})
		})
	}
}

// A step of the demo's scene, with snapshots kept for rewinding and
// without, and a rewind of 8 steps followed by the 8 steps again (GGPO's
// budget: at most 9 steps' time). rewind8-resimulate also runs 8 steps
// forward after each rewind and reports step-times: the rewind and its 8
// steps over the mean of those steps, in the same process, so that a
// machine busy with other work moves both alike. The steps of a game that
// rewinds each keep a snapshot, so the 8 resimulated steps cost 8 of its
// steps and the rewind adds one restore: a copy of the world, well under
// a step, which reads and writes every component several times.
func BenchmarkRewind(b *testing.B) {
	for _, n := range []int{20000, 100000} {
		b.Run(fmt.Sprintf("entities=%d", n), func(b *testing.B) {
			run := func(b *testing.B, keep bool, op func(g *game.Game) error) {
				g, err := game.New(game.Config{Entities: n, Seed: 1, Workers: 0})
				if err != nil {
					b.Fatal(err)
				}
				defer g.Close()
				if keep {
					if err := g.Engine().SetRewind(8, 1); err != nil {
						b.Fatal(err)
					}
				}
				for range 20 {
					if err := g.Tick(); err != nil {
						b.Fatal(err)
					}
				}
				b.ResetTimer()
				for b.Loop() {
					if err := op(g); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.Run("step", func(b *testing.B) { run(b, false, (*game.Game).Tick) })
			b.Run("step-keeping", func(b *testing.B) { run(b, true, (*game.Game).Tick) })
			b.Run("rewind8-resimulate", func(b *testing.B) {
				var back, step time.Duration
				run(b, true, func(g *game.Game) error {
					t0 := time.Now()
					if _, err := g.Engine().Rewind(8); err != nil {
						return err
					}
					for range 8 {
						if err := g.Tick(); err != nil {
							return err
						}
					}
					t1 := time.Now()
					for range 8 {
						if err := g.Tick(); err != nil {
							return err
						}
					}
					back, step = back+t1.Sub(t0), step+time.Since(t1)/8
					return nil
				})
				b.ReportMetric(float64(back)/float64(step), "step-times")
			})
		})
	}
}
