//go:build !weft_nochecks

package engine_test

// The example of docs/errors.md's WEFT-E009 (writes that chunks share);
// see errors_jobs_test.go.

import (
	"fmt"

	"github.com/weft-engine/weft/ecs"
)

func Example_e009() {
	w := ecsScene()
	if err := ecs.AddResource(w, &Score{}); err != nil {
		panic(err)
	}
	reaper := w.System("reaper")
	score := ecs.WriteRes[Score](reaper)
	q := ecs.NewQuery1(reaper, ecs.Read[Health](reaper))
	err := frame(w, q, func(c *ecs.Chunk) { score.Get().Points += c.Len() })
	// ecs: WEFT-E009: system "reaper" called ResWriter[engine_test.Score].Get inside a frame, where jobs may run at the same time; in a job, collect per-chunk values with ecs.NewReduction and add them up in Merge, or run the pass as one job (engine Builder.ChunksInOrder) and use In(chunk); on the owner, write it in Merge
	fmt.Println(err)
	// Output: ecs: WEFT-E009: system "reaper" called ResWriter[engine_test.Score].Get inside a frame, where jobs may run at the same time; in a job, collect per-chunk values with ecs.NewReduction and add them up in Merge, or run the pass as one job (engine Builder.ChunksInOrder) and use In(chunk); on the owner, write it in Merge
}
