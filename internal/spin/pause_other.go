//go:build !amd64 && !arm64

package spin

import "sync/atomic"

// pauseSink gives pause's loop a load that the compiler cannot drop.
var pauseSink atomic.Uint32

// Pause spends about n short waits in a loop of loads, where there is no
// spin-wait hint instruction to call (see the amd64 and arm64 versions).
func Pause(n uint32) {
	for range n * 4 {
		pauseSink.Load()
	}
}
