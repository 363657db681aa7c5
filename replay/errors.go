package replay

import (
	"fmt"

	"github.com/weft-engine/weft/internal/fault"
)

// The replay error codes, for errors.Is(err, ErrX) and e.Code == ErrX.
// docs/errors.md explains each one with an example and the fix.
const (
	ErrBadFile  = fault.Code("WEFT-R001") // not a replay file, or a truncated or corrupted one
	ErrVersion  = fault.Code("WEFT-R002") // a replay file of another format version
	ErrMismatch = fault.Code("WEFT-R003") // the recording does not fit the game it is played into (systems, fixed step, resources)
	ErrDiverged = fault.Code("WEFT-R004") // a replayed step, or a second run, differs: a system is not deterministic
	ErrMisuse   = fault.Code("WEFT-R005") // a recorder or player used out of order (after Close, past the end)
)

// Error is every error of package replay (internal/fault has the model).
// For ErrDiverged, Detail is where the runs first differ.
type Error = fault.Error[*Divergence]

func errorf(code fault.Code, cause error, format string, args ...any) *Error {
	return &Error{Code: code, Err: cause, Msg: fmt.Sprintf(format, args...)}
}
