//go:build race

package game

// raceOn says the race detector is on: tests it would make too slow run
// shortened, and make test's nonrace step runs them whole. RaceOn is the
// same for the package's external tests.
const raceOn, RaceOn = true, true
