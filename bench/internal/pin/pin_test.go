package pin

import (
	"runtime"
	"testing"
)

// TestCPU: pinning to each CPU and undoing it leaves the goroutine
// usable, and on Linux the affinity is set without error.
func TestCPU(t *testing.T) {
	for cpu := range runtime.NumCPU() + 1 { // one past the last: wraps around
		undo, err := CPU(cpu)
		if err != nil && runtime.GOOS == "linux" {
			t.Errorf("CPU(%d): %v", cpu, err)
		}
		undo()
	}
}
