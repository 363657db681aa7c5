//go:build !linux

package pin

import "errors"

// setAffinity cannot fix the CPU here: the thread stays locked, no more.
func setAffinity(int) (func(), error) {
	return func() {}, errors.New("pin: CPU affinity is set on Linux only; the goroutine is locked to its thread, not to a CPU")
}
