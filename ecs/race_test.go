//go:build race

package ecs

const raceOn = true
