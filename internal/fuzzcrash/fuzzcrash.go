// Package fuzzcrash keeps what a fuzzing process prints when it dies.
//
// go test -fuzz runs each target in worker processes whose output it
// discards, so a worker killed by a fatal error or a panic on a goroutine
// of its own (a pool's worker, say) is reported only as "fuzzing process
// hung or terminated unexpectedly: exit status 2". Keep, called by a fuzz
// target, sends the runtime's crash output also to a file in the folder
// $WEFT_FUZZ_CRASH_DIR names, one per process, which scripts/fuzz.sh
// prints when a target fails.
package fuzzcrash

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
)

// Keep sends this process's crash output to a file of its own in
// $WEFT_FUZZ_CRASH_DIR, if that is set; otherwise it does nothing. Call it
// from a fuzz target before f.Fuzz.
func Keep() {
	dir := os.Getenv("WEFT_FUZZ_CRASH_DIR")
	if dir == "" {
		return
	}
	f, err := os.Create(filepath.Join(dir, fmt.Sprintf("crash-%d.txt", os.Getpid())))
	if err != nil {
		return
	}
	if debug.SetCrashOutput(f, debug.CrashOptions{}) != nil {
		f.Close()
	}
}
