package safety

import (
	"errors"
	"fmt"
	"hash/fnv"
	"slices"
	"strconv"
	"strings"
)

// System is what Check needs to know of a system: its name, its declared
// access, its stage and its explicit ordering constraints (names of other
// systems). Systems of a lower stage run first; the stage orders them, so
// a conflict across stages is never ambiguous and needs no constraint.
type System struct {
	Name          string
	Decls         []Decl
	Stage         int
	Before, After []string
}

// Plan is the validated schedule of a set of systems. Indices are
// positions in the slice given to Check.
type Plan struct {
	Order       []int    // execution order: stage, then explicit constraints, then registration order
	Access      []Access // each system's declarations, united
	Preds       [][]int  // each system's direct predecessors, in Order: constraints and conflicts with earlier systems
	Ambiguities []Ambiguity
}

// Ambiguity is a pair of conflicting systems whose order comes only from
// registration order. ID is stable: it depends on the two names and the
// key, not on their order or on other systems.
type Ambiguity struct {
	ID     string
	First  string // the system that runs first
	Second string
	Key    string // the lowest key they conflict on
}

// Check validates systems against reg and derives their order. It returns
// every problem found, joined: conflicting declarations inside a system
// (ErrConflictingDecl), unknown keys (ErrUnknownKey), unknown or
// duplicate system names (ErrUnknownSystem) and cycles in Before/After,
// or constraints against the stage order (ErrCycle). Executed only by the
// owner, at build time.
func Check(reg *Registry, systems []System) (*Plan, error) {
	n := len(systems)
	var errs []error
	index := make(map[string]int, n)
	for i, s := range systems {
		if j, dup := index[s.Name]; dup {
			errs = append(errs, errorf(ErrUnknownSystem, "systems %d and %d are both named %q; give every system a unique name", j, i, s.Name))
			continue
		}
		index[s.Name] = i
	}
	p := &Plan{Access: make([]Access, n), Preds: make([][]int, n)}
	for i, s := range systems {
		errs = declare(reg, s, &p.Access[i], errs)
	}
	succ := make([][]int, n) // explicit edges
	errs = constrain(systems, index, succ, p.Preds, errs)
	order, cyc := topo(systems, succ, p.Preds)
	if cyc != nil {
		names := make([]string, len(cyc))
		for i, c := range cyc {
			names[i] = systems[c].Name
		}
		errs = append(errs, &Error{Code: ErrCycle, Detail: Detail{Cycle: names},
			Msg: "the Before/After constraints form a cycle: " + quoteJoin(names, " → ") + "; remove one of these constraints"})
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	p.Order = order
	p.derive(reg, systems, closure(order, succ))
	return p, nil
}

// constrain turns the systems' Before/After into explicit edges, in succ
// and preds, and appends to errs the names that are unknown and the
// constraints against the stage order.
func constrain(systems []System, index map[string]int, succ, preds [][]int, errs []error) []error {
	edge := func(from, to int) {
		succ[from] = append(succ[from], to)
		preds[to] = append(preds[to], from)
	}
	against := func(first, then int) {
		errs = append(errs, &Error{Code: ErrCycle, Detail: Detail{Cycle: []string{systems[first].Name, systems[then].Name, systems[first].Name}},
			Msg: fmt.Sprintf("system %q (stage %d) must run before %q (stage %d), against the stage order; drop the constraint or move one of them to another stage",
				systems[first].Name, systems[first].Stage, systems[then].Name, systems[then].Stage)})
	}
	for i, s := range systems {
		for _, name := range s.Before {
			if j, ok := index[name]; ok && s.Stage > systems[j].Stage {
				against(i, j)
			} else if ok {
				edge(i, j)
			} else {
				errs = append(errs, errorf(ErrUnknownSystem, "system %q runs Before %q, which is not a system of this schedule; fix the name or add the system", s.Name, name))
			}
		}
		for _, name := range s.After {
			if j, ok := index[name]; ok && systems[j].Stage > s.Stage {
				against(j, i)
			} else if ok {
				edge(j, i)
			} else {
				errs = append(errs, errorf(ErrUnknownSystem, "system %q runs After %q, which is not a system of this schedule; fix the name or add the system", s.Name, name))
			}
		}
	}
	return errs
}

// derive replaces each system's explicit predecessors with every earlier
// system, in p.Order, that it conflicts with or is explicitly after, and
// records the conflicting pairs of one stage that reach ordering only
// through registration (reach is the explicit edges' closure).
func (p *Plan) derive(reg *Registry, systems []System, reach []row) {
	for qi, b := range p.Order {
		explicit := p.Preds[b]
		p.Preds[b] = nil
		for _, a := range p.Order[:qi] {
			k, ok := p.Access[a].Conflict(&p.Access[b])
			if ok && !reach[a].has(b) && systems[a].Stage == systems[b].Stage {
				p.Ambiguities = append(p.Ambiguities, ambiguity(systems[a].Name, systems[b].Name, reg.Name(k)))
			}
			if ok || slices.Contains(explicit, a) {
				p.Preds[b] = append(p.Preds[b], a)
			}
		}
	}
}

// declare unites s's declarations into a, reporting unknown keys and keys
// declared twice where at least one declaration writes (Bevy's B0001).
func declare(reg *Registry, s System, a *Access, errs []error) []error {
	for _, d := range s.Decls {
		if !reg.known(d.Key) {
			errs = append(errs, errorf(ErrUnknownKey, "system %q declares %s, which the Registry does not know; register the component or resource type before declaring access to it", s.Name, reg.Name(d.Key)))
			continue
		}
		if old := a.Mode(d.Key); old != None && (old == Write || d.Mode == Write) {
			name := reg.Name(d.Key)
			errs = append(errs, errorf(ErrConflictingDecl, "system %q declares %s twice (it %s it and %s it); declare it once, as a write if the system writes it (a lookup counts too: a system that looks it up and writes it declares only ecs.WriteLookup)", s.Name, name, old, d.Mode))
		}
		a.Add(d.Key, d.Mode)
	}
	return errs
}

// topo orders the graph by Kahn's algorithm, taking among the ready
// systems the one of the lowest stage, then of the lowest index, so that
// stages run in order and registration order breaks ties. On a cycle it
// returns one, first node repeated last.
func topo(systems []System, succ, preds [][]int) ([]int, []int) {
	n := len(succ)
	indeg := make([]int, n)
	for i := range preds {
		indeg[i] = len(preds[i])
	}
	order := make([]int, 0, n)
	done := make([]bool, n)
	for len(order) < n {
		next := -1
		for i := range n {
			if !done[i] && indeg[i] == 0 && (next < 0 || systems[i].Stage < systems[next].Stage) {
				next = i
			}
		}
		if next < 0 {
			return nil, findCycle(preds, done)
		}
		done[next] = true
		order = append(order, next)
		for _, s := range succ[next] {
			indeg[s]--
		}
	}
	return order, nil
}

// findCycle walks backwards from an unsorted node: each one has an
// unsorted predecessor, so a node repeats; the walk reversed is a cycle in
// constraint order, first node repeated last.
func findCycle(preds [][]int, done []bool) []int {
	v := 0
	for done[v] {
		v++
	}
	pos := map[int]int{}
	var back []int
	for {
		if at, seen := pos[v]; seen {
			back = append(back[at:], v)
			slices.Reverse(back)
			return back
		}
		pos[v] = len(back)
		back = append(back, v)
		for _, u := range preds[v] {
			if !done[u] {
				v = u
				break
			}
		}
	}
}

type row []uint64

func (r row) has(i int) bool { return r[i>>6]&(1<<(i&63)) != 0 }

// closure is the transitive closure of the explicit edges, visited in
// reverse topological order.
func closure(order []int, succ [][]int) []row {
	n := len(order)
	reach := make([]row, n)
	for i := range reach {
		reach[i] = make(row, (n+63)/64)
	}
	for i := n - 1; i >= 0; i-- {
		v := order[i]
		for _, s := range succ[v] {
			reach[v][s>>6] |= 1 << (s & 63)
			for w := range reach[v] {
				reach[v][w] |= reach[s][w]
			}
		}
	}
	return reach
}

func ambiguity(first, second, key string) Ambiguity {
	a, b := first, second
	if b < a {
		a, b = b, a
	}
	h := fnv.New32a()
	h.Write([]byte(a + "\x00" + b + "\x00" + key))
	return Ambiguity{ID: fmt.Sprintf("A%08x", h.Sum32()), First: first, Second: second, Key: key}
}

func quoteJoin(s []string, sep string) string {
	q := make([]string, len(s))
	for i, x := range s {
		q[i] = strconv.Quote(x)
	}
	return strings.Join(q, sep)
}
