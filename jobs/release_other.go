//go:build (!amd64 && !arm64) || race

package jobs

import "sync/atomic"

// storeRelease32 stores v at *addr; see release.go. Here, without an
// assembly version or under the race detector, it is sync/atomic's Store.
func storeRelease32(addr *uint32, v uint32) { atomic.StoreUint32(addr, v) }
