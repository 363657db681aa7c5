package netplay

import "fmt"

// Code is the stable identifier of a kind of netplay error.
// docs/errors.md explains each one with an example and the fix.
type Code string

// The netplay error codes.
const (
	CodeBadConfig  Code = "WEFT-N001" // a Config field or an argument is out of range, missing or inconsistent
	CodeMalformed  Code = "WEFT-N002" // a packet that is truncated, too long, of another format or with fields out of range
	CodeForged     Code = "WEFT-N003" // a packet whose tag does not check, of another session, or from an address its sender is not at
	CodeReplayed   Code = "WEFT-N004" // a packet already received, or older than the receive window
	CodeFarFuture  Code = "WEFT-N005" // a packet whose step or sequence number is further ahead than a peer can be
	CodeMismatch   Code = "WEFT-N006" // a peer's hello describes another game or other settings
	CodeDesync     Code = "WEFT-N007" // a confirmed step's digest differs between peers
	CodeDiverged   Code = "WEFT-N008" // the sync test ran a step twice and a system wrote something else
	CodeMisuse     Code = "WEFT-N009" // a call out of order: Update after Close, a second session on an engine
	CodeTransport  Code = "WEFT-N010" // the transport failed to send or receive
	CodeSimulation Code = "WEFT-N011" // a step of the game failed (its engine error is the cause)
)

// Sentinels for errors.Is (errors.Is(err, ErrX) compares codes).
const (
	ErrBadConfig  = CodeBadConfig
	ErrMalformed  = CodeMalformed
	ErrForged     = CodeForged
	ErrReplayed   = CodeReplayed
	ErrFarFuture  = CodeFarFuture
	ErrMismatch   = CodeMismatch
	ErrDesync     = CodeDesync
	ErrDiverged   = CodeDiverged
	ErrMisuse     = CodeMisuse
	ErrTransport  = CodeTransport
	ErrSimulation = CodeSimulation
)

// Error makes a Code an error, so that it can be errors.Is's target.
func (c Code) Error() string { return string(c) }

// Error is the one error type of package netplay. errors.As gives the
// code; a desync or a divergence carries where the runs differ.
type Error struct {
	Code   Code
	Msg    string  // what happened and what to change
	Report *Report // for CodeDesync and CodeDiverged: the step, system, entity, component
	Err    error   // the cause, if any
}

func (e *Error) Error() string {
	s := "netplay: " + string(e.Code) + ": " + e.Msg
	if e.Err != nil {
		s += ":\n\t" + e.Err.Error()
	}
	return s
}

// Is reports whether target is a Code or an *Error with the same code.
func (e *Error) Is(target error) bool {
	switch t := target.(type) {
	case Code:
		return t == e.Code
	case *Error:
		return t.Code == e.Code
	}
	return false
}

// Unwrap is the cause.
func (e *Error) Unwrap() error { return e.Err }

func errorf(code Code, cause error, format string, args ...any) *Error {
	return &Error{Code: code, Err: cause, Msg: fmt.Sprintf(format, args...)}
}
