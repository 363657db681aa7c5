package ecs

import "fmt"

// Code is the stable identifier of a kind of ecs error. docs/errors.md
// explains each one with an example and the fix.
type Code string

// The ecs error codes.
const (
	CodeUndeclared      Code = "WEFT-E001" // a column view of a component the system did not declare
	CodeReadOnly        Code = "WEFT-E002" // a write view of a component the system declared read-only
	CodeNotInQuery      Code = "WEFT-E003" // a column view of a component that is not a column of the chunk's query
	CodeReadModified    Code = "WEFT-E004" // a job changed a column it declared read-only (checked mode)
	CodeLocked          Code = "WEFT-E005" // a structural or build-time call while a frame is in progress
	CodeBadCommand      Code = "WEFT-E006" // commands on dead entities or missing components were skipped
	CodeBadArgument     Code = "WEFT-E007" // a call out of its order (Prepare outside a frame, ...) or an invalid argument
	CodeNoResource      Code = "WEFT-E008" // a system declares a resource the world does not have
	CodeRacyWrite       Code = "WEFT-E009" // a resource or write-lookup write from where other jobs may run at the same time
	CodeUnresolved      Code = "WEFT-E010" // a Spawn placeholder that playback could not resolve to its entity
	CodeNotFound        Code = "WEFT-E011" // an owner read of an entity that is not alive or lacks the component
	CodeNoSnapshot      Code = "WEFT-E012" // a snapshot of a component or resource that holds pointers
	CodeBadFile         Code = "WEFT-E013" // a save file that is truncated, corrupted or does not fit the world
	CodeSaveVersion     Code = "WEFT-E014" // a save file of another format version
	CodeObserver        Code = "WEFT-E015" // an observer returned an error or panicked
	CodeObserverCascade Code = "WEFT-E016" // observers' commands still called observers that recorded more after MaxObserverRounds rounds
)

// Error is the one error type of package ecs. errors.As(err, &e) gives the
// code; errors.Is(err, ErrX) compares codes.
type Error struct {
	Code      Code
	System    string // the system the error is about, if any
	Component string // the component type, if any
	Msg       string // what happened and what to change
	Err       error  // the cause, if any (an observer's error)
}

// Unwrap is the cause, if any.
func (e *Error) Unwrap() error { return e.Err }

// Sentinels for errors.Is (errors.Is(err, ErrX) compares codes). They
// are constants, Codes, so that no caller can change them.
const (
	ErrUndeclared      = CodeUndeclared
	ErrReadOnly        = CodeReadOnly
	ErrNotInQuery      = CodeNotInQuery
	ErrReadModified    = CodeReadModified
	ErrLocked          = CodeLocked
	ErrBadCommand      = CodeBadCommand
	ErrBadArgument     = CodeBadArgument
	ErrNoResource      = CodeNoResource
	ErrRacyWrite       = CodeRacyWrite
	ErrUnresolved      = CodeUnresolved
	ErrNotFound        = CodeNotFound
	ErrNoSnapshot      = CodeNoSnapshot
	ErrBadFile         = CodeBadFile
	ErrSaveVersion     = CodeSaveVersion
	ErrObserver        = CodeObserver
	ErrObserverCascade = CodeObserverCascade
)

// Error makes a Code an error, so that it can be errors.Is's target.
func (c Code) Error() string { return string(c) }

// Error is the message: the code, the system and component, and what to change.
func (e *Error) Error() string { return "ecs: " + string(e.Code) + ": " + e.Msg }

// Is reports whether target is an *Error with the same code.
func (e *Error) Is(target error) bool {
	switch t := target.(type) {
	case Code:
		return t == e.Code
	case *Error:
		return t.Code == e.Code
	}
	return false
}

func errorf(code Code, system, component, format string, args ...any) *Error {
	return &Error{Code: code, System: system, Component: component, Msg: fmt.Sprintf(format, args...)}
}
