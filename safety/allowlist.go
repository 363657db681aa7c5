package safety

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Allowlist is a set of accepted ambiguity IDs, read from a file that a
// project keeps next to its code, so that CI fails only on new ones.
type Allowlist map[string]bool

// ParseAllowlist reads one ambiguity ID per line; text after '#' and blank
// lines are ignored.
func ParseAllowlist(r io.Reader) (Allowlist, error) {
	a := Allowlist{}
	sc := bufio.NewScanner(r)
	for line := 1; sc.Scan(); line++ {
		s, _, _ := strings.Cut(sc.Text(), "#")
		f := strings.Fields(s)
		switch len(f) {
		case 0:
		case 1:
			a[f[0]] = true
		default:
			return nil, errorf(ErrBadArgument, "allowlist line %d has %d fields; write one ambiguity ID per line, comments after '#'", line, len(f))
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return a, nil
}

// WriteAllowlist writes the ambiguities in the format ParseAllowlist reads,
// each with a comment naming the systems and the key.
func WriteAllowlist(w io.Writer, amb []Ambiguity) error {
	for _, a := range amb {
		if _, err := fmt.Fprintf(w, "%s # %q then %q on %s\n", a.ID, a.First, a.Second, a.Key); err != nil {
			return err
		}
	}
	return nil
}

// NewAmbiguities returns an *Error with ErrNewAmbiguity for each of p's
// ambiguities that allow does not list, joined; nil if there are none.
func (p *Plan) NewAmbiguities(allow Allowlist) error {
	var errs []error
	for _, a := range p.Ambiguities {
		if allow[a.ID] {
			continue
		}
		errs = append(errs, errorf(ErrNewAmbiguity,
			"%s: systems %q and %q conflict on %s and only registration order runs %q first; state the order with Before/After, or accept it by adding %s to the allowlist",
			a.ID, a.First, a.Second, a.Key, a.First, a.ID))
	}
	return errors.Join(errs...)
}
