package engine

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// String is the text form of the schedule.
func (x *Explain) String() string {
	var b strings.Builder
	x.WriteText(&b)
	return b.String()
}

// WriteText writes the schedule for terminals: systems in execution order,
// then every edge with its causes, then ambiguities.
func (x *Explain) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "systems (execution order):\n")
	for i, s := range x.Systems {
		kind := ""
		if s.Exclusive {
			kind = " exclusive"
		}
		if s.Commands {
			kind += " commands"
		}
		fmt.Fprintf(&b, "  %d. %s [%s%s]", i+1, s.Name, s.Stage, kind)
		if len(s.Writes) > 0 {
			fmt.Fprintf(&b, " writes %s;", strings.Join(s.Writes, ", "))
		}
		if len(s.Reads) > 0 {
			fmt.Fprintf(&b, " reads %s;", strings.Join(s.Reads, ", "))
		}
		if len(s.Lookups) > 0 {
			fmt.Fprintf(&b, " looks up %s;", strings.Join(s.Lookups, ", "))
		}
		if len(s.Emits) > 0 {
			fmt.Fprintf(&b, " emits %s;", strings.Join(s.Emits, ", "))
		}
		if len(s.Events) > 0 {
			fmt.Fprintf(&b, " reads events %s;", strings.Join(s.Events, ", "))
		}
		if len(s.Sets) > 0 {
			fmt.Fprintf(&b, " in sets %s;", strings.Join(s.Sets, ", "))
		}
		if len(s.Conditions) > 0 {
			fmt.Fprintf(&b, " runs if %s;", strings.Join(s.Conditions, " and "))
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "edges:\n")
	for _, ed := range x.Edges {
		fmt.Fprintf(&b, "  %s -> %s\n", ed.From, ed.To)
		for _, c := range ed.Causes {
			fmt.Fprintf(&b, "      %s: %s\n", c.Kind, c.Text)
		}
	}
	fmt.Fprintf(&b, "ambiguities:")
	if len(x.Ambiguities) == 0 {
		b.WriteString(" none")
	}
	b.WriteString("\n")
	for _, a := range x.Ambiguities {
		st := "NOT in the allowlist"
		if a.Allowed {
			st = "allowed"
		}
		fmt.Fprintf(&b, "  %s: %s then %s on %s (%s)\n", a.ID, a.First, a.Second, a.Key, st)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteDOT writes the schedule as a Graphviz digraph.
func (x *Explain) WriteDOT(w io.Writer) error {
	var b strings.Builder
	b.WriteString("digraph schedule {\n  rankdir=LR;\n  node [shape=box];\n")
	for _, s := range x.Systems {
		shape := ""
		if s.Exclusive {
			shape = ", style=bold"
		}
		fmt.Fprintf(&b, "  %q [label=%q%s];\n", s.Name, s.Name+"\n"+s.Stage, shape)
	}
	for _, ed := range x.Edges {
		var parts []string
		for _, c := range ed.Causes {
			if c.Key != "" {
				parts = append(parts, string(c.Kind)+" "+c.Key)
			} else {
				parts = append(parts, string(c.Kind))
			}
		}
		fmt.Fprintf(&b, "  %q -> %q [label=%q];\n", ed.From, ed.To, strings.Join(parts, ", "))
	}
	b.WriteString("}\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteJSON writes the schedule as indented JSON.
func (x *Explain) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(x)
}
