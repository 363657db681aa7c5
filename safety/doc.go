// Package safety derives job dependencies from declared component and resource access and rejects unsafe schedules with a clear error.
//
// An [Access] is a bitset of keys, each read or written. A [Tracker] keeps,
// per key and per frame, the last writer and the readers since (as Unity's
// job safety system does per component type): [Tracker.Schedule] turns that
// into dependencies, [Tracker.ScheduleAfter] checks dependencies given by
// hand. [Check] validates a whole set of systems at build time and reports
// the pairs whose order comes only from registration order.
//
// The schedule-time check can be switched off with [Options].NoChecks or,
// for release builds, compiled out with the build tag weft_nochecks.
package safety
