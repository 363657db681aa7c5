package pin

import (
	"fmt"
	"syscall"
	"unsafe"
)

// cpuSet is the kernel's cpu_set_t: 1024 CPUs, one bit each.
type cpuSet [16]uint64

// setAffinity sets the calling thread's affinity to the cpu%n-th CPU of
// the n in its current mask and returns the function that sets the old
// mask back. Executed only by a goroutine locked to its thread.
func setAffinity(cpu int) (func(), error) {
	var old cpuSet
	if err := affinity(syscall.SYS_SCHED_GETAFFINITY, &old); err != nil {
		return func() {}, fmt.Errorf("sched_getaffinity: %w", err)
	}
	var allowed []int
	for i := range len(old) * 64 {
		if old[i/64]&(1<<(i%64)) != 0 {
			allowed = append(allowed, i)
		}
	}
	if len(allowed) == 0 {
		return func() {}, fmt.Errorf("sched_getaffinity: an empty CPU mask")
	}
	c := allowed[cpu%len(allowed)]
	var set cpuSet
	set[c/64] |= 1 << (c % 64)
	if err := affinity(syscall.SYS_SCHED_SETAFFINITY, &set); err != nil {
		return func() {}, fmt.Errorf("sched_setaffinity to CPU %d: %w", c, err)
	}
	return func() { _ = affinity(syscall.SYS_SCHED_SETAFFINITY, &old) }, nil
}

// affinity gets or sets (trap) the calling thread's CPU mask (pid 0).
func affinity(trap uintptr, set *cpuSet) error {
	_, _, errno := syscall.RawSyscall(trap, 0, unsafe.Sizeof(*set), uintptr(unsafe.Pointer(set)))
	if errno != 0 {
		return errno
	}
	return nil
}
