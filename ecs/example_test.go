package ecs_test

import (
	"fmt"

	ark "github.com/mlange-42/ark/ecs"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/jobs"
)

type Position struct{ X, Y float64 }
type Velocity struct{ DX, DY float64 }

// A system declares its access once, builds its query, and each frame runs
// one job per chunk that sees only its chunk's columns.
func Example() {
	w := ecs.NewWorld(ecs.Options{})
	posC, velC := ecs.NewComponent[Position](w), ecs.NewComponent[Velocity](w)
	setup := w.NewCommands()
	for i := range 10 {
		e := setup.Spawn()
		posC.Add(setup, e, Position{X: float64(i)})
		velC.Add(setup, e, Velocity{DX: 1, DY: 2})
	}
	if _, err := w.Apply(setup); err != nil {
		panic(err)
	}

	decl := w.System("physics.Integrate")
	pos, vel := ecs.Write[Position](decl), ecs.Read[Velocity](decl)
	q := ecs.NewQuery2(decl, pos, vel)
	body := q.Job(func(c *ecs.Chunk) {
		p, v := pos.Column(c), vel.Column(c)
		for i := range p {
			p[i].X += v[i].DX
			p[i].Y += v[i].DY
		}
	})

	pool, _ := jobs.New(jobs.Options{Workers: 2})
	defer pool.Close()

	_ = w.BeginFrame()
	n, _ := q.Prepare(4) // chunks of at most 4 rows: 4, 4, 2
	h, _ := pool.ParallelFor(jobs.Job{Label: jobs.Label{Name: decl.Name()}, Run: body}, n, 1)
	_ = pool.Wait(h)
	if _, err := w.EndFrame(); err != nil {
		panic(err)
	}
	fmt.Println("chunks:", n)

	f := ark.NewFilter1[Position](w.Ark())
	aq := f.Query()
	for aq.Next() {
		if p := aq.Get(); p.X == 9+1 {
			fmt.Printf("last: %+v\n", *p)
		}
	}
	// Output:
	// chunks: 3
	// last: {X:10 Y:2}
}

// Structural changes recorded in a frame apply at EndFrame, in a stable
// order; a command on a dead entity is reported, not a crash.
func ExampleCommands() {
	w := ecs.NewWorld(ecs.Options{})
	bodies := ecs.NewSpawner2[Position, Velocity](w)
	velC := ecs.NewComponent[Velocity](w)
	spawner := w.System("spawner")

	_ = w.BeginFrame()
	b := spawner.Commands(0) // the buffer of the system's job 0
	e := bodies.Spawn(b, Position{X: 1}, Velocity{})
	velC.Set(b, e, Velocity{DX: 5}) // later commands may use the placeholder
	b.Despawn(e)
	b.Despawn(e) // a second despawn: skipped and reported
	report, err := w.EndFrame()
	fmt.Println(report.Applied, len(report.Problems), err)
	fmt.Println(report.Problems[0].System, report.Problems[0].Op, report.Problems[0].Reason)
	// Output:
	// 3 1 <nil>
	// spawner despawn the entity is not alive (despawned, or never spawned)
}
