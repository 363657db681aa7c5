package jobs

import (
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"
)

// TestStoreRelease32 checks the assembly store: it writes exactly the four
// bytes at addr, and a goroutine that sees the value with sync/atomic also
// sees the plain writes made before it (message passing).
func TestStoreRelease32(t *testing.T) {
	words := [3]uint32{0xAAAAAAAA, 0, 0x55555555}
	storeRelease32(&words[1], 0xDEADBEEF)
	if words != [3]uint32{0xAAAAAAAA, 0xDEADBEEF, 0x55555555} {
		t.Fatalf("storeRelease32 wrote %#x, want only the middle word set", words)
	}

	const rounds = 2000
	var flag uint32
	var data [8]uint64
	done := make(chan error, 1)
	go func() {
		for i := uint32(1); i <= rounds; i++ {
			for atomic.LoadUint32(&flag) != i {
				runtime.Gosched() // one CPU: let the writer run
			}
			for k, v := range data {
				if v != uint64(i) {
					done <- fmt.Errorf("round %d: data[%d] = %d before the flag's store", i, k, v)
					return
				}
			}
			atomic.StoreUint32(&flag, i+rounds) // hand the data back
		}
		done <- nil
	}()
	for i := uint32(1); i <= rounds; i++ {
		for k := range data {
			data[k] = uint64(i)
		}
		storeRelease32(&flag, i)
		for atomic.LoadUint32(&flag) != i+rounds {
			runtime.Gosched()
		}
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
