//go:build !weft_nochecks

package engine_test

// The examples of docs/errors.md's safety section (WEFT-S…); see
// errors_jobs_test.go.

import (
	"fmt"
	"strings"

	"github.com/weft-engine/weft/jobs"
	"github.com/weft-engine/weft/safety"
)

// safetyScene is the setting of the safety examples: a tracker on a serial
// pool, and a registry with Position and Velocity.
func safetyScene() (pool *jobs.Pool, tr *safety.Tracker, reg *safety.Registry, position, velocity safety.Key) {
	pool, _ = jobs.New(jobs.Options{})
	reg = &safety.Registry{}
	position, _ = reg.Register("Position")
	velocity, _ = reg.Register("Velocity")
	return pool, safety.NewTracker(pool, reg, safety.Options{}), reg, position, velocity
}

func Example_s001() {
	pool, tr, _, position, _ := safetyScene()
	defer pool.Close()
	var writesPosition, readsPosition safety.Access
	writesPosition.Write(position)
	readsPosition.Read(position)
	integrate, _ := tr.ScheduleAfter(jobs.Job{Label: jobs.Label{Name: "physics.Integrate"}}, &writesPosition)
	_, err := tr.ScheduleAfter(jobs.Job{Label: jobs.Label{Name: "cull.Frustum"}}, &readsPosition)
	// safety: WEFT-S001: the previously scheduled job "physics.Integrate" writes Position. You are trying to schedule "cull.Frustum", which reads Position. To guarantee safety, make "physics.Integrate" a dependency of "cull.Frustum" (or complete it first).
	fmt.Println(err)
	pool.Wait(integrate)
	// Output: safety: WEFT-S001: the previously scheduled job "physics.Integrate" writes Position. You are trying to schedule "cull.Frustum", which reads Position. To guarantee safety, make "physics.Integrate" a dependency of "cull.Frustum" (or complete it first).
}

func Example_s002() {
	pool, _, reg, _, _ := safetyScene()
	defer pool.Close()
	_, err := safety.Check(reg, []safety.System{{Name: "a", Before: []string{"b"}}, {Name: "b", Before: []string{"a"}}})
	// safety: WEFT-S002: the Before/After constraints form a cycle: "a" → "b" → "a"; remove one of these constraints
	fmt.Println(err)
	_, err = safety.Check(reg, []safety.System{{Name: "draw", Stage: 1}, {Name: "physics", Stage: 2, Before: []string{"draw"}}})
	// safety: WEFT-S002: system "physics" (stage 2) must run before "draw" (stage 1), against the stage order; drop the constraint or move one of them to another stage
	fmt.Println(err)
	// Output:
	// safety: WEFT-S002: the Before/After constraints form a cycle: "a" → "b" → "a"; remove one of these constraints
	// safety: WEFT-S002: system "physics" (stage 2) must run before "draw" (stage 1), against the stage order; drop the constraint or move one of them to another stage
}

func Example_s003() {
	pool, _, reg, position, _ := safetyScene()
	defer pool.Close()
	_, err := safety.Check(reg, []safety.System{{Name: "physics", Decls: []safety.Decl{{Key: position, Mode: safety.Read}, {Key: position, Mode: safety.Write}}}})
	// safety: WEFT-S003: system "physics" declares Position twice (it reads it and writes it); declare it once, as a write if the system writes it (a lookup counts too: a system that looks it up and writes it declares only ecs.WriteLookup)
	fmt.Println(err)
	// Output: safety: WEFT-S003: system "physics" declares Position twice (it reads it and writes it); declare it once, as a write if the system writes it (a lookup counts too: a system that looks it up and writes it declares only ecs.WriteLookup)
}

func Example_s004() {
	pool, _, reg, _, _ := safetyScene()
	defer pool.Close()
	_, err := safety.Check(reg, []safety.System{{Name: "anim", Decls: []safety.Decl{{Key: 9, Mode: safety.Read}}}})
	// safety: WEFT-S004: system "anim" declares key#9, which the Registry does not know; register the component or resource type before declaring access to it
	fmt.Println(err)
	// Output: safety: WEFT-S004: system "anim" declares key#9, which the Registry does not know; register the component or resource type before declaring access to it
}

func Example_s005() {
	pool, _, reg, _, _ := safetyScene()
	defer pool.Close()
	_, err := safety.Check(reg, []safety.System{{Name: "physics"}, {Name: "anim", After: []string{"physic"}}})
	// safety: WEFT-S005: system "anim" runs After "physic", which is not a system of this schedule; fix the name or add the system
	fmt.Println(err)
	_, err = safety.Check(reg, []safety.System{{Name: "anim"}, {Name: "anim"}})
	// safety: WEFT-S005: systems 0 and 1 are both named "anim"; give every system a unique name
	fmt.Println(err)
	// Output:
	// safety: WEFT-S005: system "anim" runs After "physic", which is not a system of this schedule; fix the name or add the system
	// safety: WEFT-S005: systems 0 and 1 are both named "anim"; give every system a unique name
}

func Example_s006() {
	pool, _, reg, _, velocity := safetyScene()
	defer pool.Close()
	plan, _ := safety.Check(reg, []safety.System{
		{Name: "physics", Decls: []safety.Decl{{Key: velocity, Mode: safety.Write}}},
		{Name: "ai", Decls: []safety.Decl{{Key: velocity, Mode: safety.Read}}},
	})
	err := plan.NewAmbiguities(nil)
	// safety: WEFT-S006: Ac49ca66d: systems "physics" and "ai" conflict on Velocity and only registration order runs "physics" first; state the order with Before/After, or accept it by adding Ac49ca66d to the allowlist
	fmt.Println(err)
	// Output: safety: WEFT-S006: Ac49ca66d: systems "physics" and "ai" conflict on Velocity and only registration order runs "physics" first; state the order with Before/After, or accept it by adding Ac49ca66d to the allowlist
}

func Example_s007() {
	_, err := safety.ParseAllowlist(strings.NewReader("# accepted ambiguities\nAc49ca66d # physics, ai\nAc49ca66d A0000000\n"))
	// safety: WEFT-S007: allowlist line 3 has 2 fields; write one ambiguity ID per line, comments after '#'
	fmt.Println(err)
	// Output: safety: WEFT-S007: allowlist line 3 has 2 fields; write one ambiguity ID per line, comments after '#'
}
