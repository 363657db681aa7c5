//go:build amd64 || arm64

package jobs

// goroutine identifies the calling goroutine while it lives: the address
// of its runtime descriptor, read in a few nanoseconds. It only serves to
// compare a caller with the goroutines that run jobs (see Pool.inJob).
//
//go:noescape
func goroutine() uintptr
