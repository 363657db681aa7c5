package safety_test

import (
	"fmt"

	"github.com/weft-engine/weft/jobs"
	"github.com/weft-engine/weft/safety"
)

// Schedule derives the dependencies: two readers run in parallel, a writer
// waits for both.
func ExampleTracker_Schedule() {
	pool, _ := jobs.New(jobs.Options{Workers: 0})
	defer pool.Close()
	var reg safety.Registry
	pos, _ := reg.Register("Position")
	tr := safety.NewTracker(pool, &reg, safety.Options{})
	var r, w safety.Access
	r.Read(pos)
	w.Write(pos)
	say := func(s string) jobs.Func { return func(*jobs.Ctx) { fmt.Println(s) } }
	tr.Schedule(jobs.Job{Label: jobs.Label{Name: "draw"}, Run: say("draw reads")}, &r)
	tr.Schedule(jobs.Job{Label: jobs.Label{Name: "cull"}, Run: say("cull reads")}, &r)
	h, _ := tr.Schedule(jobs.Job{Label: jobs.Label{Name: "physics"}, Run: say("physics writes, last")}, &w)
	pool.Wait(h)
	// Unordered output:
	// draw reads
	// cull reads
	// physics writes, last
}

// Check validates a set of systems at build time and reports the pairs
// whose order comes only from registration order.
func ExampleCheck() {
	var reg safety.Registry
	pos, _ := reg.Register("Position")
	plan, err := safety.Check(&reg, []safety.System{
		{Name: "physics", Decls: []safety.Decl{{Key: pos, Mode: safety.Write}}},
		{Name: "cull", Decls: []safety.Decl{{Key: pos, Mode: safety.Read}}},
	})
	fmt.Println(err, plan.Order)
	for _, a := range plan.Ambiguities {
		fmt.Printf("%q then %q on %s\n", a.First, a.Second, a.Key)
	}
	// Output:
	// <nil> [0 1]
	// "physics" then "cull" on Position
}
