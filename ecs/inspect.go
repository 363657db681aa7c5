package ecs

import (
	"cmp"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/weft-engine/weft/safety"
)

// Inspection is what one entity is, as plain data for a tool (the
// overlay's inspector, a headless report): its components with their
// values, its relations, and the systems whose declared access reaches
// it.
type Inspection struct {
	Entity     Entity
	Components []ComponentValue // in the order of the entity's table; a relation's link (Link[R]) is in Relations instead
	Relations  []RelationValue  // by relation kind, in the order declared; kinds it takes no part in are left out
	Systems    []SystemTouch    // in playback order (the engine's built order)
}

// RelationValue is an inspected entity's part in one relation kind: its
// target (the zero entity if it has none) and its link's depth, and the
// entities whose target it is, in the order of their ids.
type RelationValue struct {
	Kind     string
	Target   Entity
	Depth    int
	Children []Entity
}

// ComponentValue is one component of an inspected entity, its value
// formatted with %+v; Off marks an enableable component switched off
// (enable.go): its value is kept, and passes that visit rows through
// Each, On or Runs skip it, but its column still has the row, so a pass
// that ranges over the column visits it.
type ComponentValue struct {
	Name, Value string
	Off         bool
}

// SystemTouch is a system that reads or writes components of an
// inspected entity: through a query that matches the entity (its
// required columns and With filters are among the entity's components,
// none of its Without ones), or through a lookup of a component the
// entity has, marked "(lookup)": a lookup may reach any entity.
type SystemTouch struct {
	System        string
	Reads, Writes []string // component names
	// Last is how the system took part in the last step ("ran",
	// "skipped", "disabled", ...) where an engine fills it in
	// (engine.Engine.Inspect); empty otherwise.
	Last string
}

// Inspect describes e: its components with their values, read through
// reflection on the registered column types, and the systems whose
// declared access reaches it. It answers ErrNotFound for an entity that
// is not alive, ErrUnresolved for a Spawn placeholder and ErrLocked
// during a frame. Executed only by the owner, outside of frames.
func (w *World) Inspect(e Entity) (Inspection, error) {
	switch {
	case w.inFrame:
		return Inspection{}, w.lockedErr("World.Inspect")
	case w.observing != nil:
		return Inspection{}, w.observerReach("World.Inspect")
	case isPlaceholder(e):
		return Inspection{}, errorf(ErrUnresolved, "", "", "World.Inspect of %v, a Spawn placeholder: its buffer has not played yet; inspect it after the playback", e)
	case !w.ark.Alive(e):
		return Inspection{}, errorf(ErrNotFound, "", "", "World.Inspect of entity %v, which is not alive (despawned, or never spawned)", e)
	}
	in := Inspection{Entity: e}
	has := w.inspectComponents(e, &in)
	for _, rk := range w.rels {
		r := RelationValue{Kind: rk.name, Children: slices.Clone(rk.children[e])}
		if l := w.link(rk, e); l != nil {
			r.Target, r.Depth = l.target, int(l.depth)
		}
		if r.Target != (Entity{}) || len(r.Children) > 0 {
			in.Relations = append(in.Relations, r)
		}
	}
	for _, d := range w.builtOrder() {
		if t := w.reach(d, has); len(t.Reads)+len(t.Writes) > 0 {
			in.Systems = append(in.Systems, t)
		}
	}
	return in, nil
}

// inspectComponents fills in.Components with e's components, but for
// relation links, which Inspect lists as relations, and returns which
// components e has. Executed only by the owner, in Inspect.
func (w *World) inspectComponents(e Entity, in *Inspection) *[256]bool {
	ids := w.unsafe.IDs(e)
	var has [256]bool
	for i := 0; i < ids.Len(); i++ {
		id := ids.Get(i)
		has[id.Index()] = true
		if w.relByID[id.Index()] != nil {
			continue
		}
		v := "?" // a type Ark registered without weft (none today)
		if t := w.types[id.Index()]; t != nil {
			v = fmt.Sprintf("%+v", reflect.NewAt(t, w.unsafe.GetUnchecked(e, id)).Elem().Interface())
		}
		b := w.enabled[id.Index()]
		in.Components = append(in.Components, ComponentValue{Name: w.names[id.Index()], Value: v, Off: b != nil && !b.on(e.ID())})
	}
	return &has
}

// reach is what d's declared access reaches of an entity whose
// components are has. Executed only by the owner.
func (w *World) reach(d *Decl, has *[256]bool) SystemTouch {
	t := SystemTouch{System: d.name}
	add := func(u *use, suffix string) {
		name := w.names[u.id.Index()] + suffix
		list := &t.Reads
		if u.mode == safety.Write {
			list = &t.Writes
		}
		if !slices.Contains(*list, name) {
			*list = append(*list, name)
		}
	}
	for _, q := range w.allQueries {
		if q.d != d || !w.matches(q, has) {
			continue
		}
		for _, c := range q.cols {
			if has[c.id.Index()] {
				add(c, "")
			}
		}
	}
	for _, u := range d.uses {
		if (u.kind == kindReadLookup || u.kind == kindWriteLookup) && has[u.id.Index()] {
			add(u, " (lookup)")
		}
		if u.kind == kindWriteRelation && has[u.id.Index()] {
			add(u, " (commands)")
		}
	}
	return t
}

// matches reports whether q's tables include an entity whose components
// are has.
func (w *World) matches(q *queryBase, has *[256]bool) bool {
	for _, c := range q.cols[:q.nreq] {
		if !has[c.id.Index()] {
			return false
		}
	}
	for _, t := range q.with {
		if c, ok := w.comps[t]; !ok || !has[c.id.Index()] {
			return false
		}
	}
	for _, t := range q.without {
		if c, ok := w.comps[t]; ok && has[c.id.Index()] {
			return false
		}
	}
	return true
}

// Lines is the inspection as text, one line per component and system,
// for the overlay's panel and headless reports alike.
func (in Inspection) Lines() []string {
	lines := []string{fmt.Sprintf("entity %d (generation %d)", in.Entity.ID(), in.Entity.Gen())}
	for _, c := range in.Components {
		off := ""
		if c.Off {
			off = " (off)"
		}
		lines = append(lines, fmt.Sprintf("  %s %s%s", c.Name, c.Value, off))
	}
	for _, r := range in.Relations {
		if r.Target != (Entity{}) {
			lines = append(lines, fmt.Sprintf("  %s target: entity %d (generation %d), depth %d", r.Kind, r.Target.ID(), r.Target.Gen(), r.Depth))
		}
		if len(r.Children) > 0 {
			ids := make([]string, len(r.Children))
			for i, c := range r.Children {
				ids[i] = fmt.Sprint(c.ID())
			}
			lines = append(lines, fmt.Sprintf("  %s children: %s", r.Kind, strings.Join(ids, ", ")))
		}
	}
	if len(in.Systems) == 0 {
		return append(lines, "no system reads or writes it")
	}
	lines = append(lines, "systems that read or write it:")
	for _, s := range in.Systems {
		var parts []string
		if len(s.Writes) > 0 {
			parts = append(parts, "writes "+strings.Join(s.Writes, ", "))
		}
		if len(s.Reads) > 0 {
			parts = append(parts, "reads "+strings.Join(s.Reads, ", "))
		}
		if s.Last != "" && s.Last != "ran" {
			parts = append(parts, s.Last+" in the last step")
		}
		lines = append(lines, "  "+s.System+": "+strings.Join(parts, "; "))
	}
	return lines
}

// Matching appends to dst the living entities that the queries of the
// named system match, in the order of their ids and generations, and
// returns it: what an inspector steps through, one entity after another.
// A name that no system has answers ErrBadArgument, and ErrLocked
// during a frame. Executed only by the owner, outside of frames.
func (w *World) Matching(system string, dst []Entity) ([]Entity, error) {
	if w.inFrame {
		return dst, w.lockedErr("World.Matching")
	}
	if w.observing != nil {
		return dst, w.observerReach("World.Matching")
	}
	i := slices.IndexFunc(w.decls, func(d *Decl) bool { return d.name == system })
	if i < 0 {
		return dst, errorf(ErrBadArgument, system, "", "World.Matching(%q): no system has that name; give a name that QuerySystems lists", system)
	}
	d, from := w.decls[i], len(dst)
	q := w.all.Query()
	for q.NextTable() {
		ents := q.Entities()
		var has [256]bool
		ids := w.unsafe.IDs(ents[0])
		for k := range ids.Len() {
			has[ids.Get(k).Index()] = true
		}
		for _, qb := range w.allQueries {
			if qb.d == d && w.matches(qb, &has) {
				dst = append(dst, ents...)
				break
			}
		}
	}
	slices.SortFunc(dst[from:], func(a, b Entity) int { return cmp.Compare(entityKey(a), entityKey(b)) })
	return dst, nil
}

// QuerySystems is the names of the systems that have a query, in built
// order: those whose matches Matching gives. Executed only by the owner.
func (w *World) QuerySystems() []string {
	var names []string
	for _, d := range w.builtOrder() {
		if slices.ContainsFunc(w.allQueries, func(q *queryBase) bool { return q.d == d }) {
			names = append(names, d.name)
		}
	}
	return names
}

// builtOrder is the systems' declarations in the engine's built order.
func (w *World) builtOrder() []*Decl {
	decls := slices.Clone(w.decls)
	slices.SortStableFunc(decls, func(a, b *Decl) int { return cmp.Compare(a.order, b.order) })
	return decls
}

// observerReach is the refusal of an owner call that reads the whole
// world (what) from an observer, which reads only what it declared.
// Executed only by the owner, while playback calls an observer.
func (w *World) observerReach(what string) error {
	return errorf(ErrUndeclared, w.observing.name, "", "observer %q called %s, which reads every component of the world, more than the observer declared; read through the tokens it declares (ecs.ReadLookup, ecs.ReadRelation), or inspect between steps", w.observing.name, what)
}
