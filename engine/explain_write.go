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
// then every edge with its causes, then the observers, then ambiguities.
func (x *Explain) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "systems (execution order):\n")
	for i, s := range x.Systems {
		writeSystem(&b, i, s)
	}
	fmt.Fprintf(&b, "edges:\n")
	for _, ed := range x.Edges {
		fmt.Fprintf(&b, "  %s -> %s\n", ed.From, ed.To)
		for _, c := range ed.Causes {
			fmt.Fprintf(&b, "      %s: %s\n", c.Kind, c.Text)
		}
	}
	if len(x.Observers) > 0 {
		fmt.Fprintf(&b, "observers (at playback, in this order for one change or event):\n")
		for i, s := range x.Observers {
			writeSystem(&b, i, s)
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

// writeSystem writes the line of system s, the i-th in execution order.
func writeSystem(b *strings.Builder, i int, s ExplainSystem) {
	kind := ""
	if s.Exclusive {
		kind = " exclusive"
	}
	if s.Commands {
		kind += " commands"
	}
	fmt.Fprintf(b, "  %d. %s [%s%s]", i+1, s.Name, s.Stage, kind)
	for _, part := range []struct {
		verb, sep string
		names     []string
	}{
		{"observes", ", ", s.Observes},
		{"writes", ", ", s.Writes}, {"reads", ", ", s.Reads}, {"looks up", ", ", s.Lookups},
		{"emits", ", ", s.Emits}, {"reads events", ", ", s.Events},
		{"in sets", ", ", s.Sets}, {"runs if", " and ", s.Conditions},
	} {
		if len(part.names) > 0 {
			fmt.Fprintf(b, " %s %s;", part.verb, strings.Join(part.names, part.sep))
		}
	}
	b.WriteString("\n")
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
