package netplay

import (
	"fmt"

	"github.com/weft-engine/weft/internal/fault"
)

// The netplay error codes, for errors.Is(err, ErrX) and e.Code == ErrX.
// docs/errors.md explains each one with an example and the fix.
const (
	ErrBadConfig  = fault.Code("WEFT-N001") // a Config field or an argument is out of range, missing or inconsistent
	ErrMalformed  = fault.Code("WEFT-N002") // a packet that is truncated, too long, of another format or with fields out of range
	ErrForged     = fault.Code("WEFT-N003") // a packet whose tag does not check, of another session, or from an address its sender is not at
	ErrReplayed   = fault.Code("WEFT-N004") // a packet already received, or older than the receive window
	ErrFarFuture  = fault.Code("WEFT-N005") // a packet whose step or sequence number is further ahead than a peer can be
	ErrMismatch   = fault.Code("WEFT-N006") // a peer's hello describes another game or other settings
	ErrDesync     = fault.Code("WEFT-N007") // a confirmed step's digest differs between peers
	ErrDiverged   = fault.Code("WEFT-N008") // the sync test ran a step twice and a system wrote something else
	ErrMisuse     = fault.Code("WEFT-N009") // a call out of order: Update after Close, a second session on an engine
	ErrTransport  = fault.Code("WEFT-N010") // the transport failed to send or receive
	ErrSimulation = fault.Code("WEFT-N011") // a step of the game failed (its engine error is the cause)
)

// Error is every error of package netplay (internal/fault has the model).
// For ErrDesync and ErrDiverged, Detail is where the runs differ: the step,
// system, entity and component.
type Error = fault.Error[*Report]

func errorf(code fault.Code, cause error, format string, args ...any) *Error {
	return &Error{Code: code, Err: cause, Msg: fmt.Sprintf(format, args...)}
}
