package ecs

import "github.com/weft-engine/weft/internal/fault"

// The ecs error codes, for errors.Is(err, ErrX) and e.Code == ErrX.
// docs/errors.md explains each one with an example and the fix.
const (
	ErrUndeclared      = fault.Code("WEFT-E001") // a column view of a component the system did not declare
	ErrReadOnly        = fault.Code("WEFT-E002") // a write view of a component the system declared read-only
	ErrNotInQuery      = fault.Code("WEFT-E003") // a column view of a component that is not a column of the chunk's query
	ErrReadModified    = fault.Code("WEFT-E004") // a job changed a column it declared read-only (checked mode)
	ErrLocked          = fault.Code("WEFT-E005") // a structural or build-time call while a frame is in progress
	ErrBadCommand      = fault.Code("WEFT-E006") // commands on dead entities or missing components were skipped
	ErrBadArgument     = fault.Code("WEFT-E007") // a call out of its order (Prepare outside a frame, ...) or an invalid argument
	ErrNoResource      = fault.Code("WEFT-E008") // a system declares a resource the world does not have
	ErrRacyWrite       = fault.Code("WEFT-E009") // a resource or write-lookup write from where other jobs may run at the same time
	ErrUnresolved      = fault.Code("WEFT-E010") // a Spawn placeholder that playback could not resolve to its entity
	ErrNotFound        = fault.Code("WEFT-E011") // an owner read of an entity that is not alive or lacks the component
	ErrNoSnapshot      = fault.Code("WEFT-E012") // a snapshot of a component or resource that holds pointers
	ErrBadFile         = fault.Code("WEFT-E013") // a save file that is truncated, corrupted or does not fit the world
	ErrSaveVersion     = fault.Code("WEFT-E014") // a save file of another format version
	ErrObserver        = fault.Code("WEFT-E015") // an observer returned an error or panicked
	ErrObserverCascade = fault.Code("WEFT-E016") // observers' commands still called observers that recorded more after MaxObserverRounds rounds
)

// Error is every error of package ecs (internal/fault has the model):
// "ecs: CODE: what happened and what to change", with the system it is
// about in System.
type Error = fault.Error[Detail]

// Detail is what an ecs error adds.
type Detail struct {
	Component string // the component type the error is about, if any
}

func errorf(code fault.Code, system, component, format string, args ...any) *Error {
	return fault.New(code, system, nil, Detail{Component: component}, format, args...)
}
