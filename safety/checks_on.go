//go:build !weft_nochecks

package safety

// checksCompiled is false under the build tag weft_nochecks, which compiles
// the schedule-time check out of release builds.
const checksCompiled = true
