//go:build !amd64 && !arm64

package jobs

import "runtime"

// goroutine identifies the calling goroutine: its id, parsed from the
// header of its stack trace ("goroutine 18 [running]:"). Microseconds,
// where the amd64 and arm64 versions take nanoseconds; it only serves to
// compare a caller with the goroutines that run jobs (see Pool.inJob).
func goroutine() uintptr {
	var buf [32]byte
	n := runtime.Stack(buf[:], false)
	var id uintptr
	for _, c := range buf[len("goroutine "):n] {
		if c < '0' || c > '9' {
			break
		}
		id = id*10 + uintptr(c-'0')
	}
	return id
}
