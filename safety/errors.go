package safety

import "fmt"

// Code is the stable identifier of a kind of safety error. docs/errors.md
// explains each one with an example and the fix.
type Code string

// The safety error codes.
const (
	CodeMissingDependency Code = "WEFT-S001" // a conflicting job in flight is not a prerequisite
	CodeCycle             Code = "WEFT-S002" // explicit Before/After constraints form a cycle
	CodeConflictingDecl   Code = "WEFT-S003" // one system declares conflicting access to a key twice
	CodeUnknownKey        Code = "WEFT-S004" // a declaration names a key the Registry does not know
	CodeUnknownSystem     Code = "WEFT-S005" // Before/After names a missing system, or a name is used twice
	CodeNewAmbiguity      Code = "WEFT-S006" // an ambiguous pair is not in the allowlist
	CodeBadArgument       Code = "WEFT-S007" // invalid argument: too many keys, bad allowlist line
)

// Error is the one error type of package safety. errors.As(err, &e) gives
// the code and the structured fields; errors.Is(err, ErrX) compares codes.
type Error struct {
	Code Code
	Msg  string // what happened and what to change

	// CodeMissingDependency: the job in flight, the new job, the key and
	// each side's access to it.
	Earlier, Later         string
	Key                    string
	EarlierMode, LaterMode Mode

	Cycle []string // CodeCycle: the systems of the cycle, first repeated last
}

// Sentinels for errors.Is.
var (
	ErrMissingDependency = &Error{Code: CodeMissingDependency}
	ErrCycle             = &Error{Code: CodeCycle}
	ErrConflictingDecl   = &Error{Code: CodeConflictingDecl}
	ErrUnknownKey        = &Error{Code: CodeUnknownKey}
	ErrUnknownSystem     = &Error{Code: CodeUnknownSystem}
	ErrNewAmbiguity      = &Error{Code: CodeNewAmbiguity}
	ErrBadArgument       = &Error{Code: CodeBadArgument}
)

// Error is the message: the code, what happened and what to change.
func (e *Error) Error() string { return "safety: " + string(e.Code) + ": " + e.Msg }

// Is reports whether target is an *Error with the same code.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code
}

func errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Msg: fmt.Sprintf(format, args...)}
}
