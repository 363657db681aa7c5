//go:build race

package netplay_test

const raceOn = true
