// Package pin keeps the calling goroutine on one CPU: its OS thread locked
// to it (runtime.LockOSThread) and that thread's affinity set to the CPU
// (sched_setaffinity on Linux). A goroutine that is pinned neither waits in
// the Go scheduler's queues nor migrates between cores, so two pinned
// goroutines that divide a pass between them measure what the machine's
// cores give, with no scheduler in the way: bench's ceiling rows and
// cmd/corecheck.
package pin

import "runtime"

// CPU pins the calling goroutine to cpu modulo the CPUs the process may
// use, and returns the function that undoes it (the thread's affinity
// back as it was, the thread unlocked). Executed by the goroutine to pin,
// which must call the returned function itself. Where the affinity cannot
// be set (another OS) the goroutine is still locked to its thread, and
// err says why the CPU is not fixed.
func CPU(cpu int) (undo func(), err error) {
	runtime.LockOSThread()
	restore, err := setAffinity(cpu)
	return func() {
		restore()
		runtime.UnlockOSThread()
	}, err
}
