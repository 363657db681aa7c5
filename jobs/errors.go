package jobs

import (
	"fmt"
	"strings"
)

// Code is the stable identifier of a kind of jobs error. docs/errors.md
// explains each one with an example and the fix.
type Code string

// The jobs error codes.
const (
	CodeStaleHandle   Code = "WEFT-J001" // handle from before the last Reset
	CodeForeignHandle Code = "WEFT-J002" // zero handle, or one from another Pool
	CodeClosed        Code = "WEFT-J003" // scheduling on a closed Pool
	CodeArenaFull     Code = "WEFT-J004" // more jobs between two Resets than Options.MaxJobs
	CodeFailed        Code = "WEFT-J005" // the job panicked
	CodeCancelled     Code = "WEFT-J006" // the job was cancelled before it started
	CodeBlocked       Code = "WEFT-J007" // a prerequisite failed or was cancelled
	CodeWaitCycle     Code = "WEFT-J008" // a job waits on itself or on a job that needs it
	CodeBusy          Code = "WEFT-J009" // Reset inside a job, off the owner or while a guest drives; Observed off the owner
	CodeBadArgument   Code = "WEFT-J010" // invalid Job, Options or ParallelFor arguments
	CodeInsideJob     Code = "WEFT-J011" // Pool.Wait or Pool.Close called from inside a job
	CodeTriggered     Code = "WEFT-J012" // an Event triggered twice, or after Cancel
	CodeUntriggered   Code = "WEFT-J013" // Reset or Close found Events never triggered, and cancelled them
)

// Error is the one error type of package jobs. errors.As(err, &e) gives
// the code; errors.Is(err, ErrX) compares codes, so it matches any Error of
// the same kind.
type Error struct {
	Code  Code
	Job   Label  // the job the error is about, if any
	Msg   string // what happened and what to change
	Panic any    // CodeFailed: the value the job panicked with
	Stack []byte // CodeFailed: the job's stack at the panic
	Cause error  // CodeBlocked: the failure or cancellation that blocked the job
}

// Sentinels for errors.Is (errors.Is(err, ErrX) compares codes). They
// are constants, Codes, so that no caller can change them.
const (
	ErrStaleHandle   = CodeStaleHandle
	ErrForeignHandle = CodeForeignHandle
	ErrClosed        = CodeClosed
	ErrArenaFull     = CodeArenaFull
	ErrFailed        = CodeFailed
	ErrCancelled     = CodeCancelled
	ErrBlocked       = CodeBlocked
	ErrWaitCycle     = CodeWaitCycle
	ErrBusy          = CodeBusy
	ErrBadArgument   = CodeBadArgument
	ErrInsideJob     = CodeInsideJob
	ErrTriggered     = CodeTriggered
	ErrUntriggered   = CodeUntriggered
)

// Error makes a Code an error, so that it can be errors.Is's target.
func (c Code) Error() string { return string(c) }

// Error is "jobs: CODE "job"[chunk]: what happened and what to change: cause".
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("jobs: ")
	b.WriteString(string(e.Code))
	if e.Job.Name != "" {
		fmt.Fprintf(&b, " %s", e.Job)
	}
	if e.Msg != "" {
		b.WriteString(": ")
		b.WriteString(e.Msg)
	}
	if e.Cause != nil {
		b.WriteString(": ")
		b.WriteString(e.Cause.Error())
	}
	return b.String()
}

// Unwrap returns the cause of a blocked job, or the panic value of a
// failed one if it is an error, so errors.As reaches either.
func (e *Error) Unwrap() error {
	if e.Cause != nil {
		return e.Cause
	}
	err, _ := e.Panic.(error)
	return err
}

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

func errorf(code Code, label Label, format string, args ...any) *Error {
	return &Error{Code: code, Job: label, Msg: fmt.Sprintf(format, args...)}
}
