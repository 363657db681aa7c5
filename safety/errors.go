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

// Sentinels for errors.Is (errors.Is(err, ErrX) compares codes). They
// are constants, Codes, so that no caller can change them.
const (
	ErrMissingDependency = CodeMissingDependency
	ErrCycle             = CodeCycle
	ErrConflictingDecl   = CodeConflictingDecl
	ErrUnknownKey        = CodeUnknownKey
	ErrUnknownSystem     = CodeUnknownSystem
	ErrNewAmbiguity      = CodeNewAmbiguity
	ErrBadArgument       = CodeBadArgument
)

// Error makes a Code an error, so that it can be errors.Is's target.
func (c Code) Error() string { return string(c) }

// Error is the message: the code, what happened and what to change.
func (e *Error) Error() string { return "safety: " + string(e.Code) + ": " + e.Msg }

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

func errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Msg: fmt.Sprintf(format, args...)}
}
