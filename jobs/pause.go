//go:build amd64 || arm64

package jobs

// pause spends about n spin-wait hints (PAUSE on amd64, YIELD on arm64):
// about 30 ns each on the reference machine, without leaving the
// goroutine's P or the OS thread, and without writing memory that another
// core reads. See Pool.relax for why spinning participants use it instead
// of runtime.Gosched.
//
//go:noescape
func pause(n uint32)
