package fault

import (
	"errors"
	"testing"
)

type jobDetail struct{ label string }

func (d jobDetail) Where() string { return d.label }

type engineDetail struct{}

func TestErrorText(t *testing.T) {
	cause := &Error[jobDetail]{Code: "WEFT-J005", Msg: "panic: boom", Detail: jobDetail{`"a"[0]`}}
	blocked := &Error[jobDetail]{Code: "WEFT-J007", Msg: "blocked", Err: cause, Detail: jobDetail{`"b"[1]`}}
	wrapped := New("WEFT-G009", "b", blocked, engineDetail{}, "system %q failed", "b")
	for _, c := range []struct {
		err  error
		want string
	}{
		{cause, `jobs: WEFT-J005 "a"[0]: panic: boom`},
		{blocked, `jobs: WEFT-J007 "b"[1]: blocked: jobs: WEFT-J005 "a"[0]: panic: boom`},
		{wrapped, "engine: WEFT-G009: system \"b\" failed:\n\t" + blocked.Error()},
		{&Error[engineDetail]{Code: "X", Msg: "m"}, "weft: X: m"},
	} {
		if got := c.err.Error(); got != c.want {
			t.Errorf("got %q, want %q", got, c.want)
		}
	}
}

func TestIs(t *testing.T) {
	inner := &Error[jobDetail]{Code: "WEFT-J005"}
	err := New("WEFT-G009", "", inner, engineDetail{}, "x")
	for _, c := range []struct {
		target error
		want   bool
	}{
		{Code("WEFT-G009"), true},
		{Code("WEFT-J005"), true}, // through Unwrap
		{Code("WEFT-J007"), false},
		{&Error[jobDetail]{Code: "WEFT-G009"}, true}, // the code decides, not the package's type
		{&Error[engineDetail]{Code: "WEFT-E005"}, false},
	} {
		if got := errors.Is(err, c.target); got != c.want {
			t.Errorf("Is(%v) = %v, want %v", c.target, got, c.want)
		}
	}
	var je *Error[jobDetail]
	if !errors.As(err, &je) || je != inner {
		t.Errorf("As finds the package's own error inside another's: %v", je)
	}
}
