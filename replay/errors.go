package replay

import "fmt"

// Code is the stable identifier of a kind of replay error.
// docs/errors.md explains each one with an example and the fix.
type Code string

// The replay error codes.
const (
	CodeBadFile  Code = "WEFT-R001" // not a replay file, or a truncated or corrupted one
	CodeVersion  Code = "WEFT-R002" // a replay file of another format version
	CodeMismatch Code = "WEFT-R003" // the recording does not fit the game it is played into (systems, fixed step, resources)
	CodeDiverged Code = "WEFT-R004" // a replayed step, or a second run, differs: a system is not deterministic
	CodeMisuse   Code = "WEFT-R005" // a recorder or player used out of order (after Close, past the end)
)

// Sentinels for errors.Is (errors.Is(err, ErrX) compares codes).
const (
	ErrBadFile  = CodeBadFile
	ErrVersion  = CodeVersion
	ErrMismatch = CodeMismatch
	ErrDiverged = CodeDiverged
	ErrMisuse   = CodeMisuse
)

// Error makes a Code an error, so that it can be errors.Is's target.
func (c Code) Error() string { return string(c) }

// Error is the one error type of package replay. errors.As gives the
// code; a divergence carries where the runs first differ.
type Error struct {
	Code       Code
	Msg        string      // what happened and what to change
	Divergence *Divergence // for CodeDiverged
	Err        error       // the cause, if any
}

func (e *Error) Error() string {
	s := "replay: " + string(e.Code) + ": " + e.Msg
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
