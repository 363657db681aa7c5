// Package game is the demo's world and system wiring, shared by the window and the headless command.
//
// It imports no Ebiten, which needs a display to run: the simulation must
// run and test anywhere.
package game

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
	"github.com/weft-engine/weft/netplay"
	"github.com/weft-engine/weft/profile"
	"github.com/weft-engine/weft/replay"
	"github.com/weft-engine/weft/systems"
	"github.com/weft-engine/weft/systems/anim"
	"github.com/weft-engine/weft/systems/cull"
	"github.com/weft-engine/weft/systems/physics"
	"github.com/weft-engine/weft/systems/seek"
	"github.com/weft-engine/weft/systems/transform"
)

// The defaults of Config.
const (
	DefaultEntities = 20000
	DefaultBatch    = 0 // adaptive
)

// MaxEntities is the most bodies a Game keeps: at BytesPerEntity each, a
// million bodies take about a GiB, more than a frame can step at 60 Hz.
const MaxEntities = 1_000_000

// BytesPerEntity is about the memory a body takes once the game is built
// and has stepped: its components, its share of the systems' buffers and
// the render snapshot. TestBytesPerEntity keeps it within a factor of two
// of the heap a built game holds.
const BytesPerEntity = 1 << 10

// EntitiesErr says why n bodies are too many, with the memory they would
// take, or is "".
func EntitiesErr(n int) string {
	if n <= MaxEntities {
		return ""
	}
	return fmt.Sprintf("%d bodies is above the maximum, %d: they would need about %.1f GiB of memory (about %d bytes a body)",
		n, MaxEntities, float64(n)*BytesPerEntity/(1<<30), BytesPerEntity)
}

// The screen the camera starts with, in pixels.
const (
	ScreenW = 1280
	ScreenH = 720
)

// Config configures a Game. Zero fields take the defaults, except Workers:
// 0 is the serial executor, engine.DefaultWorkers is GOMAXPROCS-1.
type Config struct {
	Entities int    // bodies kept alive, bursts aside (default 20000, at most MaxEntities)
	Workers  int    // worker goroutines besides the owner
	Batch    int    // rows per chunk (default 0: adaptive)
	Checks   bool   // run with the safety and ecs checks on
	Seed     uint64 // of the world's randomness
	Window   int    // steps in the timings window (default 120)
	Detail   int    // of them, the last steps whose timeline the profiler keeps (default: all)
	// Title starts on the title screen, the world alive behind it: the
	// fountain waits for the player to start (Start). Without it the game
	// starts Playing.
	Title bool
	// Netplay adds the inputs of a game played together (net.go).
	Netplay bool
}

// DefaultConfig is the demo's configuration: 20000 entities, the default
// pool, the adaptive batch, checks off.
func DefaultConfig() Config {
	return Config{Entities: DefaultEntities, Workers: DefaultWorkers(), Batch: DefaultBatch}
}

// Life is how long an entity lives. When Age reaches Span the entity is
// despawned; if Respawn is set, a new body replaces it at the top of the
// world, so the entity count stays steady.
type Life struct {
	Age, Span float64
	Respawn   bool
}

// Game is the demo's world, its engine and the systems wired into it.
// Every method is executed only by the owner: the goroutine that steps it.
type Game struct {
	cfg      Config
	w        *ecs.World
	eng      *engine.Engine
	prof     *profile.Profiler // the steps' timings
	phys     *physics.System
	cull     *cull.System
	sparks   *sparks
	lost     *Lost    // seekers despawned (wake.go)
	impacts  *Impacts // hard landings (impact.go)
	comps    *comps
	pending  *ecs.Commands             // bursts, applied before the next step
	rng      *rand.Rand                // the owner's, for bursts; its source is a resource of the world
	fountain *Fountain                 // the fountain's switch, a resource of the world
	rec      *replay.Recorder          // while recording (Record)
	mode     *engine.State[Mode]       // title, playing or paused (mode.go)
	net      *netplay.Inputs[NetInput] // with Config.Netplay (net.go)

	// The world's extent, in world units, from (0, 0).
	Width, Height float64
}

// comps are the game's component handles and the world's size, for
// recording spawns from any job (handles are plain values).
type comps struct {
	pos   ecs.Component[systems.Position]
	vel   ecs.Component[systems.Velocity]
	body  ecs.Component[systems.Body]
	spr   ecs.Component[systems.Sprite]
	look  ecs.Component[systems.Look]
	anim  ecs.Component[anim.Animation]
	tween ecs.Component[anim.Tween]
	life  ecs.Component[Life]
	w, h  float64
	scope ecs.Component[engine.Scoped[Mode]] // a title screen's bursts
	// The seekers' and ships' parts (seekers.go, stun.go, turrets.go).
	seeker ecs.Component[seek.Seeker]
	alert  ecs.Component[Alert]
	local  ecs.Component[transform.Local]
	world  ecs.Component[transform.World]
	turret ecs.Component[Turret]
}

// The sprite sheets the bodies use; each has sheetFrames frames.
const (
	sheets      = 3
	sheetFrames = 8
)

// spawn records one body at (x, y) moving at (vx, vy), shaped by r.
func (c *comps) spawn(b *ecs.Commands, r *rand.Rand, x, y, vx, vy float64, life Life) ecs.Entity {
	return c.spawnTinted(b, r, x, y, vx, vy, life, engine.Color{R: 1, G: 1, B: 1, A: 1})
}

// spawnTinted is spawn with the sprite tinted.
func (c *comps) spawnTinted(b *ecs.Commands, r *rand.Rand, x, y, vx, vy float64, life Life, tint engine.Color) ecs.Entity {
	e := b.Spawn()
	rad := 1.5 + r.Float64()*2 // at most 3.5: cells of 7 hold every touching pair
	sheet := int32(r.IntN(sheets))
	c.pos.Add(b, e, systems.Position{X: x, Y: y})
	c.vel.Add(b, e, systems.Velocity{X: vx, Y: vy})
	c.body.Add(b, e, systems.Body{Radius: rad, Restitution: 0.6 + r.Float64()*0.3})
	c.spr.Add(b, e, systems.Sprite{Sheet: sheet, Layer: sheet, Sort: int32(r.IntN(1000)), Extent: rad})
	c.look.Add(b, e, systems.Look{Scale: 1, Color: tint})
	c.life.Add(b, e, life)
	// Most bodies animate; a few pulse, spin or fade in instead.
	switch k := r.IntN(10); {
	case k < 7:
		c.anim.Add(b, e, anim.Animation{First: 0, Frames: sheetFrames, FPS: 6 + r.Float64()*10, T: r.Float64()})
	case k == 7:
		c.tween.Add(b, e, anim.Tween{Prop: anim.TweenScale, Ease: anim.SineInOut, Repeat: anim.PingPong,
			From: [4]float64{1}, To: [4]float64{1.6}, Duration: 0.4 + r.Float64()})
	case k == 8:
		c.tween.Add(b, e, anim.Tween{Prop: anim.TweenRotation, Ease: anim.Linear, Repeat: anim.Loop,
			From: [4]float64{0}, To: [4]float64{2 * math.Pi}, Duration: 1 + r.Float64()*2})
	default:
		c.tween.Add(b, e, anim.Tween{Prop: anim.TweenColor, Ease: anim.CubicInOut, Repeat: anim.Once,
			From: [4]float64{1, 1, 1, 0}, To: [4]float64{1, 0.6, 0.3, 1}, Duration: 0.5 + r.Float64()})
	}
	return e
}

// respawn records a replacement body dropping in from the top of the world.
func (c *comps) respawn(b *ecs.Commands, r *rand.Rand) {
	c.spawn(b, r, 4+r.Float64()*(c.w-8), 4+r.Float64()*c.h*0.1, r.NormFloat64()*30, r.NormFloat64()*10, newLife(r, true))
}

func newLife(r *rand.Rand, respawn bool) Life {
	if respawn {
		return Life{Span: 4 + r.Float64()*8, Respawn: true}
	}
	return Life{Span: 3 + r.Float64()*3}
}

// Gravity is the physics' downwards acceleration, in world units/s².
const Gravity = 60

// New builds the world: cfg.Entities bodies spread over a world larger
// than the screen (one in 64 a seeker chasing another body, topped up by
// the recruiter), physics (with gravity), anim, lifetime, seek, landing
// sparks (an event from landing to sparks), cull and the fountain (on)
// wired into an engine, the camera on the world's centre. With cfg.Title
// the game starts on the title screen, the world alive behind it and the
// fountain waiting (mode.go); the simulation's systems sit out the
// Paused steps.
func New(cfg Config) (*Game, error) {
	if _, err := engine.ResolveWorkers(cfg.Workers); err != nil {
		return nil, fmt.Errorf("game: Config.Workers: %w", err)
	}
	if cfg.Entities < 0 || cfg.Batch < 0 || cfg.Window < 0 {
		return nil, fmt.Errorf("game: Config %+v: Entities, Batch and Window must be >= 0", cfg)
	}
	if msg := EntitiesErr(cfg.Entities); msg != "" {
		return nil, fmt.Errorf("game: Config.Entities: %s", msg)
	}
	if cfg.Entities == 0 {
		cfg.Entities = DefaultEntities
	}
	// About 100 world units² per body, 16:9, never smaller than 1.5 screens.
	width := max(1.5*ScreenW, math.Sqrt(float64(cfg.Entities)*100*16/9))
	height := width * 9 / 16
	w := ecs.NewWorld(ecs.Options{NoChecks: !cfg.Checks})
	c := &comps{ecs.NewComponent[systems.Position](w), ecs.NewComponent[systems.Velocity](w), ecs.NewComponent[systems.Body](w),
		ecs.NewComponent[systems.Sprite](w), ecs.NewComponent[systems.Look](w), ecs.NewComponent[anim.Animation](w),
		ecs.NewComponent[anim.Tween](w), ecs.NewComponent[Life](w), width, height, ecs.NewComponent[engine.Scoped[Mode]](w),
		ecs.NewComponent[seek.Seeker](w), ecs.NewComponent[Alert](w), ecs.NewComponent[transform.Local](w),
		ecs.NewComponent[transform.World](w), ecs.NewComponent[Turret](w)}
	if err := c.populate(w, cfg); err != nil {
		return nil, err
	}
	eng, err := engine.New(w, engine.Config{Workers: cfg.Workers, Serial: cfg.Workers == 0, Batch: cfg.Batch, NoChecks: !cfg.Checks})
	if err != nil {
		return nil, err
	}
	*eng.Camera() = engine.Camera{X: width / 2, Y: height / 2, W: ScreenW, H: ScreenH, Zoom: 1}
	burstSrc := rand.NewPCG(cfg.Seed, 1) // a resource, so that snapshots and saves keep it
	g := &Game{cfg: cfg, w: w, eng: eng, comps: c, pending: w.NewCommands(), rng: rand.New(burstSrc),
		phys: physics.New(physics.Config{Gravity: Gravity, Damping: 0.05, CellSize: 7, MaxX: width, MaxY: height}),
		cull: cull.New(), sparks: newSparks(w, c), Width: width, Height: height,
		fountain: &Fountain{On: true}}
	err = errors.Join(
		g.addModes(),
		g.addWake(),
		g.addImpact(),
		ecs.AddResource(w, g.fountain),
		ecs.AddResource(w, burstSrc),
		g.addNet(),
		eng.AddExclusive(engine.PreUpdate, newFountain(c, cfg.Seed, w),
			engine.EveryN(FountainEvery), engine.WhileRes(func(f *Fountain) bool { return f.On }), play),
		eng.Add(engine.PreUpdate, newRecruiter(c, cfg.Entities), engine.EveryN(RecruitEvery), unpaused), // seekers.go
		eng.Add(engine.PreUpdate, &lifetime{c: c}, unpaused),
		eng.Add(engine.PreUpdate, seek.New(), unpaused),
		eng.Add(engine.PreUpdate, &stun{}, engine.After("seek"), unpaused), // stun.go
		eng.Add(engine.PostUpdate, &stunLook{}, engine.After("turrets"), unpaused),
		eng.Add(engine.Update, g.phys, unpaused),
		eng.Add(engine.Update, anim.New(), engine.After("physics"), unpaused),
		eng.Add(engine.Update, &landing{floor: height}, engine.After("physics"), engine.Before("anim"), unpaused),
		eng.Add(engine.Update, g.sparks, unpaused),
		g.addTurretSystems(),
		eng.Add(engine.PreRender, g.cull))
	if err == nil {
		err = eng.Build()
	}
	g.prof = profile.New(eng, profile.Options{Window: cfg.Window, Detail: cfg.Detail})
	if err != nil {
		return nil, errors.Join(err, eng.Close())
	}
	return g, nil
}

// lifetime ages every body and replaces the expired ones: each is
// despawned through its chunk's command buffer and, if it respawns, a new
// body shaped by a hash of (entity, step) is spawned in the same buffer.
// The result is the same for every worker count and batch size.
type lifetime struct {
	c    *comps
	life ecs.Writer[Life]
	time ecs.ResReader[engine.Time]
	pass *engine.Pass
	// The time spent making replacements, and how many: in the overlay's
	// systems table and timeline, the headless table and the trace.
	respawn   engine.Marker
	respawned engine.Counter
	// Per chunk, reseeded for each replacement: no allocation per step.
	srcs  []*rand.PCG
	rands []*rand.Rand
}

func (s *lifetime) Name() string { return "lifetime" }

func (s *lifetime) Build(b *engine.Builder) error {
	d := b.Decl()
	s.life, s.time = ecs.Write[Life](d), ecs.ReadRes[engine.Time](d)
	b.Commands()
	s.pass = b.Chunks("age", ecs.NewQuery1(d, s.life), s.chunk)
	s.respawn, s.respawned = b.Marker("respawn"), b.Counter("respawned")
	return nil
}

// Schedule gives every chunk a generator, then starts the pass.
func (s *lifetime) Schedule(f *engine.Frame) error {
	n, err := f.Prepare(s.pass)
	if err != nil {
		return err
	}
	for len(s.srcs) < n {
		src := rand.NewPCG(0, 0)
		s.srcs, s.rands = append(s.srcs, src), append(s.rands, rand.New(src))
	}
	return f.Run(s.pass)
}

// chunk runs as a job, one per chunk: it writes only its rows and records
// only into its chunk's buffer.
func (s *lifetime) chunk(c *ecs.Chunk) {
	t := s.time.Get()
	lives, ents := s.life.Column(c), c.Entities()
	for i := range lives {
		l := &lives[i]
		if l.Age += t.DT; l.Age < l.Span {
			continue
		}
		b := c.Commands()
		b.Despawn(ents[i])
		if l.Respawn {
			sp := s.respawn.Begin(c.Worker())
			e := uint64(ents[i].ID())<<32 | uint64(ents[i].Gen())
			s.srcs[c.Index()].Seed(e*0x9E3779B97F4A7C15, t.Step)
			s.c.respawn(b, s.rands[c.Index()])
			sp.End()
			s.respawned.Add(c.Worker(), 1)
		}
	}
}

// Engine is the game's engine: its timings, snapshot, camera and settings.
func (g *Game) Engine() *engine.Engine { return g.eng }

// Profile is the profiler of the game's steps.
func (g *Game) Profile() *profile.Profiler { return g.prof }

// Config is the configuration the game was made with, defaults filled in.
func (g *Game) Config() Config { return g.cfg }

// Visible is the number of sprites the last step's cull kept.
func (g *Game) Visible() int { return g.cull.Visible }

// Landings are the Landed events of the last step and since the start:
// each made sparks.
func (g *Game) Landings() (last, total int) { return g.sparks.Last, g.sparks.Total }

// Sparks is the number of sparks alive (they count in Len).
func (g *Game) Sparks() int { return g.w.Count(g.sparks.tag) }

// Contacts is the number of touching pairs of the last step, counted from both sides.
func (g *Game) Contacts() int { return g.phys.Contacts }

// burstRadius is the disc around the cursor, in world units, that a
// burst's bodies are born in: a burst looks like one, and few of its bodies
// start exactly on another.
const burstRadius = 10

// SpawnBurst records n bodies flying out of a disc around (x, y), in world
// units; they appear before the next step and expire after a few seconds
// without being replaced.
func (g *Game) SpawnBurst(x, y float64, n int) {
	if g.rec != nil {
		_ = g.rec.Do(Burst{X: x, Y: y, N: n}) // an error comes back from StopRecording
	}
	g.spawnBurst(x, y, n)
}

// spawnBurst is SpawnBurst, unrecorded.
func (g *Game) spawnBurst(x, y float64, n int) {
	x = min(max(x, 4), g.Width-4)
	y = min(max(y, 4), g.Height-4)
	for range n {
		a, v := g.rng.Float64()*2*math.Pi, 40+g.rng.Float64()*120
		d := burstRadius * math.Sqrt(g.rng.Float64()) // uniform over the disc
		px := min(max(x+d*math.Cos(a), 1), g.Width-1)
		py := min(max(y+d*math.Sin(a), 1), g.Height-1)
		e := g.comps.spawn(g.pending, g.rng, px, py, v*math.Cos(a), v*math.Sin(a)-60, newLife(g.rng, false))
		if g.Mode() == Title {
			g.comps.scope.Add(g.pending, e, engine.Scoped[Mode]{In: Title}) // gone when the game starts
		}
	}
}

// apply plays the recorded bursts back, between steps.
func (g *Game) apply() error {
	if g.pending.Len() == 0 {
		return nil
	}
	_, err := g.w.Apply(g.pending)
	return err
}

// Tick runs exactly one fixed step, after playing back pending bursts.
func (g *Game) Tick() error {
	if err := g.apply(); err != nil {
		return err
	}
	return g.eng.Tick()
}

// Step advances the simulation by dt of real time (engine.Engine.Step),
// after playing back pending bursts, and returns the fixed steps run.
func (g *Game) Step(dt time.Duration) (int, error) {
	if err := g.apply(); err != nil {
		return 0, err
	}
	g.frame(dt)
	return g.eng.Step(dt)
}

// Len is the number of bodies alive.
func (g *Game) Len() int { return g.w.Count(g.comps.pos, g.comps.vel) }

// Hash is a digest of the world state: every entity with its position and
// velocity (ecs.World.Hash). It is the same for every worker count, batch
// size and checks setting.
func (g *Game) Hash() (uint64, error) { return g.w.Hash(g.comps.pos, g.comps.vel) }

// Close stops the engine's pool.
func (g *Game) Close() error { return errors.Join(g.StopRecording(), g.eng.Close()) }
