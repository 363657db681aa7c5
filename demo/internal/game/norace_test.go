//go:build !race

package game_test

const raceOn = false
