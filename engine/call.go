package engine

import "github.com/weft-engine/weft/ecs"

// The calls into a system's own code. Each recovers a panic into an error
// (a *Panic), so that a panicking system fails like one that returns an
// error: the step completes, the frame is closed, and the engine stays
// usable. Executed only by the owner.

func callBuild(s System, b *Builder) (err error) {
	defer recovered(&err)
	return s.Build(b)
}

func callSchedule(s System, f *Frame) (err error) {
	defer recovered(&err)
	return s.Schedule(f)
}

func callMerge(m Merger, f *Frame) (err error) {
	defer recovered(&err)
	return m.Merge(f)
}

func callRun(x Exclusive, w *ecs.World, t Time) (err error) {
	defer recovered(&err)
	return x.Run(w, t)
}
