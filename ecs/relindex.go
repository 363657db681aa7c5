package ecs

import (
	"cmp"
	"reflect"
	"slices"

	ark "github.com/mlange-42/ark/ecs"
)

// The world's index of each relation kind: the children of every target,
// sorted by entity (id, then generation), and the number of links at each
// depth. Links live in the entities' columns (relation.go); the index is
// derived from them, kept up to date by every change weft makes, and
// rebuilt from the columns after a Restore or Load. The order of children
// is their entities', not the order in which they were linked, so a
// despawn cascades the same way after a restore as the first time.

// relKind is one declared relation kind.
type relKind struct {
	rel      reflect.Type // R
	name     string
	id       ark.ID // Link[R]
	policy   Policy
	children map[Entity][]Entity // by target, sorted by entityKey
	depths   []int               // links by depth (index 0 unused)
}

// maxDepth is the deepest link of the kind (0 without links). Any
// goroutine, while no playback runs.
func (rk *relKind) maxDepth() int {
	for d := len(rk.depths) - 1; d > 0; d-- {
		if rk.depths[d] > 0 {
			return d
		}
	}
	return 0
}

func (rk *relKind) count(d int32, n int) {
	for int(d) >= len(rk.depths) {
		rk.depths = append(rk.depths, 0)
	}
	rk.depths[d] += n
}

func byEntity(a, b Entity) int { return cmp.Compare(entityKey(a), entityKey(b)) }

func (rk *relKind) addChild(t, e Entity) {
	kids := rk.children[t]
	i, _ := slices.BinarySearchFunc(kids, e, byEntity)
	rk.children[t] = slices.Insert(kids, i, e)
}

func (rk *relKind) dropChild(t, e Entity) {
	kids := rk.children[t]
	if i, ok := slices.BinarySearchFunc(kids, e, byEntity); ok {
		kids = slices.Delete(kids, i, i+1)
	}
	if len(kids) == 0 {
		delete(rk.children, t)
	} else {
		rk.children[t] = kids
	}
}

// relate links e (alive) to target (alive) under rk, or says why not (a
// cycle). Executed only by the owner, with the world unlocked: in
// playback or outside of frames.
func (w *World) relate(rk *relKind, e, target Entity) string {
	for up := target; ; {
		if up == e {
			return "the target is the entity itself or one of its descendants, which would make a cycle; link a child to an entity outside its own subtree"
		}
		l := w.link(rk, up)
		if l == nil {
			break
		}
		up = l.target
	}
	added := false
	if l := w.link(rk, e); l != nil {
		rk.dropChild(l.target, e)
		rk.count(l.depth, -1)
	} else {
		w.ids = append(w.ids[:0], rk.id)
		w.unsafe.Add(e, w.ids...)
		added = true
	}
	l := w.link(rk, e)
	l.target = target
	l.depth = 0
	if tl := w.link(rk, target); tl != nil {
		l.depth = tl.depth
	}
	l.depth++
	rk.count(l.depth, 1)
	rk.addChild(target, e)
	w.redepth(rk, e, l.depth)
	w.touch(e, rk.id, added)
	return ""
}

// unrelate removes e's link of rk, if it has one; e's children stay its
// children, one level higher. Executed only by the owner, with the world
// unlocked.
func (w *World) unrelate(rk *relKind, e Entity) bool {
	l := w.link(rk, e)
	if l == nil {
		return false
	}
	rk.dropChild(l.target, e)
	rk.count(l.depth, -1)
	w.ids = append(w.ids[:0], rk.id)
	w.unsafe.Remove(e, w.ids...)
	w.redepth(rk, e, 0)
	return true
}

// redepth sets the depths of e's descendants below e's depth d.
// Executed only by the owner, with the world unlocked.
func (w *World) redepth(rk *relKind, e Entity, d int32) {
	for _, k := range rk.children[e] {
		l := w.link(rk, k)
		if l.depth == d+1 {
			continue // so is its subtree
		}
		rk.count(l.depth, -1)
		l.depth = d + 1
		rk.count(l.depth, 1)
		w.touch(k, rk.id, false)
		w.redepth(rk, k, d+1)
	}
}

// unlinkDead takes e, about to be despawned, out of the index of every
// kind it is a child in. Executed only by the owner, in despawnTree.
func (w *World) unlinkDead(e Entity) {
	for _, rk := range w.rels {
		if l := w.link(rk, e); l != nil {
			rk.dropChild(l.target, e)
			rk.count(l.depth, -1)
		}
	}
}

// rebuildRelations derives every kind's index from the link columns.
// Executed only by the owner, at the end of Restore (and so of Load).
func (w *World) rebuildRelations() {
	for _, rk := range w.rels {
		clear(rk.children)
		clear(rk.depths)
		q := ark.NewUnsafeFilter(w.ark, rk.id).Query()
		for q.Next() {
			l := w.link(rk, q.Entity())
			rk.children[l.target] = append(rk.children[l.target], q.Entity())
			rk.count(l.depth, 1)
		}
		for _, kids := range rk.children {
			slices.SortFunc(kids, byEntity)
		}
	}
}
