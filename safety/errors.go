package safety

import (
	"fmt"

	"github.com/weft-engine/weft/internal/fault"
)

// The safety error codes, for errors.Is(err, ErrX) and e.Code == ErrX.
// docs/errors.md explains each one with an example and the fix.
const (
	ErrMissingDependency = fault.Code("WEFT-S001") // a conflicting job in flight is not a prerequisite
	ErrCycle             = fault.Code("WEFT-S002") // explicit Before/After constraints form a cycle
	ErrConflictingDecl   = fault.Code("WEFT-S003") // one system declares conflicting access to a key twice
	ErrUnknownKey        = fault.Code("WEFT-S004") // a declaration names a key the Registry does not know
	ErrUnknownSystem     = fault.Code("WEFT-S005") // Before/After names a missing system, or a name is used twice
	ErrNewAmbiguity      = fault.Code("WEFT-S006") // an ambiguous pair is not in the allowlist
	ErrBadArgument       = fault.Code("WEFT-S007") // invalid argument: too many keys, bad allowlist line
)

// Error is every error of package safety (internal/fault has the model):
// "safety: CODE: what happened and what to change".
type Error = fault.Error[Detail]

// Detail is what a safety error adds.
type Detail struct {
	// ErrMissingDependency: the job in flight, the new job, the key and
	// each side's access to it.
	Earlier, Later         string
	Key                    string
	EarlierMode, LaterMode Mode

	Cycle []string // ErrCycle: the systems of the cycle, first repeated last
}

func errorf(code fault.Code, format string, args ...any) *Error {
	return &Error{Code: code, Msg: fmt.Sprintf(format, args...)}
}
