//go:build (amd64 || arm64) && !race

package jobs

// storeRelease32 stores v at *addr with release ordering only: every load
// and store before it is visible to a goroutine that loads v with
// sync/atomic. sync/atomic's Store is sequentially consistent, an XCHG on
// amd64 (a locked instruction, about 10 ns on the reference machine, where
// a W1 job made five of them); a publication that no later load of the
// same goroutine has to be ordered against (a Dekker handshake) needs only
// this: a plain MOV on amd64, whose stores are never reordered with earlier
// loads or stores, and STLR on arm64. A call into assembly also keeps the
// compiler from moving memory accesses across it. Under the race detector
// (release_other.go) it is sync/atomic's Store, which the detector sees.
//
//go:noescape
func storeRelease32(addr *uint32, v uint32)
