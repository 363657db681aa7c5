//go:build !weft_nochecks

package engine_test

// The examples of docs/errors.md's ecs section (WEFT-E…); see
// errors_jobs_test.go.

import (
	"errors"
	"fmt"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/jobs"
)

type Position struct{ X, Y float64 }
type Velocity struct{ X, Y float64 }
type Health struct{ HP int }
type Score struct{ Points int }

// ecsScene is the setting of the ecs examples: a world with three
// entities that have Position, Velocity and Health.
func ecsScene() *ecs.World {
	w := ecs.NewWorld(ecs.Options{})
	spawner := ecs.NewSpawner3[Position, Velocity, Health](w)
	b := w.NewCommands()
	for range 3 {
		spawner.Spawn(b, Position{}, Velocity{}, Health{HP: 10})
	}
	if _, err := w.Apply(b); err != nil {
		panic(err)
	}
	return w
}

// handQuery is a query driven by hand: ecs.Query1..Query8.
type handQuery interface {
	Prepare(batch int) (int, error)
	Job(fn func(c *ecs.Chunk)) jobs.Func
}

// frame runs job on every chunk of q in one frame, on a serial pool, and
// returns what the frame's end reports, as a step of the engine does.
func frame(w *ecs.World, q handQuery, job func(c *ecs.Chunk)) error {
	pool, _ := jobs.New(jobs.Options{})
	defer pool.Close()
	if err := w.BeginFrame(); err != nil {
		return err
	}
	n, err := q.Prepare(64)
	if err == nil {
		var h jobs.Handle
		h, err = pool.ParallelFor(jobs.Job{Run: q.Job(job)}, n, 1)
		if err == nil {
			pool.Wait(h) // a job that misused the world panicked: EndFrame says why
		}
	}
	_, endErr := w.EndFrame()
	return errors.Join(err, endErr)
}

func Example_e001() {
	w := ecsScene()
	other, damage := w.System("other"), w.System("damage")
	pos := ecs.Read[Position](other)
	hp := ecs.Write[Health](damage)
	err := frame(w, ecs.NewQuery1(damage, hp), func(c *ecs.Chunk) { pos.Column(c) })
	// ecs: WEFT-E001: system "damage" used Reader[Position] of system "other"; a token works only in the system that declared it: declare it in "damage" with ecs.Read[Position](b.Decl()) and use that token
	fmt.Println(err)
	// Output: ecs: WEFT-E001: system "damage" used Reader[Position] of system "other"; a token works only in the system that declared it: declare it in "damage" with ecs.Read[Position](b.Decl()) and use that token
}

func Example_e002() {
	w := ecsScene()
	damage := w.System("damage")
	pos := ecs.Read[Position](damage)
	posW := ecs.Write[Position](damage) // a second declaration (safety.Check refuses it: WEFT-S003)
	err := frame(w, ecs.NewQuery1(damage, pos), func(c *ecs.Chunk) { posW.Column(c) })
	// ecs: WEFT-E002: a job of system "damage" asked for a write view of Position, which its query declares read-only; declare it with ecs.Write[Position] instead of ecs.Read[Position]
	fmt.Println(err)
	// Output: ecs: WEFT-E002: a job of system "damage" asked for a write view of Position, which its query declares read-only; declare it with ecs.Write[Position] instead of ecs.Read[Position]
}

func Example_e003() {
	w := ecsScene()
	damage := w.System("damage")
	hp, vel := ecs.Write[Health](damage), ecs.Read[Velocity](damage)
	err := frame(w, ecs.NewQuery1(damage, hp), func(c *ecs.Chunk) { vel.Column(c) })
	// ecs: WEFT-E003: a job of system "damage" asked for a view of Velocity, which is not a column of its query; pass the token of Velocity to the query's constructor
	fmt.Println(err)
	// Output: ecs: WEFT-E003: a job of system "damage" asked for a view of Velocity, which is not a column of its query; pass the token of Velocity to the query's constructor
}

func Example_e004() {
	w := ecsScene()
	damage := w.System("damage")
	pos := ecs.Read[Position](damage)
	err := frame(w, ecs.NewQuery1(damage, pos), func(c *ecs.Chunk) { pos.Column(c)[0].X = 1 })
	// ecs: WEFT-E004: system "damage" changed Position in chunk 0 (rows 0..3 of table 0), which it declared read-only; declare it with ecs.Write[Position] or stop writing to it
	fmt.Println(err)
	// Output: ecs: WEFT-E004: system "damage" changed Position in chunk 0 (rows 0..3 of table 0), which it declared read-only; declare it with ecs.Write[Position] or stop writing to it
}

func Example_e005() {
	w := ecsScene()
	w.BeginFrame()
	_, err := w.Apply(w.NewCommands())
	// ecs: WEFT-E005: Apply while a frame is in progress (jobs may be in flight); with an engine, do it between steps, in a system's Merge or an exclusive system; without one, before World.BeginFrame or after World.EndFrame; or record it in a Commands buffer
	fmt.Println(err)
	w.EndFrame()
	// Output: ecs: WEFT-E005: Apply while a frame is in progress (jobs may be in flight); with an engine, do it between steps, in a system's Merge or an exclusive system; without one, before World.BeginFrame or after World.EndFrame; or record it in a Commands buffer
}

func Example_e006() {
	w := ecsScene()
	reaper := w.System("reaper")
	w.BeginFrame()
	b := reaper.Commands(0)
	e := b.Spawn()
	b.Despawn(e)
	b.Despawn(e) // already despawned when it plays
	report, _ := w.EndFrame()
	err := report.Err()
	// ecs: WEFT-E006: 1 commands were skipped; the first: despawn of {1 786432} by system "reaper" (buffer 0, command 2): the entity is not alive (despawned, or never spawned); record commands only for entities that are alive when the buffer plays, and check components with the previous frame's state
	fmt.Println(err)
	// Output: ecs: WEFT-E006: 1 commands were skipped; the first: despawn of {1 786432} by system "reaper" (buffer 0, command 2): the entity is not alive (despawned, or never spawned); record commands only for entities that are alive when the buffer plays, and check components with the previous frame's state
}

func Example_e007() {
	w := ecsScene()
	integrate := w.System("integrate")
	q := ecs.NewQuery1(integrate, ecs.Write[Position](integrate))
	w.BeginFrame()
	_, err := q.Prepare(0)
	// ecs: WEFT-E007: Prepare(batch=0) of system "integrate": the batch size must be at least 1
	fmt.Println(err)
	w.EndFrame()
	// Output: ecs: WEFT-E007: Prepare(batch=0) of system "integrate": the batch size must be at least 1
}

func Example_e008() {
	w := ecsScene()
	scorer := w.System("scorer")
	ecs.ReadRes[Score](scorer)
	err := scorer.Err()
	// ecs: WEFT-E008: system "scorer" declares resource engine_test.Score, which the world does not have; call ecs.AddResource(w, &engine_test.Score{...}) before engine.Build (before or after engine.New)
	fmt.Println(err)
	// Output: ecs: WEFT-E008: system "scorer" declares resource engine_test.Score, which the world does not have; call ecs.AddResource(w, &engine_test.Score{...}) before engine.Build (before or after engine.New)
}

func Example_e010() {
	w := ecsScene()
	targets := ecs.NewComponent[Target](w)
	b := w.NewCommands()
	kept := b.Spawn()
	w.Apply(b)
	e := b.Spawn()
	targets.Add(b, e, Target{Of: kept}) // kept belongs to the last playback
	_, err := w.Apply(b)
	// ecs: WEFT-E010: 1 Spawn placeholders did not resolve; the first: add of {1 1048576} by the owner (a World.NewCommands buffer) (buffer 0, command 1): its Target.Of holds {1 786432}, a Spawn placeholder that no buffer played so far in this playback made: its buffer plays later, played in an earlier frame, or belongs to another world; use a placeholder only in its own buffer and in buffers that play after it in the same frame; the field was set to the zero entity
	fmt.Println(err)
	// Output: ecs: WEFT-E010: 1 Spawn placeholders did not resolve; the first: add of {1 1048576} by the owner (a World.NewCommands buffer) (buffer 0, command 1): its Target.Of holds {1 786432}, a Spawn placeholder that no buffer played so far in this playback made: its buffer plays later, played in an earlier frame, or belongs to another world; use a placeholder only in its own buffer and in buffers that play after it in the same frame; the field was set to the zero entity
}

func Example_e011() {
	w := ecsScene()
	all, _ := w.Entities()
	var e ecs.Entity
	for e = range all {
	}
	_, err := ecs.Get[Score](w, e)
	// ecs: WEFT-E011: ecs.Get[engine_test.Score] of entity {4 0}, which has no engine_test.Score
	fmt.Println(err)
	// Output: ecs: WEFT-E011: ecs.Get[engine_test.Score] of entity {4 0}, which has no engine_test.Score
}
