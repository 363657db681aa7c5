package ecs

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// follows is a relation kind of the tests whose children are detached.
type follows struct{}

// family spawns a tree under ChildOf: root, a and b its children, a1 and
// a2 a's, a1x a1's; and f, which follows a.
type family struct {
	w                                *World
	root, a, b, a1, a2, a1x, f, lone Entity
}

func newFamily(t *testing.T) *family {
	w := NewWorld(Options{})
	require.NoError(t, NewRelation[follows](w, Detach))
	pc := NewComponent[pos](w)
	fm := &family{w: w}
	ents := make([]Entity, 8)
	b := w.NewCommands()
	for i := range ents {
		pc.Add(b, b.Spawn(), pos{X: float64(i)})
	}
	_, err := w.Apply(b)
	require.NoError(t, err)
	i := 0
	all, err := w.Entities()
	require.NoError(t, err)
	for e := range all {
		ents[i] = e
		i++
	}
	fm.root, fm.a, fm.b, fm.a1, fm.a2, fm.a1x, fm.f, fm.lone = ents[0], ents[1], ents[2], ents[3], ents[4], ents[5], ents[6], ents[7]
	for _, l := range [][2]Entity{{fm.a, fm.root}, {fm.b, fm.root}, {fm.a1, fm.a}, {fm.a2, fm.a}, {fm.a1x, fm.a1}} {
		require.NoError(t, SetTarget[ChildOf](w, l[0], l[1]))
	}
	require.NoError(t, SetTarget[follows](w, fm.f, fm.a))
	return fm
}

func depthOf(t *testing.T, w *World, e Entity) int {
	l, err := Get[Link[ChildOf]](w, e)
	require.NoError(t, err)
	return l.Depth()
}

// Links keep their targets and depths, and each target its children in
// the order of their entities, through re-parenting.
func TestRelationDepthsAndChildren(t *testing.T) {
	fm := newFamily(t)
	w := fm.w
	require.Equal(t, 1, depthOf(t, w, fm.a))
	require.Equal(t, 3, depthOf(t, w, fm.a1x))
	kids, err := ChildrenOf[ChildOf](w, fm.a, nil)
	require.NoError(t, err)
	require.Equal(t, []Entity{fm.a1, fm.a2}, kids)
	require.NoError(t, SetTarget[ChildOf](w, fm.a1, fm.b)) // a1 moves, with its child
	require.Equal(t, 2, depthOf(t, w, fm.a1))
	require.NoError(t, SetTarget[ChildOf](w, fm.b, fm.a2)) // b goes under a2: a1x is now at depth 5
	require.Equal(t, 5, depthOf(t, w, fm.a1x))
	require.Equal(t, 5, relation[ChildOf](w).maxDepth())
	require.NoError(t, RemoveTarget[ChildOf](w, fm.b)) // b is a root again
	require.Equal(t, 2, depthOf(t, w, fm.a1x))
	tg, ok, err := TargetOf[ChildOf](w, fm.a1x)
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, fm.a1, tg)
}

// A target that is the entity or one of its descendants is refused: a
// hierarchy has no cycles.
func TestRelationCycleRefused(t *testing.T) {
	fm := newFamily(t)
	w := fm.w
	err := SetTarget[ChildOf](w, fm.a, fm.a1x)
	require.ErrorIs(t, err, ErrBadArgument)
	require.ErrorIs(t, SetTarget[ChildOf](w, fm.a, fm.a), ErrBadArgument)
	b := w.NewCommands()
	rw := WriteRelation[ChildOf](w.System("w"))
	rw.Set(b, fm.root, fm.a2)
	r, err := w.Apply(b)
	require.NoError(t, err)
	require.Len(t, r.Problems, 1)
	require.Equal(t, ErrBadCommand, r.Problems[0].Code)
	_, ok, _ := TargetOf[ChildOf](w, fm.root)
	require.False(t, ok)
}

// Despawning a parent at playback despawns its subtree (ChildOf) and
// detaches the followers (Detach): nothing points at a dead entity.
func TestDespawnTree(t *testing.T) {
	fm := newFamily(t)
	w := fm.w
	b := w.NewCommands()
	b.Despawn(fm.a)
	r, err := w.Apply(b)
	require.NoError(t, err)
	require.Empty(t, r.Problems)
	for _, e := range []Entity{fm.a, fm.a1, fm.a2, fm.a1x} {
		require.False(t, w.ark.Alive(e), "%v", e)
	}
	for _, e := range []Entity{fm.root, fm.b, fm.f, fm.lone} {
		require.True(t, w.ark.Alive(e), "%v", e)
	}
	_, ok, err := TargetOf[follows](w, fm.f)
	require.NoError(t, err)
	require.False(t, ok, "a follower of a despawned target is detached")
	kids, _ := ChildrenOf[ChildOf](w, fm.root, nil)
	require.Equal(t, []Entity{fm.b}, kids)
	require.Equal(t, 1, relation[ChildOf](w).maxDepth())
	links, err := w.Entities(NewComponent[Link[ChildOf]](w))
	require.NoError(t, err)
	for e := range links {
		tg, _, _ := TargetOf[ChildOf](w, e)
		require.True(t, w.ark.Alive(tg))
	}
}

// A child and its new parent can be spawned in one buffer: the targets'
// placeholders resolve.
func TestRelationSpawnedTarget(t *testing.T) {
	w := NewWorld(Options{})
	pc := NewComponent[pos](w)
	rw := WriteRelation[ChildOf](w.System("spawner"))
	b := w.NewCommands()
	p := b.Spawn()
	pc.Add(b, p, pos{})
	c := b.Spawn()
	pc.Add(b, c, pos{X: 1})
	rw.Set(b, c, p)
	r, err := w.Apply(b)
	require.NoError(t, err)
	require.Empty(t, r.Problems)
	require.Equal(t, 1, w.Count(NewComponent[Link[ChildOf]](w)))
}

// Relation targets are in the hash, snapshots and save files: a restore
// or a load brings the links and the index back.
func TestRelationSnapshotSaveHash(t *testing.T) {
	fm := newFamily(t)
	w := fm.w
	link := NewComponent[Link[ChildOf]](w)
	h0, err := w.Hash(link)
	require.NoError(t, err)
	var s Snapshot
	require.NoError(t, w.Snapshot(&s))
	var file bytes.Buffer
	require.NoError(t, w.Save(&file))
	require.NoError(t, SetTarget[ChildOf](w, fm.a1x, fm.b))
	h1, _ := w.Hash(link)
	require.NotEqual(t, h0, h1, "a different parent hashes differently")
	check := func(what string) {
		h, _ := w.Hash(link)
		require.Equal(t, h0, h, what)
		kids, _ := ChildrenOf[ChildOf](w, fm.a1, nil)
		require.Equal(t, []Entity{fm.a1x}, kids, what)
		kids, _ = ChildrenOf[ChildOf](w, fm.b, nil)
		require.Empty(t, kids, what)
		require.Equal(t, 3, relation[ChildOf](w).maxDepth(), what)
	}
	require.NoError(t, w.Restore(&s))
	check("restore")
	require.NoError(t, SetTarget[ChildOf](w, fm.a1x, fm.b))
	require.NoError(t, w.Load(bytes.NewReader(file.Bytes())))
	check("load")
	b := w.NewCommands()
	b.Despawn(fm.a1)
	_, err = w.Apply(b)
	require.NoError(t, err)
	require.False(t, w.ark.Alive(fm.a1x), "the restored index despawns the subtree")
}

// Misuse answers typed errors: an undeclared kind, a dead entity, a
// second declaration, another system's writer, zero tokens.
func TestRelationMisuse(t *testing.T) {
	fm := newFamily(t)
	w := fm.w
	type other struct{}
	require.ErrorIs(t, SetTarget[other](w, fm.a, fm.b), ErrBadArgument)
	d := w.System("reads other")
	ReadRelation[other](d)
	require.ErrorIs(t, d.Err(), ErrBadArgument)
	require.ErrorIs(t, NewRelation[follows](w, Detach), ErrBadArgument)
	require.ErrorIs(t, NewRelation[other](w, Policy(7)), ErrBadArgument)
	b := w.NewCommands()
	b.Despawn(fm.lone)
	_, err := w.Apply(b)
	require.NoError(t, err)
	require.ErrorIs(t, SetTarget[ChildOf](w, fm.lone, fm.a), ErrNotFound)
	require.ErrorIs(t, SetTarget[ChildOf](w, fm.b, fm.lone), ErrNotFound)

	mine, theirs := w.System("mine"), w.System("theirs")
	rw := WriteRelation[ChildOf](mine)
	q := NewQuery1(theirs, Read[pos](theirs))
	require.NoError(t, w.BeginFrame())
	_, err = q.Prepare(64)
	require.NoError(t, err)
	err = catch(func() { rw.Set(q.chunks[0].Commands(), fm.b, fm.a) })
	require.ErrorIs(t, err, ErrUndeclared)
	assert.Equal(t, `ecs: WEFT-E001: system "theirs" used RelationWriter[ChildOf] of system "mine"; a token works only in the system that declared it: declare it in "theirs" with ecs.WriteRelation[ChildOf](b.Decl()) and use that token`, err.Error())
	_, _ = w.EndFrame()

	var zr RelationReader[ChildOf]
	var zw RelationWriter[ChildOf]
	require.ErrorIs(t, catch(func() { zr.Depths() }), ErrBadArgument)
	require.ErrorIs(t, catch(func() { zw.Remove(w.NewCommands(), fm.a) }), ErrBadArgument)
}

func catch(f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			var ok bool
			if err, ok = r.(error); !ok {
				err = fmt.Errorf("%v", r)
			}
		}
	}()
	f()
	return errors.New("no panic")
}

// The inspection shows an entity's target and children.
func TestInspectRelations(t *testing.T) {
	fm := newFamily(t)
	in, err := fm.w.Inspect(fm.a)
	require.NoError(t, err)
	require.Equal(t, []RelationValue{{Kind: "follows", Children: []Entity{fm.f}}, {Kind: "ChildOf", Target: fm.root, Depth: 1, Children: []Entity{fm.a1, fm.a2}}}, in.Relations)
	assert.Equal(t, []ComponentValue{{Name: "pos", Value: "{X:1 Y:0}"}}, in.Components, "the link is listed once, as the relation")
	text := fmt.Sprint(in.Lines())
	assert.NotContains(t, text, "Link[")
	require.Contains(t, text, fmt.Sprintf("ChildOf target: entity %d (generation 0), depth 1", fm.root.ID()))
	require.Contains(t, text, fmt.Sprintf("ChildOf children: %d, %d", fm.a1.ID(), fm.a2.ID()))
}

// A link written as a plain component (Component[Link[R]]) is refused at
// playback: only the relation's own commands keep the index.
func TestLinkAsComponentRefused(t *testing.T) {
	fm := newFamily(t)
	w := fm.w
	link := NewComponent[Link[ChildOf]](w)
	b := w.NewCommands()
	link.Add(b, fm.lone, Link[ChildOf]{})
	link.Remove(b, fm.a)
	r, err := w.Apply(b)
	require.NoError(t, err)
	require.Len(t, r.Problems, 2)
	_, ok, _ := TargetOf[ChildOf](w, fm.lone)
	require.False(t, ok)
	tg, _, _ := TargetOf[ChildOf](w, fm.a)
	require.Equal(t, fm.root, tg)
}

// An observer cannot change a link in place: SetTarget and RemoveTarget
// are refused during its playback (ErrLocked), and the same change
// recorded in its commands through its RelationWriter plays in that
// playback.
func TestRelationChangeFromObserver(t *testing.T) {
	fm := newFamily(t)
	w := fm.w
	hc := NewComponent[health](w)
	var inPlace []error
	var rel RelationWriter[ChildOf]
	d := w.Observer("adopt", func(ev Observed) error {
		inPlace = append(inPlace, SetTarget[ChildOf](w, fm.lone, ev.Entity), RemoveTarget[ChildOf](w, fm.a1x))
		rel.Set(ev.Commands, fm.lone, ev.Entity)
		return nil
	})
	rel = WriteRelation[ChildOf](d)
	Observe[health](d, OnAdd)
	require.NoError(t, d.Err())
	b := w.NewCommands()
	hc.Add(b, fm.b, health{1})
	_, err := w.Apply(b)
	require.NoError(t, err)
	require.Len(t, inPlace, 2)
	for _, err := range inPlace {
		var we *Error
		require.ErrorAs(t, err, &we)
		require.Equal(t, ErrLocked, we.Code, "%v", err)
	}
	got, ok, err := TargetOf[ChildOf](w, fm.lone)
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, fm.b, got)
	got, ok, err = TargetOf[ChildOf](w, fm.a1x)
	require.NoError(t, err)
	require.True(t, ok, "the refused RemoveTarget left a1x's link")
	require.Equal(t, fm.a1, got)
}

// Playback calls the observers of a relation's Link column as for any
// component: a link recorded where there was none is an OnAdd, a new
// target an OnSet, a removed link an OnRemove, and so is the link of a
// follower that Detach removes when its target is despawned, once, after
// the target's OnDespawn and while the target is still alive.
func TestRelationObservers(t *testing.T) {
	fm := newFamily(t)
	w := fm.w
	var log []string
	d := w.Observer("links", func(ev Observed) error {
		tg, ok := Entity{}, false
		if l := w.link(relation[follows](w), ev.Entity); l != nil && ev.Component == "Link[follows]" {
			tg, ok = l.target, w.ark.Alive(l.target)
		}
		log = append(log, fmt.Sprintf("%v %s f:%v target a:%v alive:%v", ev.Trigger, ev.Component, ev.Entity == fm.f, tg == fm.a, ok))
		return nil
	})
	for _, tr := range []Trigger{OnAdd, OnSet, OnRemove, OnDespawn} {
		Observe[Link[follows]](d, tr)
	}
	Observe[Link[ChildOf]](d, OnDespawn)
	require.NoError(t, d.Err())
	rw := WriteRelation[follows](w.System("w"))
	apply := func(rec func(b *Commands)) {
		b := w.NewCommands()
		rec(b)
		r, err := w.Apply(b)
		require.NoError(t, err)
		require.Empty(t, r.Problems)
	}
	apply(func(b *Commands) { rw.Remove(b, fm.f) })
	apply(func(b *Commands) { rw.Set(b, fm.f, fm.b) })
	apply(func(b *Commands) { rw.Set(b, fm.f, fm.a) })
	require.Equal(t, []string{
		"OnRemove Link[follows] f:true target a:true alive:true",
		"OnAdd Link[follows] f:true target a:false alive:true",
		"OnSet Link[follows] f:true target a:true alive:true",
	}, log)
	log = log[:0]
	apply(func(b *Commands) { b.Despawn(fm.a) })
	require.Equal(t, []string{
		"OnDespawn Link[ChildOf] f:false target a:false alive:false", // a
		"OnRemove Link[follows] f:true target a:true alive:true",     // f, detached from a, still alive
		"OnDespawn Link[ChildOf] f:false target a:false alive:false", // a1
		"OnDespawn Link[ChildOf] f:false target a:false alive:false", // a1x
		"OnDespawn Link[ChildOf] f:false target a:false alive:false", // a2
	}, log)
	_, ok, err := TargetOf[follows](w, fm.f)
	require.NoError(t, err)
	require.False(t, ok)
}

// A RelationReader reads any entity's target and children on the owner,
// as TargetOf and ChildrenOf do.
func TestRelationReaderTargets(t *testing.T) {
	fm := newFamily(t)
	r := ReadRelation[ChildOf](fm.w.System("r"))
	tg, ok := r.Target(fm.a1x)
	require.True(t, ok)
	require.Equal(t, fm.a1, tg)
	_, ok = r.Target(fm.lone)
	require.False(t, ok)
	require.Equal(t, []Entity{fm.a1, fm.a2}, r.Children(fm.a, nil))
	require.Empty(t, r.Children(fm.lone, nil))
}
