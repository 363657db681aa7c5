//go:build !weft_nochecks

package safety_test

import (
	"fmt"

	"github.com/weft-engine/weft/jobs"
	"github.com/weft-engine/weft/safety"
)

// A job that reads Position, scheduled without the job that writes it as a
// dependency, is refused with an error that says what to change.
func ExampleTracker_ScheduleAfter() {
	pool, _ := jobs.New(jobs.Options{Workers: 0})
	defer pool.Close()
	var reg safety.Registry
	pos, _ := reg.Register("Position")
	tr := safety.NewTracker(pool, &reg, safety.Options{})

	var writes, reads safety.Access
	writes.Write(pos)
	reads.Read(pos)
	integrate, _ := tr.ScheduleAfter(jobs.Job{Label: jobs.Label{Name: "physics.Integrate"}}, &writes)
	_, err := tr.ScheduleAfter(jobs.Job{Label: jobs.Label{Name: "cull.Frustum"}}, &reads)
	fmt.Println(err)
	_, err = tr.ScheduleAfter(jobs.Job{Label: jobs.Label{Name: "cull.Frustum"}}, &reads, integrate)
	fmt.Println(err)
	// Output:
	// safety: WEFT-S001: the previously scheduled job "physics.Integrate" writes Position. You are trying to schedule "cull.Frustum", which reads Position. To guarantee safety, make "physics.Integrate" a dependency of "cull.Frustum" (or complete it first).
	// <nil>
}
