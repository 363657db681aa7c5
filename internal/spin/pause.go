//go:build amd64 || arm64

package spin

// Pause spends about n spin-wait hints (PAUSE on amd64, YIELD on arm64):
// about 30 ns each on the reference machine, without leaving the
// goroutine's P or the OS thread, and without writing memory that another
// core reads, and leaving the core's other hardware thread its share of
// the core: a spin loop without the hint takes it (see jobs' relax).
//
//go:noescape
func Pause(n uint32)
