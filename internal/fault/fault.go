package fault

import (
	"fmt"
	"strings"
)

// Code is the stable identifier of a kind of error. It is an error itself,
// so that a package's constants are errors.Is targets and no caller can
// change them.
type Code string

func (c Code) Error() string { return string(c) }

// Error is a weft error of one package, whose own fields are Detail.
type Error[D any] struct {
	Code   Code
	System string // the system the error is about, if any
	Msg    string // what happened and what to change
	Err    error  // the cause, if any
	Detail D      // the package's own fields, if any
}

// Where is a Detail that names where the error happened (a job's label):
// the text shows it after the code.
type Where interface{ Where() string }

// packages are the packages by code letter: the text's prefix, and how the
// cause follows the message. engine and replay wrap other packages'
// errors, often several lines long, so theirs starts on a line of its own.
var packages = map[byte]struct{ name, sep string }{
	'J': {"jobs", ": "},
	'S': {"safety", ": "},
	'E': {"ecs", ": "},
	'G': {"engine", ":\n\t"},
	'R': {"replay", ":\n\t"},
	'N': {"netplay", ":\n\t"},
}

// letter is the package letter of a "WEFT-X000" code, or 0.
func (c Code) letter() byte {
	if len(c) > 5 && strings.HasPrefix(string(c), "WEFT-") {
		return c[5]
	}
	return 0
}

// Error is "<package>: <code>[ <where>]: <msg>" and the cause.
func (e *Error[D]) Error() string {
	p, ok := packages[e.Code.letter()]
	if !ok {
		p.name, p.sep = "weft", ": "
	}
	var b strings.Builder
	b.WriteString(p.name)
	b.WriteString(": ")
	b.WriteString(string(e.Code))
	if w, ok := any(e.Detail).(Where); ok {
		if s := w.Where(); s != "" {
			b.WriteString(" ")
			b.WriteString(s)
		}
	}
	if e.Msg != "" {
		b.WriteString(": ")
		b.WriteString(e.Msg)
	}
	if e.Err != nil {
		b.WriteString(p.sep)
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

// Unwrap is the cause, so that errors.Is and errors.As reach it.
func (e *Error[D]) Unwrap() error { return e.Err }

// Is reports whether target is a Code or a weft error with e's code: codes
// are unique across packages, so the code alone says the kind.
func (e *Error[D]) Is(target error) bool {
	switch t := target.(type) {
	case Code:
		return t == e.Code
	case coded:
		return t.code() == e.Code
	}
	return false
}

// coded is an *Error of any package.
type coded interface{ code() Code }

func (e *Error[D]) code() Code { return e.Code }

// New is an error with a formatted message.
func New[D any](code Code, system string, cause error, detail D, format string, args ...any) *Error[D] {
	return &Error[D]{Code: code, System: system, Err: cause, Detail: detail, Msg: fmt.Sprintf(format, args...)}
}
