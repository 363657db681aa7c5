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
	CodeBadConfig     Code = "WEFT-G001" // a Config field or an argument is out of range or nil
	CodeBuild         Code = "WEFT-G002" // a system's Build failed or panicked, or its declarations are invalid
	CodeSchedule      Code = "WEFT-G003" // the set of systems does not validate (cycle, unknown key or name, double declaration)
	CodeAmbiguity     Code = "WEFT-G004" // two systems conflict and only registration order decides; not in the allowlist
	CodeStageOrder    Code = "WEFT-G005" // a Before/After constraint contradicts the stage order
	CodeUnknown       Code = "WEFT-G006" // Enable names no system or set
	CodeOrder         Code = "WEFT-G007" // a call out of order: Add after Build, Step before Build, a second engine on a world
	CodeScheduleRun   Code = "WEFT-G008" // a system's Schedule failed or panicked, or scheduling its jobs failed, in a step
	CodeJob           Code = "WEFT-G009" // a job failed (panicked) or reported a misuse (ecs checks) in a step
	CodeMerge         Code = "WEFT-G010" // a system's Merge, an exclusive or state system, or an observer failed or panicked in a step
	CodeUnknownSet    Code = "WEFT-G011" // InSet, or a set's Before/After, names no set (or system)
	CodeSetStage      Code = "WEFT-G012" // a system is not in the stage of one of its sets
	CodeNameClash     Code = "WEFT-G013" // a set has the name of a system or of another set
	CodeSetCycle      Code = "WEFT-G014" // Before/After constraints through sets form a cycle
	CodeCondition     Code = "WEFT-G015" // a run condition cannot hold (missing resource) or panicked
	CodeState         Code = "WEFT-G016" // a state is not registered, registered twice, or given a value it does not have
	CodeStateConflict Code = "WEFT-G017" // two requests for different values of a state before the first is applied
)

// Error is the one error type of package engine. errors.As gives the code;
// errors.Is compares codes, and reaches the cause (safety, ecs, jobs).
type Error struct {
	Code   Code
	System string // the system the error is about, if any
	Msg    string // what happened and what to change
	Err    error  // the cause, if any
	// Skipped (WEFT-G009) are the systems that this system's failure kept
	// from running in the step, in built order: their jobs were blocked
	// and their Merge did not run.
	Skipped []string
}

// Sentinels for errors.Is (errors.Is(err, ErrX) compares codes). They
// are constants, Codes, so that no caller can change them.
const (
	ErrBadConfig     = CodeBadConfig
	ErrBuild         = CodeBuild
	ErrSchedule      = CodeSchedule
	ErrAmbiguity     = CodeAmbiguity
	ErrStageOrder    = CodeStageOrder
	ErrUnknown       = CodeUnknown
	ErrOrder         = CodeOrder
	ErrScheduleRun   = CodeScheduleRun
	ErrJob           = CodeJob
	ErrMerge         = CodeMerge
	ErrUnknownSet    = CodeUnknownSet
	ErrSetStage      = CodeSetStage
	ErrNameClash     = CodeNameClash
	ErrSetCycle      = CodeSetCycle
	ErrCondition     = CodeCondition
	ErrState         = CodeState
	ErrStateConflict = CodeStateConflict
)

// Error makes a Code an error, so that it can be errors.Is's target.
func (c Code) Error() string { return string(c) }

func (e *Error) Error() string {
	s := "engine: " + string(e.Code) + ": " + e.Msg
	if e.Err != nil {
		s += ":\n\t" + e.Err.Error()
	}
	return s
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
