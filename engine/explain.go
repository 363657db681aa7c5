package engine

import (
	"fmt"
	"slices"
	"strings"

	"github.com/weft-engine/weft/internal/seam"
	"github.com/weft-engine/weft/safety"
)

// Explain is the built schedule as data: systems in execution order and
// every edge of the system DAG with its causes.
type Explain struct {
	Systems     []ExplainSystem `json:"systems"`
	Edges       []Edge          `json:"edges"`
	Ambiguities []Ambiguity     `json:"ambiguities"`
	// Observers are the observers in the order added, the order in which
	// they are called for one change or event. They run at playback, on
	// the owner, outside the system DAG: no edge names them.
	Observers []ExplainSystem `json:"observers,omitempty"`
}

// ExplainSystem is one system of an Explain.
type ExplainSystem struct {
	Name       string   `json:"name"`
	Stage      string   `json:"stage"`
	Exclusive  bool     `json:"exclusive,omitempty"`
	Commands   bool     `json:"commands,omitempty"`
	Reads      []string `json:"reads,omitempty"`
	Writes     []string `json:"writes,omitempty"`
	Lookups    []string `json:"lookups,omitempty"`    // of Reads and Writes, those reached in any entity
	Emits      []string `json:"emits,omitempty"`      // the event types it emits (ecs.Emit)
	Events     []string `json:"events,omitempty"`     // the event types it reads (ecs.ReadEvents)
	Sets       []string `json:"sets,omitempty"`       // the sets it is in
	Conditions []string `json:"conditions,omitempty"` // its run conditions, then its sets' ("ai: EveryN(30)")
	Observes   []string `json:"observes,omitempty"`   // an observer's: what it observes ("OnDespawn Hull", "OnEvent Shot"); its Stage is "observer"
}

// Edge is one edge of the system DAG: From runs before To, for Causes.
type Edge struct {
	From   string  `json:"from"`
	To     string  `json:"to"`
	Causes []Cause `json:"causes"`
}

// Cause is one reason for an edge.
type Cause struct {
	Kind CauseKind `json:"kind"`
	Key  string    `json:"key,omitempty"` // the component or resource, for CauseConflict; the event stream, for CauseEvents
	Text string    `json:"text"`
}

// CauseKind is what kind of reason a Cause is.
type CauseKind string

// The kinds of Cause.
const (
	CauseOrder    CauseKind = "order"    // an explicit Before or After
	CauseSet      CauseKind = "set"      // a Before or After of a set, or naming a set
	CauseConflict CauseKind = "conflict" // both systems touch Key and one writes it
	CauseSync     CauseKind = "sync"     // an exclusive system or command playback splits the step
	CauseChunks   CauseKind = "chunks"   // the later system's first pass chains chunk-wise onto the earlier one
	CauseLookup   CauseKind = "lookup"   // a conflict on Key where one of the systems reaches it through a lookup (any entity)
	CauseEvents   CauseKind = "events"   // the earlier system emits events, of type Key, that the later one reads
)

// Ambiguity is a conflicting pair ordered only by registration.
type Ambiguity struct {
	safety.Ambiguity
	Allowed bool `json:"allowed"`
}

// EndOfStep names the pseudo-node of Explain where the last commands play back.
const EndOfStep = "(end of step)"

// buildExplain makes the Explain model of the built schedule. Executed
// only by the owner, in Build.
func (e *Engine) buildExplain() *Explain {
	x := &Explain{}
	// Execution order: per segment, its exclusives, then its systems.
	for seg := 0; seg < e.sched.nseg; seg++ {
		for _, en := range e.sched.excl {
			if en.seg == seg {
				x.Systems = append(x.Systems, e.explainSystem(en))
			}
		}
		for _, en := range e.sched.par {
			if en.seg == seg {
				x.Systems = append(x.Systems, e.explainSystem(en))
			}
		}
	}
	amb := map[[2]string]bool{}
	for _, a := range e.sched.plan.Ambiguities {
		amb[[2]string{a.First, a.Second}] = true
		x.Ambiguities = append(x.Ambiguities, Ambiguity{a, e.cfg.Allowlist[a.ID]})
	}
	for _, b := range e.sched.par {
		for _, pi := range b.preds {
			a := e.sched.par[pi]
			x.Edges = append(x.Edges, Edge{From: a.name, To: b.name, Causes: e.edgeCauses(a, b, amb[[2]string{a.name, b.name}])})
		}
	}
	for seg := 0; seg < e.sched.nseg; seg++ {
		x.Edges = e.syncEdges(x.Edges, seg)
	}
	for _, en := range e.sched.obs {
		s := ExplainSystem{Name: en.name, Stage: "observer", Commands: true, Observes: slices.Clone(en.desc.Observes)}
		x.Observers = append(x.Observers, e.explainAccess(s, en))
	}
	for _, en := range e.sched.par {
		if en.commands && en.seg == e.sched.nseg-1 {
			x.Edges = append(x.Edges, Edge{From: en.name, To: EndOfStep, Causes: []Cause{{Kind: CauseSync,
				Text: fmt.Sprintf("%s records commands; they play back at the end of the step, in (system, query, chunk, sequence) order, before merges", en.name)}}})
		}
	}
	return x
}

// explainSystem describes one system and its declared access.
func (e *Engine) explainSystem(en *entry) ExplainSystem {
	s := ExplainSystem{Name: en.name, Stage: en.stage.String(), Exclusive: en.excl != nil, Commands: en.commands, Sets: en.sets}
	s.Conditions = conditionNames(en.conds, "", nil)
	for _, st := range en.setOf {
		s.Conditions = conditionNames(st.conds, st.name+": ", s.Conditions)
	}
	return e.explainAccess(s, en)
}

// explainAccess adds en's declared access to s. Executed only by the
// owner, in Explain.
func (e *Engine) explainAccess(s ExplainSystem, en *entry) ExplainSystem {
	if en.decl == nil {
		return s
	}
	reg, a := e.world.Registry(), &en.desc.Access
	for _, k := range reached(en, seam.AnyRow, nil) {
		s.Lookups = append(s.Lookups, reg.Name(k))
	}
	for _, k := range reached(en, seam.Emits, nil) {
		s.Emits = append(s.Emits, strings.TrimPrefix(reg.Name(k), "events "))
	}
	for _, k := range reached(en, seam.Reads, nil) {
		s.Events = append(s.Events, strings.TrimPrefix(reg.Name(k), "events "))
	}
	for k := 0; k < reg.Len(); k++ {
		switch a.Mode(safety.Key(k)) {
		case safety.Read:
			s.Reads = append(s.Reads, reg.Name(safety.Key(k)))
		case safety.Write:
			s.Writes = append(s.Writes, reg.Name(safety.Key(k)))
		}
	}
	return s
}

// edgeCauses gives the reasons why a runs before b, its successor in the
// DAG; ambiguous reports that only registration orders them.
func (e *Engine) edgeCauses(a, b *entry, ambiguous bool) []Cause {
	var cs []Cause
	if c, ok := e.sched.why[[2]string{a.name, b.name}]; ok {
		cs = append(cs, c)
	}
	explicit := len(cs) > 0
	cs = append(cs, e.eventCauses(a, b)...)
	why := "stage order"
	switch {
	case explicit:
		why = "explicit order"
	case a.stage == b.stage && ambiguous:
		why = "registration order only: ambiguous"
	case a.stage == b.stage:
		why = "order of other constraints"
	}
	reg := e.world.Registry()
	aa, ba := &a.desc.Access, &b.desc.Access
	al, bl := reached(a, seam.AnyRow, nil), reached(b, seam.AnyRow, nil)
	for _, k := range aa.Conflicts(ba, nil) {
		name := reg.Name(k)
		c := Cause{Kind: CauseConflict, Key: name,
			Text: fmt.Sprintf("%s %s %s%s, %s %s it%s (%s)", a.name, aa.Mode(k), name, throughLookup(al, k), b.name, ba.Mode(k), throughLookup(bl, k), why)}
		if slices.Contains(al, k) || slices.Contains(bl, k) {
			c.Kind = CauseLookup
		}
		cs = append(cs, c)
	}
	if len(b.passes) > 0 && b.passes[0].chain != nil && b.passes[0].chain.sys == a {
		cs = append(cs, Cause{Kind: CauseChunks, Text: fmt.Sprintf(
			"chunk-wise: chunk k of %s waits only for chunk k of %s, in steps where their queries cut the same chunks", b.passes[0].label, b.passes[0].chain.label)})
	}
	return cs
}

// throughLookup says, in a cause's text, that a system reaches key k
// through a lookup, of any entity.
func throughLookup(lookups []safety.Key, k safety.Key) string {
	if slices.Contains(lookups, k) {
		return " through a lookup (any entity)"
	}
	return ""
}

// syncEdges appends segment seg's sync points to edges: exclusives split
// the step, and commands play back at the end of their system's segment.
func (e *Engine) syncEdges(edges []Edge, seg int) []Edge {
	var xs []*entry
	for _, en := range e.sched.excl {
		if en.seg == seg {
			xs = append(xs, en)
		}
	}
	if len(xs) == 0 {
		return edges
	}
	for i := 1; i < len(xs); i++ {
		edges = append(edges, Edge{From: xs[i-1].name, To: xs[i].name, Causes: []Cause{{Kind: CauseSync, Text: "exclusive systems of one stage run in registration order"}}})
	}
	first, last := xs[0], xs[len(xs)-1]
	for _, en := range e.sched.par {
		if en.seg == seg-1 {
			c := Cause{Kind: CauseSync, Text: fmt.Sprintf("%s is exclusive: every job before it finishes first", first.name)}
			if en.commands {
				c.Text += fmt.Sprintf(", and the commands of %s play back", en.name)
			}
			edges = append(edges, Edge{From: en.name, To: first.name, Causes: []Cause{c}})
		}
		if en.seg == seg {
			edges = append(edges, Edge{From: last.name, To: en.name, Causes: []Cause{{Kind: CauseSync, Text: fmt.Sprintf("%s starts after exclusive %s", en.name, last.name)}}})
		}
	}
	return edges
}

// Explain returns the built schedule; nil before Build.
func (e *Engine) Explain() *Explain { return e.sched.explain }

// Diff lists how schedule b differs from a, one line per change: systems
// added (+), removed (-), moved in the order (~), and edges added,
// removed or with other causes.
func Diff(a, b *Explain) []string {
	var out []string
	pos := func(x *Explain) map[string]int {
		m := map[string]int{}
		for i, s := range x.Systems {
			m[s.Name] = i
		}
		return m
	}
	pa, pb := pos(a), pos(b)
	for _, s := range a.Systems {
		if _, ok := pb[s.Name]; !ok {
			out = append(out, "- system "+s.Name)
		}
	}
	for i, s := range b.Systems {
		j, ok := pa[s.Name]
		switch {
		case !ok:
			out = append(out, "+ system "+s.Name)
		case j != i:
			out = append(out, fmt.Sprintf("~ system %s moved from position %d to %d", s.Name, j+1, i+1))
		}
	}
	edges := func(x *Explain) map[string]string {
		m := map[string]string{}
		for _, ed := range x.Edges {
			var cs []string
			for _, c := range ed.Causes {
				cs = append(cs, string(c.Kind)+": "+c.Text)
			}
			m[ed.From+" -> "+ed.To] = strings.Join(cs, "; ")
		}
		return m
	}
	ea, eb := edges(a), edges(b)
	for _, ed := range a.Edges {
		k := ed.From + " -> " + ed.To
		if _, ok := eb[k]; !ok {
			out = append(out, "- edge "+k+" ("+ea[k]+")")
		}
	}
	for _, ed := range b.Edges {
		k := ed.From + " -> " + ed.To
		old, ok := ea[k]
		switch {
		case !ok:
			out = append(out, "+ edge "+k+" ("+eb[k]+")")
		case old != eb[k]:
			out = append(out, "~ edge "+k+": was ("+old+"), now ("+eb[k]+")")
		}
	}
	return out
}
