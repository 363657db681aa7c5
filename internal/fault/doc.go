// Package fault is the one error type of weft's packages.
//
// Every weft error is an *Error[D]: a stable Code ("WEFT-" + the package's
// letter + three digits, each explained in docs/errors.md), the system it
// is about, what happened and what to change (Msg), the cause (Err, which
// Unwrap returns) and D, the fields only its package has. Is compares
// codes, so errors.Is(err, ecs.ErrLocked) matches any error of that code,
// and a bare Code is a valid target.
//
// Each package declares only its codes, as constants of type Code
// (ecs.ErrLocked), and one alias, Error = fault.Error[Detail] with its own
// Detail type. The alias is the one name kept for users: errors.As(err, &e)
// with e an *ecs.Error must find ecs's error inside an engine error, so
// each package's instantiation is a type of its own. Code has no alias:
// users hold codes as values (e.Code == ecs.ErrLocked, or as errors).
//
// The text is "<package>: <code>[ <where>]: <msg>" and the cause after it;
// the package is named by the code's letter (see packages), so that a
// package with codes of its own adds its letter there.
package fault
