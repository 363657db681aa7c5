// Package weftrun holds what the suite's workloads share when they run on
// weft: the engine configurations of the table, the engine started with a
// workload's systems, and the one system three workloads run (Move, the
// suite's query kernel).
//
// weft's side of every workload is written as docs/writing-a-system.md
// teaches: a System whose Build declares its access and makes a pass, whose
// jobs touch only their chunk (or range) and record structural changes in
// their command buffer, run by the engine's step (Engine.Tick) and timed
// with it, so a figure includes what a game pays for a step: scheduling,
// the checks of the configuration, command playback.
package weftrun

import (
	"testing"

	"github.com/weft-engine/weft/bench/ecsbench/comps"
	"github.com/weft-engine/weft/bench/ecsbench/util"
	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
)

// Config is one of weft's columns in the table.
type Config struct {
	Name string
	Cfg  engine.Config
}

// Configs are weft's configurations: the default Config (the checks on,
// one worker per spare CPU: at GOMAXPROCS=2 one worker beside the owner),
// the checks off, and the serial executor (Workers 0, every job on the
// owner) with the checks on and off.
var Configs = []Config{
	{"weft", engine.Config{}},
	{"weft (no checks)", engine.Config{NoChecks: true}},
	{"weft (serial)", engine.Config{Serial: true}},
	{"weft (serial, no checks)", engine.Config{Serial: true, NoChecks: true}},
}

// Benches is fn as one suite benchmark per configuration.
func Benches(fn func(b *testing.B, n int, cfg engine.Config)) []util.Benchmark {
	bs := make([]util.Benchmark, len(Configs))
	for i, c := range Configs {
		bs[i] = util.Benchmark{Name: c.Name, F: func(b *testing.B, n int) { fn(b, n, c.Cfg) }}
	}
	return bs
}

// Start makes an engine over w with cfg, adds the systems to the Update
// stage, each after the one before it, and builds it.
func Start(b testing.TB, w *ecs.World, cfg engine.Config, systems ...engine.System) *engine.Engine {
	b.Helper()
	eng, err := engine.New(w, cfg)
	if err != nil {
		b.Fatal(err)
	}
	for i, s := range systems {
		var opts []engine.Option
		if i > 0 {
			opts = append(opts, engine.After(systems[i-1].Name()))
		}
		if err := eng.Add(engine.Update, s, opts...); err != nil {
			b.Fatal(err)
		}
	}
	if err := eng.Build(); err != nil {
		b.Fatal(err)
	}
	return eng
}

// Tick runs one fixed step; a failed step fails the benchmark.
func Tick(b testing.TB, eng *engine.Engine) {
	if err := eng.Tick(); err != nil {
		b.Fatal(err)
	}
}

// Apply plays cmd on w between steps, failing b on an error or a skipped
// command.
func Apply(b testing.TB, w *ecs.World, cmd *ecs.Commands) *ecs.Report {
	b.Helper()
	rep, err := w.Apply(cmd)
	if err == nil {
		err = rep.Err()
	}
	if err != nil {
		b.Fatal(err)
	}
	return rep
}

// Rows is the number of rows the system at index i of the built schedule
// visited in the last step.
func Rows(eng *engine.Engine, i int) int {
	return eng.LastRecord().Systems[i].Entities
}

// Move is the suite's query kernel, Position += Velocity, as a system of
// one chunk pass over every entity with both.
type Move struct {
	pos  ecs.Writer[comps.Position]
	vel  ecs.Reader[comps.Velocity]
	pass *engine.Pass
}

func (s *Move) Name() string { return "move" }

func (s *Move) Build(b *engine.Builder) error {
	d := b.Decl()
	s.pos, s.vel = ecs.Write[comps.Position](d), ecs.Read[comps.Velocity](d)
	s.pass = b.Chunks("move", ecs.NewQuery2(d, s.pos, s.vel), s.move)
	return nil
}

func (s *Move) Schedule(f *engine.Frame) error { return f.Run(s.pass) }

func (s *Move) move(c *ecs.Chunk) {
	pos, vel := s.pos.Column(c), s.vel.Column(c)
	for i := range pos {
		pos[i].X += vel[i].X
		pos[i].Y += vel[i].Y
	}
}

// SumMoved is the sum of X and Y of the Position of every entity with a
// Velocity, read on the owner between steps: the suite's check.
func SumMoved(b testing.TB, w *ecs.World) float64 {
	b.Helper()
	pos, vel := ecs.NewComponent[comps.Position](w), ecs.NewComponent[comps.Velocity](w)
	ents, err := w.Entities(pos, vel)
	if err != nil {
		b.Fatal(err)
	}
	sum := 0.0
	for e := range ents {
		p, err := ecs.Get[comps.Position](w, e)
		if err != nil {
			b.Fatal(err)
		}
		sum += p.X + p.Y
	}
	return sum
}

// RunMove is the loop of the query workloads on a world made by their
// set-up: Move run by one engine step an op, then the checks that every
// step visited n rows and that the moved positions sum to perOp a step.
func RunMove(b *testing.B, world *ecs.World, cfg engine.Config, n int, perOp float64) {
	eng := Start(b, world, cfg, &Move{})
	defer eng.Close()
	for b.Loop() {
		Tick(b, eng)
	}

	if rows := Rows(eng, 0); rows != n {
		b.Fatalf("Expected %d rows a step, got %d", n, rows)
	}
	if sum, got := perOp*float64(b.N), SumMoved(b, world); got != sum {
		b.Fatalf("Expected sum %.2f, got %.2f", sum, got)
	}
}

// Extras records the addition of C1..C8 to an entity, by index, for the
// fragmented queries' set-up (a component per bit of the entity's index).
func Extras(w *ecs.World) []func(*ecs.Commands, ecs.Entity) {
	return []func(*ecs.Commands, ecs.Entity){
		adder[comps.C1](w), adder[comps.C2](w), adder[comps.C3](w), adder[comps.C4](w),
		adder[comps.C5](w), adder[comps.C6](w), adder[comps.C7](w), adder[comps.C8](w),
	}
}

func adder[T any](w *ecs.World) func(*ecs.Commands, ecs.Entity) {
	c := ecs.NewComponent[T](w)
	return func(cmd *ecs.Commands, e ecs.Entity) {
		var zero T
		c.Add(cmd, e, zero)
	}
}
