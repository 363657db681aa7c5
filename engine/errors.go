package engine

import (
	"fmt"
	"runtime/debug"

	"github.com/weft-engine/weft/internal/fault"
)

// The engine error codes, for errors.Is(err, ErrX) and e.Code == ErrX.
// docs/errors.md explains each one with an example and the fix.
const (
	ErrBadConfig     = fault.Code("WEFT-G001") // a Config field or an argument is out of range or nil
	ErrBuild         = fault.Code("WEFT-G002") // a system's Build failed or panicked, or its declarations are invalid
	ErrSchedule      = fault.Code("WEFT-G003") // the set of systems does not validate (cycle, unknown key or name, double declaration)
	ErrAmbiguity     = fault.Code("WEFT-G004") // two systems conflict and only registration order decides; not in the allowlist
	ErrStageOrder    = fault.Code("WEFT-G005") // a Before/After constraint contradicts the stage order
	ErrUnknown       = fault.Code("WEFT-G006") // Enable names no system or set
	ErrOrder         = fault.Code("WEFT-G007") // a call out of order: Add after Build, Step before Build, a second engine on a world
	ErrScheduleRun   = fault.Code("WEFT-G008") // a system's Schedule failed or panicked, or scheduling its jobs failed, in a step
	ErrJob           = fault.Code("WEFT-G009") // a job failed (panicked) or reported a misuse (ecs checks) in a step
	ErrMerge         = fault.Code("WEFT-G010") // a system's Merge, an exclusive or state system, or an observer failed or panicked in a step
	ErrUnknownSet    = fault.Code("WEFT-G011") // InSet, or a set's Before/After, names no set (or system)
	ErrSetStage      = fault.Code("WEFT-G012") // a system is not in the stage of one of its sets
	ErrNameClash     = fault.Code("WEFT-G013") // a set has the name of a system or of another set
	ErrSetCycle      = fault.Code("WEFT-G014") // Before/After constraints through sets form a cycle
	ErrCondition     = fault.Code("WEFT-G015") // a run condition cannot hold (missing resource) or panicked
	ErrState         = fault.Code("WEFT-G016") // a state is not registered, registered twice, or given a value it does not have
	ErrStateConflict = fault.Code("WEFT-G017") // two requests for different values of a state before the first is applied
)

// Error is every error of package engine (internal/fault has the model):
// "engine: CODE: what happened and what to change", then the cause (safety,
// ecs, jobs) on a line of its own; errors.Is and errors.As reach the cause.
type Error = fault.Error[Detail]

// Detail is what an engine error adds.
type Detail struct {
	// Skipped (ErrJob) are the systems that this system's failure kept
	// from running in the step, in built order: their jobs were blocked
	// and their Merge did not run.
	Skipped []string
}

func errorf(code fault.Code, system string, cause error, format string, args ...any) *Error {
	return fault.New(code, system, cause, Detail{}, format, args...)
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
