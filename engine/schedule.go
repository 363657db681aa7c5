package engine

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/weft-engine/weft/safety"
)

// Add registers a system in a stage. Executed only by the owner, before Build.
func (e *Engine) Add(stage Stage, s System, opts ...Option) {
	en := &entry{name: s.Name(), stage: stage, sys: s}
	en.merger, _ = s.(Merger)
	for _, o := range opts {
		o(en)
	}
	e.add(en)
}

// AddExclusive registers an exclusive system, run when stage begins.
// Executed only by the owner, before Build.
func (e *Engine) AddExclusive(stage Stage, s Exclusive, opts ...Option) {
	en := &entry{name: s.Name(), stage: stage, excl: s}
	for _, o := range opts {
		o(en)
	}
	e.add(en)
}

func (e *Engine) add(en *entry) {
	if e.built {
		e.buildErr = append(e.buildErr, errorf(CodeOrder, en.name, nil, "Add(%q) after Build; add every system before Build", en.name))
		return
	}
	if en.stage < 0 || en.stage >= numStages {
		e.buildErr = append(e.buildErr, errorf(CodeBadConfig, en.name, nil, "system %q is added to %v; use PreUpdate, Update, PostUpdate or PreRender", en.name, en.stage))
		return
	}
	e.all = append(e.all, en)
}

func (e *Engine) queryState(q Query) *queryState {
	for _, s := range e.queries {
		if s.q == q {
			return s
		}
	}
	s := &queryState{q: q}
	e.queries = append(e.queries, s)
	return s
}

// Build builds every system, validates the schedule with the safety
// package, and derives the system DAG. Ambiguous pairs (conflicting
// systems of one stage ordered only by registration) fail the build unless
// Config.Allowlist accepts them. Executed only by the owner, once.
func (e *Engine) Build() error {
	if e.built || e.tried {
		return errorf(CodeOrder, "", nil, "Build called twice; build once, then Step (after a failed Build, make a new Engine)")
	}
	e.tried = true
	if err := errors.Join(e.buildErr...); err != nil {
		return err
	}
	// Stage order first, registration order within a stage.
	slices.SortStableFunc(e.all, func(a, b *entry) int { return int(a.stage) - int(b.stage) })
	byName := map[string]*entry{}
	var errs []error
	for _, en := range e.all {
		if _, dup := byName[en.name]; dup {
			errs = append(errs, errorf(CodeSchedule, en.name, nil, "two systems are named %q; give every system a unique name", en.name))
		}
		byName[en.name] = en
		if en.excl != nil {
			if len(en.before)+len(en.after) > 0 {
				errs = append(errs, errorf(CodeStageOrder, en.name, nil, "exclusive system %q has Before/After constraints; exclusive systems run at the start of their stage, in registration order: move it to another stage instead", en.name))
			}
			e.excl = append(e.excl, en)
			continue
		}
		en.decl = e.world.System(en.name)
		b := &Builder{e: e, s: en}
		if err := en.sys.Build(b); err != nil {
			errs = append(errs, errorf(CodeBuild, en.name, err, "system %q: Build failed; fix the system's Build", en.name))
		}
		if err := en.decl.Err(); err != nil {
			errs = append(errs, errorf(CodeBuild, en.name, err, "system %q declared its access wrongly", en.name))
		}
		e.par = append(e.par, en)
	}
	for _, en := range e.par {
		for _, n := range en.before {
			if o := byName[n]; o != nil && o.excl == nil && o.stage < en.stage {
				errs = append(errs, errorf(CodeStageOrder, en.name, nil, "system %q (%v) runs Before %q, which is in the earlier stage %v; drop the constraint or move one of them", en.name, en.stage, n, o.stage))
			}
		}
		for _, n := range en.after {
			if o := byName[n]; o != nil && o.excl == nil && o.stage > en.stage {
				errs = append(errs, errorf(CodeStageOrder, en.name, nil, "system %q (%v) runs After %q, which is in the later stage %v; drop the constraint or move one of them", en.name, en.stage, n, o.stage))
			}
		}
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	plan, err := safety.Check(e.world.Registry(), e.safetySystems())
	if err != nil {
		return errorf(CodeSchedule, "", err, "the schedule does not validate; fix the systems named below")
	}
	if err := plan.NewAmbiguities(e.cfg.Allowlist); err != nil {
		return errorf(CodeAmbiguity, "", err, "conflicting systems of one stage are ordered only by registration; add Before/After, or accept each ID in Config.Allowlist")
	}
	// The plan's indices are positions in e.par; from here on e.par is in
	// built order, and each system keeps the plan's predecessors.
	order := make([]*entry, len(plan.Order))
	for i, k := range plan.Order {
		order[i] = e.par[k]
		order[i].index = i
		order[i].decl.SetOrder(i)
	}
	for i, k := range plan.Order {
		for _, pk := range plan.Preds[k] {
			order[i].preds = append(order[i].preds, e.par[pk].index)
		}
	}
	e.par = order
	e.plan = plan
	for _, b := range e.par {
		for _, p := range b.passes {
			if p.q != nil && !slices.Contains(b.queries, p.q) {
				b.queries = append(b.queries, p.q)
			}
		}
	}
	e.segments()
	if e.cfg.ChainChunks {
		e.chains()
	}
	e.explain = e.buildExplain()
	e.labels = map[string]*Pass{}
	for _, en := range e.par {
		for _, p := range en.passes {
			e.labels[p.label] = p
		}
	}
	e.built = true
	e.timings.init(e)
	return nil
}

// safetySystems is the input of safety.Check, in e.par's order.
func (e *Engine) safetySystems() []safety.System {
	out := make([]safety.System, len(e.par))
	for i, en := range e.par {
		out[i] = safety.System{Name: en.name, Decls: en.decl.Decls(), Stage: int(en.stage), Before: en.before, After: en.after}
	}
	return out
}

// chains finds the passes that may run chunk-wise after another: the first
// pass of a system B over a query, after the last pass of a predecessor A
// over a query, where A and B conflict, and only on components that both
// queries have as columns, so that chunk k of either touches only chunk
// k's rows. Order is about data (ARCHITECTURE (h)), so an explicit After
// is met row by row too. Whether the two queries cut the same chunks is
// checked each step.
func (e *Engine) chains() {
	var ca, cb, keys []safety.Key
	for _, b := range e.par {
		if len(b.passes) == 0 || b.passes[0].q == nil {
			continue
		}
		first := b.passes[0]
		cb = first.q.q.Columns(cb[:0])
		for _, pi := range b.preds {
			a := e.par[pi]
			if a.seg != b.seg || len(a.passes) == 0 || e.waitsAnyway(b, a) {
				continue
			}
			last := a.passes[len(a.passes)-1]
			if last.q == nil {
				continue
			}
			ca = last.q.q.Columns(ca[:0])
			keys = a.decl.Access().Conflicts(b.decl.Access(), keys[:0])
			rowWise := len(keys) > 0
			for _, k := range keys {
				rowWise = rowWise && slices.Contains(ca, k) && slices.Contains(cb, k)
			}
			if rowWise {
				first.chain, last.group = last, true
				break
			}
		}
	}
}

// waitsAnyway reports whether another predecessor of b comes after all of
// a, so that b waits for the whole of a anyway and chaining would only
// cost jobs.
func (e *Engine) waitsAnyway(b, a *entry) bool {
	seen := make([]bool, len(e.par))
	stack := []int{}
	for _, pi := range b.preds {
		if e.par[pi] != a {
			stack = append(stack, pi)
		}
	}
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if e.par[i] == a {
			return true
		}
		if seen[i] {
			continue
		}
		seen[i] = true
		stack = append(stack, e.par[i].preds...)
	}
	return false
}

// segments splits the step at the stages that have exclusive systems.
func (e *Engine) segments() {
	var boundary [numStages]bool
	for _, x := range e.excl {
		boundary[x.stage] = true
	}
	seg := func(s Stage) int {
		n := 0
		for st := Stage(0); st <= s; st++ {
			if boundary[st] {
				n++
			}
		}
		return n
	}
	for _, en := range e.par {
		en.seg = seg(en.stage)
	}
	for _, x := range e.excl {
		x.seg = seg(x.stage)
	}
	e.nseg = seg(numStages-1) + 1
}

// Enable switches a system on or off from the next step on. Executed only
// by the owner, between steps.
func (e *Engine) Enable(name string, on bool) error {
	for _, en := range e.all {
		if en.name == name {
			en.disabled = !on
			return nil
		}
	}
	return errorf(CodeUnknown, name, nil, "Enable(%q): no system has that name; use a name that Explain lists", name)
}

// Explain is the built schedule as data: systems in execution order and
// every edge of the system DAG with its causes.
type Explain struct {
	Systems     []ExplainSystem `json:"systems"`
	Edges       []Edge          `json:"edges"`
	Ambiguities []Ambiguity     `json:"ambiguities"`
}

// ExplainSystem is one system of an Explain.
type ExplainSystem struct {
	Name      string   `json:"name"`
	Stage     string   `json:"stage"`
	Exclusive bool     `json:"exclusive,omitempty"`
	Commands  bool     `json:"commands,omitempty"`
	Reads     []string `json:"reads,omitempty"`
	Writes    []string `json:"writes,omitempty"`
}

// Edge is one edge of the system DAG: From runs before To, for Causes.
type Edge struct {
	From   string  `json:"from"`
	To     string  `json:"to"`
	Causes []Cause `json:"causes"`
}

// Cause is one reason for an edge.
type Cause struct {
	Kind string `json:"kind"` // "order", "conflict", "sync", "chunks"
	Key  string `json:"key,omitempty"`
	Text string `json:"text"`
}

// Ambiguity is a conflicting pair ordered only by registration.
type Ambiguity struct {
	safety.Ambiguity
	Allowed bool `json:"allowed"`
}

// EndOfStep names the pseudo-node of Explain where the last commands play back.
const EndOfStep = "(end of step)"

func (e *Engine) buildExplain() *Explain {
	x := &Explain{}
	reg := e.world.Registry()
	emit := func(en *entry) {
		s := ExplainSystem{Name: en.name, Stage: en.stage.String(), Exclusive: en.excl != nil, Commands: en.commands}
		if en.decl != nil {
			a := en.decl.Access()
			for k := 0; k < reg.Len(); k++ {
				switch a.Mode(safety.Key(k)) {
				case safety.Read:
					s.Reads = append(s.Reads, reg.Name(safety.Key(k)))
				case safety.Write:
					s.Writes = append(s.Writes, reg.Name(safety.Key(k)))
				}
			}
		}
		x.Systems = append(x.Systems, s)
	}
	// Execution order: per segment, its exclusives, then its systems.
	for seg := 0; seg < e.nseg; seg++ {
		for _, en := range e.excl {
			if en.seg == seg {
				emit(en)
			}
		}
		for _, en := range e.par {
			if en.seg == seg {
				emit(en)
			}
		}
	}
	amb := map[[2]string]bool{}
	for _, a := range e.plan.Ambiguities {
		amb[[2]string{a.First, a.Second}] = true
		x.Ambiguities = append(x.Ambiguities, Ambiguity{a, e.cfg.Allowlist[a.ID]})
	}
	for _, b := range e.par {
		for _, pi := range b.preds {
			a := e.par[pi]
			ed := Edge{From: a.name, To: b.name}
			if slices.Contains(b.after, a.name) {
				ed.Causes = append(ed.Causes, Cause{Kind: "order", Text: fmt.Sprintf("%s is After %s", b.name, a.name)})
			} else if slices.Contains(a.before, b.name) {
				ed.Causes = append(ed.Causes, Cause{Kind: "order", Text: fmt.Sprintf("%s is Before %s", a.name, b.name)})
			}
			aa, ba := a.decl.Access(), b.decl.Access()
			for _, k := range aa.Conflicts(ba, nil) {
				ma, mb := aa.Mode(k), ba.Mode(k)
				why := "stage order"
				switch {
				case len(ed.Causes) > 0 && ed.Causes[0].Kind == "order":
					why = "explicit order"
				case a.stage == b.stage && amb[[2]string{a.name, b.name}]:
					why = "registration order only: ambiguous"
				case a.stage == b.stage:
					why = "order of other constraints"
				}
				name := reg.Name(k)
				ed.Causes = append(ed.Causes, Cause{Kind: "conflict", Key: name,
					Text: fmt.Sprintf("%s %s %s, %s %s it (%s)", a.name, ma, name, b.name, mb, why)})
			}
			if len(b.passes) > 0 && b.passes[0].chain != nil && b.passes[0].chain.sys == a {
				ed.Causes = append(ed.Causes, Cause{Kind: "chunks", Text: fmt.Sprintf(
					"chunk-wise: chunk k of %s waits only for chunk k of %s, in steps where their queries cut the same chunks", b.passes[0].label, b.passes[0].chain.label)})
			}
			x.Edges = append(x.Edges, ed)
		}
	}
	// Sync points: exclusives split the step; commands play back at the
	// end of their system's segment.
	for seg := 0; seg < e.nseg; seg++ {
		var xs []*entry
		for _, en := range e.excl {
			if en.seg == seg {
				xs = append(xs, en)
			}
		}
		for i := 1; i < len(xs); i++ {
			x.Edges = append(x.Edges, Edge{From: xs[i-1].name, To: xs[i].name, Causes: []Cause{{Kind: "sync", Text: "exclusive systems of one stage run in registration order"}}})
		}
		if len(xs) > 0 {
			for _, en := range e.par {
				if en.seg == seg-1 {
					c := Cause{Kind: "sync", Text: fmt.Sprintf("%s is exclusive: every job before it finishes first", xs[0].name)}
					if en.commands {
						c.Text += fmt.Sprintf(", and the commands of %s play back", en.name)
					}
					x.Edges = append(x.Edges, Edge{From: en.name, To: xs[0].name, Causes: []Cause{c}})
				}
				if en.seg == seg {
					x.Edges = append(x.Edges, Edge{From: xs[len(xs)-1].name, To: en.name, Causes: []Cause{{Kind: "sync", Text: fmt.Sprintf("%s starts after exclusive %s", en.name, xs[len(xs)-1].name)}}})
				}
			}
		}
	}
	for _, en := range e.par {
		if en.commands && en.seg == e.nseg-1 {
			x.Edges = append(x.Edges, Edge{From: en.name, To: EndOfStep, Causes: []Cause{{Kind: "sync",
				Text: fmt.Sprintf("%s records commands; they play back at the end of the step, in (system, chunk, sequence) order, before merges", en.name)}}})
		}
	}
	return x
}

// Explain returns the built schedule; nil before Build.
func (e *Engine) Explain() *Explain { return e.explain }

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
				parts = append(parts, c.Kind+" "+c.Key)
			} else {
				parts = append(parts, c.Kind)
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
				cs = append(cs, c.Kind+": "+c.Text)
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
