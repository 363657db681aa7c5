// Package spin is the spin-wait hint that weft's busy-waiting loops run
// between looks at shared memory: the pool's idle participants (jobs) and
// the pinned threads of bench's ceiling rows. A wait loop that reads an
// atomic without the hint keeps the core's pipeline full of loads and
// slows the other hardware thread of the core, which may be the one doing
// the work being waited for.
package spin
