//go:build !weft_nochecks

package ecs

// checksCompiled is false under the build tag weft_nochecks, which compiles
// the checked mode out of release builds.
const checksCompiled = true
