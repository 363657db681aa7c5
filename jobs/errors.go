package jobs

import "github.com/weft-engine/weft/internal/fault"

// The jobs error codes, for errors.Is(err, ErrX) and e.Code == ErrX.
// docs/errors.md explains each one with an example and the fix.
const (
	ErrStaleHandle   = fault.Code("WEFT-J001") // handle from before the last Reset
	ErrForeignHandle = fault.Code("WEFT-J002") // zero handle, or one from another Pool
	ErrClosed        = fault.Code("WEFT-J003") // scheduling on a closed Pool
	ErrArenaFull     = fault.Code("WEFT-J004") // more jobs between two Resets than Options.MaxJobs
	ErrFailed        = fault.Code("WEFT-J005") // the job panicked
	ErrCancelled     = fault.Code("WEFT-J006") // the job was cancelled before it started
	ErrBlocked       = fault.Code("WEFT-J007") // a prerequisite failed or was cancelled
	ErrWaitCycle     = fault.Code("WEFT-J008") // a job waits on itself or on a job that needs it
	ErrBusy          = fault.Code("WEFT-J009") // Reset inside a job, off the owner or while a guest drives; Observed off the owner
	ErrBadArgument   = fault.Code("WEFT-J010") // invalid Job, Options or ParallelFor arguments
	ErrInsideJob     = fault.Code("WEFT-J011") // Pool.Wait or Pool.Close called from inside a job
	ErrTriggered     = fault.Code("WEFT-J012") // an Event triggered twice, or after Cancel
	ErrUntriggered   = fault.Code("WEFT-J013") // Reset or Close found Events never triggered, and cancelled them
)

// Error is every error of package jobs (internal/fault has the model).
// Its text is "jobs: CODE "job"[chunk]: what happened and what to change:
// cause"; Err is the failure that blocked a job (ErrBlocked), or the value
// a job panicked with if it is an error (ErrFailed).
type Error = fault.Error[Detail]

// Detail is what a jobs error adds.
type Detail struct {
	Job   Label  // the job the error is about, if any
	Panic any    // ErrFailed: the value the job panicked with
	Stack []byte // ErrFailed: the job's stack at the panic
}

// Where is the job's label, which the error's text shows after the code.
func (d Detail) Where() string {
	if d.Job.Name == "" {
		return ""
	}
	return d.Job.String()
}

func errorf(code fault.Code, label Label, format string, args ...any) *Error {
	return fault.New(code, "", nil, Detail{Job: label}, format, args...)
}
