// Package cull keeps the sprites that the camera sees, per chunk, and merges them into the render snapshot's draw list ordered by layer, sort key and entity.
package cull

import (
	"cmp"
	"slices"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
	"github.com/weft-engine/weft/systems"
)

// System is the cull system. Its passes, one after another:
//
//	visible  per chunk: the items the camera sees, and their sort keys, sorted and cut into pieces
//	place    one job: where each piece of the draw order starts
//	pieces   per piece of the draw order: the chunks' runs of it merged, the items copied in that order
//
// and Merge, on the owner, hands them to the snapshot's draw list. The
// draw order is cut into pieces by splitter keys, taken from the last
// step's draw list at equal steps, so that the pieces are about equal
// while the view changes little; any splitters give the same draw list,
// only a less even split. The order is total (the entity breaks ties), so
// the draw list is the same for every worker count and batch size. Three
// passes, not a tree of pairwise merges: each pass ends in a join where a
// participant may wait, and each level of such a tree wrote every key again.
type System struct {
	pos                  ecs.Reader[systems.Position]
	sprite               ecs.Reader[systems.Sprite]
	look                 ecs.Reader[systems.Look]
	camera               ecs.ResReader[engine.Camera]
	pass, place, collect *engine.Pass

	split   []key               // pieces-1 keys: piece p holds the keys from split[p-1] up to before split[p]; Merge writes them, the next step's visible jobs read them
	raw     [][]engine.Item     // per chunk: visible items, in row order
	keys    [][]key             // per chunk: their sort keys, sorted
	cut     [][pieces + 1]int32 // per chunk: piece p of its keys is keys[cut[p]:cut[p+1]]
	at      [pieces + 1]int     // piece p goes to items[at[p]:at[p+1]]
	scratch [pieces]scratch     // per piece: its merge's room
	items   []engine.Item       // in draw order

	// Visible is the number of items drawn in the last step.
	Visible int
}

// pieces is how many jobs merge the draw order, so that every worker of a
// small pool has some.
const pieces = 16

// New makes the cull system.
func New() *System { return &System{} }

// Name is "cull".
func (s *System) Name() string { return "cull" }

// Build declares the reads and the passes.
func (s *System) Build(b *engine.Builder) error {
	d := b.Decl()
	s.pos, s.sprite, s.look = ecs.Read[systems.Position](d), ecs.Read[systems.Sprite](d), ecs.Read[systems.Look](d)
	s.camera = ecs.ReadRes[engine.Camera](d)
	s.pass = b.Chunks("visible", ecs.NewQuery3(d, s.pos, s.sprite, s.look), s.chunk)
	s.place = b.Range("place", func(int, int) { s.placePieces() })
	s.collect = b.Range("pieces", s.mergePieces)
	return nil
}

// Schedule makes one visible list per chunk, then starts the passes.
func (s *System) Schedule(f *engine.Frame) error {
	n, err := f.Prepare(s.pass)
	if err != nil {
		return err
	}
	for len(s.raw) < n {
		s.raw, s.keys = append(s.raw, nil), append(s.keys, nil)
	}
	s.raw, s.keys = s.raw[:n], s.keys[:n]
	s.cut = slices.Grow(s.cut[:0], n)[:n]
	if err := f.Run(s.pass); err != nil {
		return err
	}
	if err := f.RunRange(s.place, 1, 1); err != nil {
		return err
	}
	return f.RunRange(s.collect, pieces, 1)
}

// chunk runs as a job, one per chunk, in parallel: it writes only its
// chunk's lists, which Schedule sized before the pass started.
func (s *System) chunk(c *ecs.Chunk) {
	pos, spr, look := s.pos.Column(c), s.sprite.Column(c), s.look.Column(c)
	ents := c.Entities()
	minX, minY, maxX, maxY := s.camera.Get().Rect()
	k := c.Index()
	// Room for every row: what the camera sees changes every step, and
	// growing to each new peak would allocate again and again.
	raw, keys := slices.Grow(s.raw[k][:0], len(pos)), slices.Grow(s.keys[k][:0], len(pos))
	for i := range pos {
		p, sp, lk := pos[i], &spr[i], &look[i]
		r := sp.Extent * lk.Scale
		if p.X+r < minX || p.X-r > maxX || p.Y+r < minY || p.Y-r > maxY {
			continue
		}
		it := engine.Item{
			Entity: uint64(ents[i].ID())<<32 | uint64(ents[i].Gen()),
			X:      p.X, Y: p.Y, Extent: sp.Extent, Scale: lk.Scale, Rotation: lk.Rotation, Color: lk.Color,
			Sheet: sp.Sheet, Frame: sp.Frame, Layer: sp.Layer, Sort: sp.Sort,
		}
		keys = append(keys, keyOf(&it, int32(k), int32(len(raw))))
		raw = append(raw, it)
	}
	slices.SortFunc(keys, func(a, b key) int { return a.compare(&b) }) // the small keys, not the items
	s.raw[k], s.keys[k] = raw, keys
	s.cutPieces(keys, &s.cut[k])
}

// cutPieces finds where each piece starts in sorted keys: at the first key
// not before its splitter.
func (s *System) cutPieces(keys []key, cut *[pieces + 1]int32) {
	for p := range cut {
		switch {
		case p == 0:
			cut[p] = 0
		case p > len(s.split):
			cut[p] = int32(len(keys))
		default:
			i, _ := slices.BinarySearchFunc(keys, s.split[p-1], func(k, sp key) int { return k.compare(&sp) })
			cut[p] = int32(i)
		}
	}
}

// placePieces (one job, after the visible pass) lays out the draw order:
// where each piece starts.
func (s *System) placePieces() {
	at := 0
	for p := range pieces {
		s.at[p] = at
		for k := range s.cut {
			at += int(s.cut[k][p+1] - s.cut[k][p])
		}
	}
	s.at[pieces] = at
	s.items = slices.Grow(s.items[:0], at)[:at]
}

// scratch is a piece's room to merge in: runs of keys end at ends.
type scratch struct {
	in, out []key
	ends    []int
}

// mergePieces (a job per piece, after place) merges pieces [lo, hi) from
// every chunk's run of it, pairwise, level by level, in the piece's own
// scratch (a few thousand keys: in cache), and copies their items in that
// order.
func (s *System) mergePieces(lo, hi int) {
	for p := lo; p < hi; p++ {
		sc := &s.scratch[p]
		in, ends := sc.in[:0], sc.ends[:0]
		for k := range s.cut {
			if c := &s.cut[k]; c[p] < c[p+1] {
				in = append(in, s.keys[k][c[p]:c[p+1]]...)
				ends = append(ends, len(in))
			}
		}
		out := slices.Grow(sc.out[:0], len(in))[:len(in)]
		for len(ends) > 1 {
			w, from := 0, 0
			for i := 0; i < len(ends); i += 2 {
				end := ends[i]
				if i+1 < len(ends) {
					end = ends[i+1]
					merge(out[from:end], in[from:ends[i]], in[ends[i]:end])
				} else { // the odd run out
					copy(out[from:end], in[from:end])
				}
				ends[w], from = end, end
				w++
			}
			ends, in, out = ends[:w], out, in
		}
		for i, k := range in {
			s.items[s.at[p]+i] = s.raw[k.chunk][k.i]
		}
		sc.in, sc.out, sc.ends = in, out, ends
	}
}

// merge fills dst with the merge of x and y.
func merge(dst, x, y []key) {
	i, j := 0, 0
	for d := range dst {
		if j == len(y) || i < len(x) && x[i].compare(&y[j]) < 0 {
			dst[d] = x[i]
			i++
		} else {
			dst[d] = y[j]
			j++
		}
	}
}

// keyOf is item it's key, for raw[chunk][i].
func keyOf(it *engine.Item, chunk, i int32) key {
	return key{order: uint64(uint32(it.Layer)^1<<31)<<32 | uint64(uint32(it.Sort)^1<<31), entity: it.Entity, chunk: chunk, i: i}
}

// key is an item's place in the draw order: (layer, sort key) as one
// unsigned number, then the entity.
type key struct {
	order, entity uint64
	chunk, i      int32 // the item: raw[chunk][i]
}

func (a *key) compare(b *key) int {
	if a.order != b.order {
		return cmp.Compare(a.order, b.order)
	}
	return cmp.Compare(a.entity, b.entity)
}

// Merge puts the items, in draw order, into the snapshot's draw list.
// When the list is still empty it takes cull's array and gives cull the
// list's old one, instead of copying: the list's old array belongs to
// the snapshot published two steps before, which no one reads once this
// step has begun, and the array the list takes stays the snapshot's until
// its buffer is reused two steps later. So the owner's serial time
// does not grow with the items. Executed only by the owner, after every
// pass of the step has finished.
func (s *System) Merge(f *engine.Frame) error {
	snap, n := f.Snapshot(), len(s.items)
	if len(snap.Items) == 0 {
		snap.Items, s.items = s.items, snap.Items[:0]
	} else {
		snap.Items = append(snap.Items, s.items...)
	}
	items := snap.Items[len(snap.Items)-n:]
	s.Visible = n
	// The next step's splitters: this step's draw order at equal steps.
	s.split = s.split[:0]
	for p := 1; p < pieces && n >= pieces; p++ {
		s.split = append(s.split, keyOf(&items[n*p/pieces], 0, 0))
	}
	return nil
}
