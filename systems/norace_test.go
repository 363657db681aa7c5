//go:build !race

package systems_test

const raceOn = false
