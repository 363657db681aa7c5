// Package engine builds systems into a validated schedule, runs each fixed step as one job graph, and publishes a render snapshot and the step's timings.
package engine
