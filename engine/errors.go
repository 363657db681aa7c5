package engine

import (
	"fmt"
	"runtime/debug"
)

// Code is the stable identifier of a kind of engine error. docs/errors.md
// explains each one with an example and the fix.
type Code string

// The engine error codes.
const (
	CodeBadConfig   Code = "WEFT-G001" // a Config field or an argument is out of range or nil
	CodeBuild       Code = "WEFT-G002" // a system's Build failed or panicked, or its declarations are invalid
	CodeSchedule    Code = "WEFT-G003" // the set of systems does not validate (cycle, unknown key or name, double declaration)
	CodeAmbiguity   Code = "WEFT-G004" // two systems conflict and only registration order decides; not in the allowlist
	CodeStageOrder  Code = "WEFT-G005" // a Before/After constraint contradicts the stage order
	CodeUnknown     Code = "WEFT-G006" // Enable names no system
	CodeOrder       Code = "WEFT-G007" // a call out of order: Add after Build, Step before Build, a second engine on a world
	CodeScheduleRun Code = "WEFT-G008" // a system's Schedule failed or panicked, or scheduling its jobs failed, in a step
	CodeJob         Code = "WEFT-G009" // a job failed (panicked) or reported a misuse (ecs checks) in a step
	CodeMerge       Code = "WEFT-G010" // a system's Merge or an exclusive system failed or panicked in a step
)

// Error is the one error type of package engine. errors.As gives the code;
// errors.Is compares codes, and reaches the cause (safety, ecs, jobs).
type Error struct {
	Code   Code
	System string // the system the error is about, if any
	Msg    string // what happened and what to change
	Err    error  // the cause, if any
}

// Sentinels for errors.Is.
var (
	ErrBadConfig   = &Error{Code: CodeBadConfig}
	ErrBuild       = &Error{Code: CodeBuild}
	ErrSchedule    = &Error{Code: CodeSchedule}
	ErrAmbiguity   = &Error{Code: CodeAmbiguity}
	ErrStageOrder  = &Error{Code: CodeStageOrder}
	ErrUnknown     = &Error{Code: CodeUnknown}
	ErrOrder       = &Error{Code: CodeOrder}
	ErrScheduleRun = &Error{Code: CodeScheduleRun}
	ErrJob         = &Error{Code: CodeJob}
	ErrMerge       = &Error{Code: CodeMerge}
)

func (e *Error) Error() string {
	s := "engine: " + string(e.Code) + ": " + e.Msg
	if e.Err != nil {
		s += ":\n\t" + e.Err.Error()
	}
	return s
}

// Is reports whether target is an *Error with the same code.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code
}

// Unwrap is the cause.
func (e *Error) Unwrap() error { return e.Err }

func errorf(code Code, system string, cause error, format string, args ...any) *Error {
	return &Error{Code: code, System: system, Err: cause, Msg: fmt.Sprintf(format, args...)}
}

// Panic is the cause of an error whose system panicked in Build,
// Schedule, Merge or an exclusive Run: the engine recovered it, so the
// step completed and the engine stays usable.
type Panic struct {
	Value any    // the value the system panicked with
	Stack []byte // the system's stack at the panic
}

func (p *Panic) Error() string { return fmt.Sprintf("panic: %v", p.Value) }

// Unwrap is the panic value, if it is an error.
func (p *Panic) Unwrap() error {
	err, _ := p.Value.(error)
	return err
}

// recovered turns a panic of the calling function into *err. It must be
// deferred directly by the function that calls a system's code.
func recovered(err *error) {
	if r := recover(); r != nil {
		*err = &Panic{Value: r, Stack: debug.Stack()}
	}
}
